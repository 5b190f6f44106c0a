import { deeperThan, MAX_JSON_DEPTH } from '../lib/json-depth.js';
import { BUNDLE_FORMAT, type CheckedBundle } from './format.js';
import { firstNonJson } from './json-value.js';
import { isObject, type Problem, Problems } from '../lib/problems.js';
import { parseAssets, parseLists } from './validate-assets.js';
import { parseBundleDocs } from './validate-docs.js';
import { entryTypesOf, parseEntries, parseReleases } from './validate-entries.js';
import type { FieldContext } from './validate-fields.js';
import { parseForms } from './validate-forms.js';
import { parseSpace } from './validate-space.js';
import { parseTokens } from './validate-tokens.js';
import { parseTypes } from './validate-types.js';

export { ENTRY_ID, RELEASE_ID, SLUG } from './validate-entries.js';

const LISTS = [
  'tokens',
  'types',
  'entries',
  'assets',
  'lists',
  'releases',
  'menus',
  'redirects',
  'forms',
  'webhooks',
] as const;
type ListKey = (typeof LISTS)[number];
const TOP_LEVEL = new Set<string>(['format', 'space', ...LISTS]);

export type BundleCheck = { ok: true; bundle: CheckedBundle } | { ok: false; problems: Problem[] };

/**
 * Checks a whole bundle before anything is written, every problem named by its JSON path, and returns the bundle
 * rebuilt from what it checked (STYLE.md 13): new objects, lists left out as `[]`, defaults applied. Nothing of
 * the input is handed on, so nothing unchecked reaches the import.
 */
export function validateBundle(input: unknown): BundleCheck {
  if (!isObject(input)) return { ok: false, problems: [{ path: '$', message: 'must be a JSON object' }] };
  // The checks below recurse (rich text, blocks, forms); a file from the CLI never passed the body depth guard.
  if (deeperThan(input))
    return { ok: false, problems: [{ path: '$', message: `nests deeper than ${MAX_JSON_DEPTH} levels` }] };
  const notJson = firstNonJson(input);
  if (notJson !== null) return { ok: false, problems: [{ path: notJson, message: 'is not a JSON value' }] };

  const p = new Problems();
  if (input.format !== BUNDLE_FORMAT) p.add('format', `must be "${BUNDLE_FORMAT}"`);
  for (const key of Object.keys(input))
    if (!TOP_LEVEL.has(key) && input[key] !== undefined) p.add(key, 'is not a member of a bundle');
  const raw = {} as Record<ListKey, Record<string, unknown>[]>;
  for (const key of LISTS) {
    const v = input[key];
    raw[key] = [];
    if (v === undefined) continue;
    if (!Array.isArray(v)) p.add(key, 'must be an array');
    else
      v.forEach((item: unknown, i) => {
        if (isObject(item)) raw[key].push(item);
        else p.add(`${key}[${i}]`, 'must be an object');
      });
  }
  const { space, locales } = parseSpace(input.space, p);
  if (!p.empty || !space) return { ok: false, problems: p.list };

  const lists = parseLists(raw.lists, locales, p);
  const listKeys = new Set(raw.lists.flatMap((l) => (typeof l.key === 'string' ? [l.key] : [])));
  const types = parseTypes(raw.types, listKeys, locales, p);
  const assets = parseAssets(raw.assets, locales, p);
  const tokens = parseTokens(raw.tokens, p);
  const forms = parseForms(raw.forms, { locales, listKeys }, p);
  const ctx: FieldContext = {
    locales,
    types,
    entryTypes: entryTypesOf(raw.entries, p),
    assets: new Set(raw.assets.flatMap((a) => (typeof a.id === 'string' ? [a.id] : []))),
    lists: new Map(lists.map((l) => [l.key, new Set(l.options.map((o) => o.value))])),
    problems: p,
  };
  const entries = parseEntries(raw.entries, ctx, space.locales);
  const releases = parseReleases(raw.releases, ctx);
  const docs = parseBundleDocs(raw, ctx, p);
  if (!p.empty) return { ok: false, problems: p.list };
  return {
    ok: true,
    bundle: {
      format: BUNDLE_FORMAT,
      space,
      tokens,
      types: [...types.values()],
      entries,
      assets,
      lists,
      releases,
      ...docs,
      forms,
    },
  };
}

import { type ContentTypeDef, type FieldValues, hasPaths, type LocaleDef } from '../content/model.js';
import { computePaths } from '../content/paths.js';
import { pathKey } from '../lib/path-key.js';
import type { BundleRelease, CheckedEntry } from './format.js';
import { copyJson, copyTexts } from './json-value.js';
import { at, isObject, isTimestamp, type Problems, show } from '../lib/problems.js';
import { checkFields, type FieldContext } from './validate-fields.js';

export const ENTRY_ID = /^ent_[A-Za-z0-9_-]{1,64}$/;
export const RELEASE_ID = /^rel_[A-Za-z0-9_-]{1,64}$/;
// A slug is one path segment: no slash, no whitespace, no dot segments; '' only for start pages.
export const SLUG = /^(?!\.{1,2}$)[^\s/?#%\\]{0,200}$/u;
/** As the management API (src/lib/management-schemas.ts). */
const MAX_POSITION = 1_000_000_000;
/** Deeper trees are refused before paths are computed (a recursion per level). */
const MAX_TREE_DEPTH = 1000;
const ENTRY_MEMBERS = new Set([
  'id',
  'type',
  'name',
  'slug',
  'slugs',
  'parent',
  'position',
  'tags',
  'fields',
  'published',
  'draft',
]);

/** Entry ids → their type key, for every entry with a well-formed id (what references may name). */
export function entryTypesOf(raw: readonly Record<string, unknown>[], p: Problems): Map<string, string> {
  const entryTypes = new Map<string, string>();
  raw.forEach((e, i) => {
    const ep = at('entries', i);
    if (typeof e.id !== 'string' || !ENTRY_ID.test(e.id)) p.add(at(ep, 'id'), 'must be an ent_ id');
    else if (entryTypes.has(e.id)) p.add(at(ep, 'id'), `duplicate entry id "${e.id}"`);
    else entryTypes.set(e.id, typeof e.type === 'string' ? e.type : '');
  });
  return entryTypes;
}

/**
 * The bundle's `entries`, defaults applied (`slugs: {}`, `parent: null`, `draft: null`), fields checked against
 * their type and copied. Then the tree (parents exist, are folders or pages, no cycles) and the paths (no two
 * published pages share one).
 */
export function parseEntries(
  raw: readonly Record<string, unknown>[],
  ctx: FieldContext,
  spaceLocales: LocaleDef[],
): CheckedEntry[] {
  const p = ctx.problems;
  const globals = new Set<string>();
  const entries = raw.flatMap((e, i): CheckedEntry[] => {
    const before = p.count;
    const ep = at('entries', i);
    for (const key of Object.keys(e))
      if (!ENTRY_MEMBERS.has(key)) p.add(at(ep, key), 'is not a member of an entry');
    const { id, name, slug, parent, position, tags, published, draft } = e;
    const type = typeof e.type === 'string' ? ctx.types.get(e.type) : undefined;
    if (!type) p.add(at(ep, 'type'), `${show(e.type)} is not a type of the bundle`);
    else if (type.kind === 'block') p.add(at(ep, 'type'), `"${type.key}" is a block type, not an entry type`);
    else if (type.kind === 'global') {
      if (globals.has(type.key)) p.add(at(ep, 'type'), `global "${type.key}" has more than one entry`);
      globals.add(type.key);
    }
    if (typeof name !== 'string' || name === '') p.add(at(ep, 'name'), 'must be a non-empty string');
    if (typeof slug !== 'string' || !SLUG.test(slug))
      p.add(at(ep, 'slug'), 'must be one path segment (or "" for a start page)');
    const slugs = parseSlugs(e.slugs, at(ep, 'slugs'), ctx.locales, p);
    if (parent !== undefined && parent !== null && typeof parent !== 'string')
      p.add(at(ep, 'parent'), 'must be an entry id or null');
    if (!Number.isInteger(position) || Number(position) < 0 || Number(position) > MAX_POSITION)
      p.add(at(ep, 'position'), `must be an integer from 0 to ${MAX_POSITION}`);
    if (!Array.isArray(tags) || !tags.every((t) => typeof t === 'string'))
      p.add(at(ep, 'tags'), 'must be an array of strings');
    const when = parsePublished(published, at(ep, 'published'), p);
    if (draft !== undefined && draft !== null) {
      if (published === null) p.add(at(ep, 'draft'), 'an unpublished entry keeps its draft in fields');
      else if (!isObject(draft)) p.add(at(ep, 'draft'), 'must be null or { fields }');
    }
    if (type) {
      checkFields(e.fields, type, at(ep, 'fields'), ctx);
      if (isObject(draft) && published !== null)
        checkFields(draft.fields, type, at(at(ep, 'draft'), 'fields'), ctx);
    }
    if (p.count !== before || !type || when === undefined) return [];
    if (typeof id !== 'string' || typeof name !== 'string' || typeof slug !== 'string') return [];
    if (typeof position !== 'number' || !Array.isArray(tags) || !slugs) return [];
    return [
      {
        id,
        type: type.key,
        name,
        slug,
        slugs,
        parent: typeof parent === 'string' ? parent : null,
        position,
        tags: tags.filter((t): t is string => typeof t === 'string'),
        fields: copyJson(e.fields) as FieldValues,
        published: when,
        draft: isObject(draft) ? { fields: copyJson(draft.fields) as FieldValues } : null,
      },
    ];
  });
  checkTree(raw, ctx.types, p);
  if (p.count === 0) checkPaths(entries, ctx.types, spaceLocales, p);
  return entries;
}

function parseSlugs(
  raw: unknown,
  path: string,
  locales: ReadonlySet<string>,
  p: Problems,
): Record<string, string> | undefined {
  if (raw === undefined) return {};
  if (!isObject(raw)) {
    p.add(path, 'must be an object keyed by locale');
    return undefined;
  }
  const before = p.count;
  for (const [l, s] of Object.entries(raw)) {
    if (!locales.has(l)) p.add(at(path, l), `"${l}" is not a locale of the space`);
    else if (typeof s !== 'string' || !SLUG.test(s)) p.add(at(path, l), 'must be one path segment');
  }
  return p.count === before ? copyTexts(raw) : undefined;
}

function parsePublished(
  raw: unknown,
  path: string,
  p: Problems,
): { at: string; firstAt: string } | null | undefined {
  if (raw === null) return null;
  if (!isObject(raw) || !isTimestamp(raw.at) || !isTimestamp(raw.firstAt)) {
    p.add(path, 'must be null or { at, firstAt } ISO timestamps');
    return undefined;
  }
  if (raw.firstAt > raw.at) {
    p.add(at(path, 'firstAt'), 'must not be after published.at');
    return undefined;
  }
  return { at: raw.at, firstAt: raw.firstAt };
}

interface TreeNode {
  index: number;
  id: string;
  type: string;
  parent: string | null;
}

/** Parents exist, are folders or pages, and form no cycle; only pages, folders and page collections have one. */
function checkTree(
  raw: readonly Record<string, unknown>[],
  types: ReadonlyMap<string, ContentTypeDef>,
  p: Problems,
): void {
  // Every entry with an id takes part, so a bad parent is named even beside other problems of its entry.
  const byId = new Map<string, TreeNode>();
  raw.forEach((e, index) => {
    if (typeof e.id !== 'string' || byId.has(e.id)) return;
    const parent = typeof e.parent === 'string' ? e.parent : null;
    byId.set(e.id, { index, id: e.id, type: typeof e.type === 'string' ? e.type : '', parent });
  });
  for (const e of byId.values()) {
    if (e.parent === null) continue;
    const pp = at(at('entries', e.index), 'parent');
    const parent = byId.get(e.parent);
    if (!parent) {
      p.add(pp, `entry ${show(e.parent)} is not in the bundle`);
      continue;
    }
    const kind = types.get(parent.type)?.kind;
    if (kind !== 'folder' && kind !== 'page') p.add(pp, `"${e.parent}" is not a folder or page`);
    else if (!hasPaths(types.get(e.type)))
      p.add(pp, 'only pages, folders and page collections live in the tree');
    else {
      const seen = new Set([e.id]);
      for (
        let cur: TreeNode | undefined = parent;
        cur;
        cur = cur.parent === null ? undefined : byId.get(cur.parent)
      ) {
        if (seen.has(cur.id)) {
          p.add(pp, 'parents form a cycle');
          break;
        }
        if (seen.size > MAX_TREE_DEPTH) {
          p.add(pp, `the tree nests deeper than ${MAX_TREE_DEPTH} levels`);
          break;
        }
        seen.add(cur.id);
      }
    }
  }
}

/** Two published pages must not share a path in any locale. */
function checkPaths(
  entries: readonly CheckedEntry[],
  types: ReadonlyMap<string, ContentTypeDef>,
  locales: LocaleDef[],
  p: Problems,
): void {
  const settings = { locales, timeZone: 'UTC', ai: false, imagePresets: {} };
  const published = entries.filter((e) => e.published !== null);
  const paths = computePaths(
    published.map((e) => ({ id: e.id, type: e.type, parentId: e.parent, slug: e.slug, slugs: e.slugs })),
    types,
    settings,
  );
  const owners = new Map<string, string>();
  for (const e of published) {
    if (types.get(e.type)?.kind === 'folder') continue;
    for (const [locale, path] of Object.entries(paths.get(e.id) ?? {})) {
      const key = `${locale} ${pathKey(path)}`;
      const owner = owners.get(key);
      if (owner)
        p.add(at('entries', entries.indexOf(e)), `path "${path}" (${locale}) is also the path of ${owner}`);
      else owners.set(key, e.id);
    }
  }
}

/** The bundle's `releases`: `{ id, name, entries: [{ id, fields }] }`, each entry's fields checked against its type. */
export function parseReleases(raw: readonly Record<string, unknown>[], ctx: FieldContext): BundleRelease[] {
  const p = ctx.problems;
  const ids = new Set<string>();
  return raw.flatMap((r, i) => {
    const before = p.count;
    const rp = at('releases', i);
    if (typeof r.id !== 'string' || !RELEASE_ID.test(r.id)) p.add(at(rp, 'id'), 'must be a rel_ id');
    else if (ids.has(r.id)) p.add(at(rp, 'id'), `duplicate release "${r.id}"`);
    else ids.add(r.id);
    if (typeof r.name !== 'string') p.add(at(rp, 'name'), 'must be a string');
    if (!Array.isArray(r.entries)) p.add(at(rp, 'entries'), 'must be an array');
    const entries = (Array.isArray(r.entries) ? r.entries : []).flatMap((re: unknown, j) => {
      const ep = at(at(rp, 'entries'), j);
      const id = isObject(re) && typeof re.id === 'string' ? re.id : undefined;
      const type = id === undefined ? undefined : ctx.types.get(ctx.entryTypes.get(id) ?? '');
      if (!isObject(re) || id === undefined || !type) {
        p.add(at(ep, 'id'), 'must name an entry of the bundle');
        return [];
      }
      const fieldsBefore = p.count;
      checkFields(re.fields, type, at(ep, 'fields'), ctx);
      return p.count === fieldsBefore ? [{ id, fields: copyJson(re.fields) as FieldValues }] : [];
    });
    if (p.count !== before || typeof r.id !== 'string' || typeof r.name !== 'string') return [];
    return [{ id: r.id, name: r.name, entries }];
  });
}

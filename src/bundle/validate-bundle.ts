import { parseScopes } from '../auth/scopes.js';
import { type ContentTypeDef, FIELD_TYPES, type FieldDef, hasPaths, TYPE_KINDS } from '../content/model.js';
import { computePaths, pathKey } from '../content/paths.js';
import { deeperThan, MAX_JSON_DEPTH } from '../lib/json-depth.js';
import { BUNDLE_FORMAT, type Bundle } from './format.js';
import { at, isObject, isTimestamp, KEY, LOCALE, type Problem, Problems } from './problems.js';
import { checkFields, type FieldContext } from './validate-fields.js';
import { checkForms } from './validate-forms.js';
import { checkBundleDocs } from './validate-docs.js';

export const ENTRY_ID = /^ent_[A-Za-z0-9_-]{1,64}$/;
const ASSET_ID = /^ast_[A-Za-z0-9_-]{1,64}$/;
export const RELEASE_ID = /^rel_[A-Za-z0-9_-]{1,64}$/;
const SPACE_ID = /^spc_[A-Za-z0-9_-]{1,64}$/;
// A slug is one path segment: no slash, no whitespace, no dot segments; '' only for start pages.
export const SLUG = /^(?!\.{1,2}$)[^\s/?#%\\]{0,200}$/u;
const TOKEN_VALUE = /^folio_(pub|prv|mgt)_[A-Za-z0-9]{16,128}$/;

const TOP_LEVEL = new Set([
  'format',
  'space',
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
]);
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

export type BundleCheck = { ok: true; bundle: Bundle } | { ok: false; problems: Problem[] };

/** Checks a whole bundle before anything is written; every problem names its JSON path. */
export function validateBundle(input: unknown): BundleCheck {
  const p = new Problems();
  if (!isObject(input)) return { ok: false, problems: [{ path: '$', message: 'must be a JSON object' }] };
  // The checks below recurse (rich text, blocks, forms); a file from the CLI never passed the body depth guard.
  if (deeperThan(input))
    return { ok: false, problems: [{ path: '$', message: `nests deeper than ${MAX_JSON_DEPTH} levels` }] };
  if (input.format !== BUNDLE_FORMAT) p.add('format', `must be "${BUNDLE_FORMAT}"`);
  for (const key of Object.keys(input)) if (!TOP_LEVEL.has(key)) p.add(key, 'is not a member of a bundle');
  const arrays = [
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
  ];
  for (const key of arrays) {
    const v = input[key];
    if (v !== undefined && !Array.isArray(v)) p.add(key, 'must be an array');
    else if (Array.isArray(v))
      v.forEach((item, i) => isObject(item) || p.add(at(key, i), 'must be an object'));
  }
  const locales = checkSpace(input.space, p);
  if (!p.empty) return { ok: false, problems: p.list };

  const bundle = {
    format: BUNDLE_FORMAT,
    space: input.space,
    ...Object.fromEntries(arrays.map((k) => [k, input[k] ?? []])),
  } as Bundle;

  checkTokens(bundle, p);
  const types = checkTypes(bundle, p);
  const assets = new Set<string>();
  bundle.assets.forEach((a, i) => {
    const ap = at('assets', i);
    if (typeof a.id !== 'string' || !ASSET_ID.test(a.id)) p.add(at(ap, 'id'), 'must be an ast_ id');
    else if (assets.has(a.id)) p.add(at(ap, 'id'), `duplicate asset id "${a.id}"`);
    else assets.add(a.id);
    if (
      typeof a.file !== 'string' ||
      a.file === '' ||
      a.file.startsWith('/') ||
      a.file.split(/[\\/]/).includes('..')
    )
      p.add(at(ap, 'file'), 'must be a relative path inside the bundle folder');
    if (a.focal !== undefined && a.focal !== null && !isFraction2(a.focal))
      p.add(at(ap, 'focal'), 'must be { x, y } with fractions 0..1');
  });
  const lists = new Map<string, Set<string>>();
  bundle.lists.forEach((l, i) => {
    const lp = at('lists', i);
    if (typeof l.key !== 'string' || !KEY.test(l.key))
      p.add(at(lp, 'key'), 'must be a key (letters, digits, _ -)');
    else if (lists.has(l.key)) p.add(at(lp, 'key'), `duplicate list "${l.key}"`);
    if (!Array.isArray(l.options)) p.add(at(lp, 'options'), 'must be an array');
    const values = new Set<string>();
    (Array.isArray(l.options) ? l.options : []).forEach((o, j) => {
      const op = at(at(lp, 'options'), j);
      if (!isObject(o) || typeof o.value !== 'string') p.add(op, 'must be { value, label }');
      else if (values.has(o.value)) p.add(at(op, 'value'), `duplicate value "${o.value}"`);
      else values.add(o.value);
      if (isObject(o)) checkTexts(o.label, at(op, 'label'), locales, p);
    });
    lists.set(l.key, values);
  });
  for (const [i, t] of bundle.types.entries())
    for (const [j, f] of (t.fields ?? []).entries())
      if (f.list !== undefined && !lists.has(f.list))
        p.add(at(at(at('types', i), 'fields'), j), `list "${f.list}" is not in the bundle`);

  checkForms(bundle, locales, p);
  const entryTypes = checkEntries(bundle, types, locales, p);
  const ctx: FieldContext = { locales, types, entryTypes, assets, lists, problems: p };
  bundle.entries.forEach((e, i) => {
    const type = types.get(e.type);
    if (!type) return;
    checkFields(e.fields, type, at(at('entries', i), 'fields'), ctx);
    if (e.draft !== undefined && e.draft !== null) {
      if (e.published === null)
        p.add(at(at('entries', i), 'draft'), 'an unpublished entry keeps its draft in fields');
      else checkFields(e.draft.fields, type, at(at(at('entries', i), 'draft'), 'fields'), ctx);
    }
  });
  const releaseIds = new Set<string>();
  bundle.releases.forEach((r, i) => {
    const rp = at('releases', i);
    if (typeof r.id !== 'string' || !RELEASE_ID.test(r.id)) p.add(at(rp, 'id'), 'must be a rel_ id');
    else if (releaseIds.has(r.id)) p.add(at(rp, 'id'), `duplicate release "${r.id}"`);
    else releaseIds.add(r.id);
    if (typeof r.name !== 'string') p.add(at(rp, 'name'), 'must be a string');
    if (!Array.isArray(r.entries)) p.add(at(rp, 'entries'), 'must be an array');
    else
      r.entries.forEach((re, j) => {
        const ep = at(at(rp, 'entries'), j);
        const type = isObject(re) ? types.get(entryTypes.get(String(re.id)) ?? '') : undefined;
        if (!isObject(re) || !type) p.add(at(ep, 'id'), 'must name an entry of the bundle');
        else checkFields(re.fields, type, at(ep, 'fields'), ctx);
      });
  });
  checkBundleDocs(bundle, { locales, types, entryTypes, assets }, p);
  return p.empty ? { ok: true, bundle } : { ok: false, problems: p.list };
}

function isFraction2(v: unknown): boolean {
  return isObject(v) && [v.x, v.y].every((n) => typeof n === 'number' && n >= 0 && n <= 1);
}

function checkTexts(v: unknown, path: string, locales: ReadonlySet<string>, p: Problems): void {
  if (!isObject(v)) {
    p.add(path, 'must be an object keyed by locale');
    return;
  }
  for (const [k, t] of Object.entries(v)) {
    if (!locales.has(k)) p.add(at(path, k), `"${k}" is not a locale of the space`);
    else if (typeof t !== 'string') p.add(at(path, k), 'must be a string');
  }
}

function checkSpace(space: unknown, p: Problems): Set<string> {
  const codes = new Set<string>();
  if (!isObject(space)) {
    p.add('space', 'must be an object');
    return codes;
  }
  if (typeof space.id !== 'string' || !SPACE_ID.test(space.id)) p.add('space.id', 'must be an spc_ id');
  if (typeof space.name !== 'string' || space.name === '') p.add('space.name', 'must be a non-empty string');
  if (space.ai !== undefined && typeof space.ai !== 'boolean') p.add('space.ai', 'must be true or false');
  if (space.timeZone !== undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: String(space.timeZone) });
    } catch {
      p.add('space.timeZone', `"${String(space.timeZone)}" is not an IANA time zone`);
    }
  }
  if (space.imagePresets !== undefined) {
    if (!isObject(space.imagePresets)) p.add('space.imagePresets', 'must be an object');
    else
      for (const [k, v] of Object.entries(space.imagePresets)) {
        const ok =
          isObject(v) &&
          [v.width, v.height].every((n) => Number.isInteger(n) && Number(n) > 0 && Number(n) <= 3840);
        if (!ok) p.add(at('space.imagePresets', k), 'must be { width, height } in pixels up to 3840');
      }
  }
  if (!Array.isArray(space.locales) || space.locales.length === 0) {
    p.add('space.locales', 'must be a non-empty array');
    return codes;
  }
  let defaults = 0;
  space.locales.forEach((l, i) => {
    const lp = at('space.locales', i);
    if (!isObject(l) || typeof l.code !== 'string' || !LOCALE.test(l.code))
      p.add(at(lp, 'code'), 'must be a locale code like "de-ch"');
    else if (codes.has(l.code)) p.add(at(lp, 'code'), `duplicate locale "${l.code}"`);
    else codes.add(l.code);
    if (isObject(l) && l.default === true) defaults++;
  });
  if (defaults !== 1) p.add('space.locales', 'exactly one locale must have "default": true');
  space.locales.forEach((l, i) => {
    if (!isObject(l) || l.fallbacks === undefined) return;
    const fp = at(at('space.locales', i), 'fallbacks');
    if (!Array.isArray(l.fallbacks)) p.add(fp, 'must be an array of locale codes');
    else
      l.fallbacks.forEach((f, j) => {
        if (typeof f !== 'string' || !codes.has(f))
          p.add(at(fp, j), `"${String(f)}" is not a locale of the space`);
        else if (f === l.code) p.add(at(fp, j), 'a locale cannot fall back to itself');
      });
  });
  return codes;
}

function checkTokens(bundle: Bundle, p: Problems): void {
  const seen = new Set<string>();
  bundle.tokens.forEach((t, i) => {
    const tp = at('tokens', i);
    if (!['public', 'preview', 'management'].includes(t.kind))
      p.add(at(tp, 'kind'), 'must be public, preview or management');
    const prefix = { public: 'pub', preview: 'prv', management: 'mgt' }[t.kind];
    if ((t.value === undefined) === (t.hash === undefined))
      p.add(tp, 'must have exactly one of value and hash');
    if (t.value !== undefined) {
      if (
        typeof t.value !== 'string' ||
        !TOKEN_VALUE.test(t.value) ||
        !t.value.startsWith(`folio_${prefix}_`)
      )
        p.add(at(tp, 'value'), `must be folio_${prefix ?? '…'}_ followed by 16 to 128 letters and digits`);
      else if (seen.has(t.value)) p.add(at(tp, 'value'), 'duplicate token');
      else seen.add(t.value);
    }
    if (t.scopes !== undefined) {
      // A narrow token must stay narrow through export and import (issue 11 permissions).
      if (t.kind !== 'management') p.add(at(tp, 'scopes'), 'only management tokens have scopes');
      else {
        const parsed = parseScopes(t.scopes);
        if (!parsed.ok || !Array.isArray(t.scopes))
          p.add(at(tp, 'scopes'), parsed.ok ? 'must be an array' : parsed.problem);
      }
    }
    if (t.hash !== undefined && (typeof t.hash !== 'string' || !/^sha256:[0-9a-f]{64}$/.test(t.hash)))
      p.add(at(tp, 'hash'), 'must be sha256:<64 hex digits>');
    if (t.origins !== undefined) {
      if (!Array.isArray(t.origins)) p.add(at(tp, 'origins'), 'must be an array of origins');
      else
        t.origins.forEach((o, j) => {
          let ok = false;
          try {
            const u = new URL(String(o));
            ok = (u.protocol === 'https:' || u.protocol === 'http:') && u.origin === o;
          } catch {
            ok = false;
          }
          if (!ok) p.add(at(at(tp, 'origins'), j), 'must be an origin like https://example.com (no path)');
        });
    }
  });
}

function checkTypes(bundle: Bundle, p: Problems): Map<string, ContentTypeDef> {
  const types = new Map<string, ContentTypeDef>();
  bundle.types.forEach((t, i) => {
    const tp = at('types', i);
    if (typeof t.key !== 'string' || !KEY.test(t.key))
      p.add(at(tp, 'key'), 'must be a key (letters, digits, _ -)');
    else if (types.has(t.key)) p.add(at(tp, 'key'), `duplicate type "${t.key}"`);
    else types.set(t.key, { ...t, fields: Array.isArray(t.fields) ? t.fields : [] });
    if (!(TYPE_KINDS as readonly string[]).includes(t.kind))
      p.add(at(tp, 'kind'), `must be one of ${TYPE_KINDS.join(', ')}`);
    if (t.fields !== undefined && !Array.isArray(t.fields)) p.add(at(tp, 'fields'), 'must be an array');
  });
  bundle.types.forEach((t, i) => {
    const keys = new Set<string>();
    (Array.isArray(t.fields) ? t.fields : []).forEach((f: FieldDef, j) => {
      const fp = at(at(at('types', i), 'fields'), j);
      if (!isObject(f) || typeof f.key !== 'string' || !KEY.test(f.key)) {
        p.add(at(fp, 'key'), 'must be a key (letters, digits, _ -)');
        return;
      }
      if (keys.has(f.key)) p.add(at(fp, 'key'), `duplicate field "${f.key}"`);
      keys.add(f.key);
      if (!(FIELD_TYPES as readonly string[]).includes(f.type))
        p.add(at(fp, 'type'), `must be one of ${FIELD_TYPES.join(', ')}`);
      for (const b of f.blocks ?? [])
        if (types.get(b)?.kind !== 'block') p.add(at(fp, 'blocks'), `"${b}" is not a block type`);
      for (const r of f.to ?? []) if (!types.has(r)) p.add(at(fp, 'to'), `"${r}" is not a type`);
      if (f.type === 'option' && (f.options === undefined) === (f.list === undefined))
        p.add(fp, 'an option field has exactly one of options and list');
    });
  });
  return types;
}

function checkEntries(
  bundle: Bundle,
  types: ReadonlyMap<string, ContentTypeDef>,
  locales: ReadonlySet<string>,
  p: Problems,
): Map<string, string> {
  const entryTypes = new Map<string, string>();
  const globals = new Set<string>();
  bundle.entries.forEach((e, i) => {
    const ep = at('entries', i);
    for (const key of Object.keys(e))
      if (!ENTRY_MEMBERS.has(key)) p.add(at(ep, key), 'is not a member of an entry');
    if (typeof e.id !== 'string' || !ENTRY_ID.test(e.id)) p.add(at(ep, 'id'), 'must be an ent_ id');
    else if (entryTypes.has(e.id)) p.add(at(ep, 'id'), `duplicate entry id "${e.id}"`);
    else entryTypes.set(e.id, e.type);
    const type = types.get(e.type);
    if (!type) p.add(at(ep, 'type'), `"${String(e.type)}" is not a type of the bundle`);
    else if (type.kind === 'block') p.add(at(ep, 'type'), `"${e.type}" is a block type, not an entry type`);
    else if (type.kind === 'global') {
      if (globals.has(e.type)) p.add(at(ep, 'type'), `global "${e.type}" has more than one entry`);
      globals.add(e.type);
    }
    if (typeof e.name !== 'string' || e.name === '') p.add(at(ep, 'name'), 'must be a non-empty string');
    if (typeof e.slug !== 'string' || !SLUG.test(e.slug))
      p.add(at(ep, 'slug'), 'must be one path segment (or "" for a start page)');
    for (const [l, s] of Object.entries(isObject(e.slugs) ? e.slugs : {})) {
      if (!locales.has(l)) p.add(at(at(ep, 'slugs'), l), `"${l}" is not a locale of the space`);
      else if (typeof s !== 'string' || !SLUG.test(s))
        p.add(at(at(ep, 'slugs'), l), 'must be one path segment');
    }
    if (e.slugs !== undefined && !isObject(e.slugs))
      p.add(at(ep, 'slugs'), 'must be an object keyed by locale');
    if (!Number.isInteger(e.position)) p.add(at(ep, 'position'), 'must be an integer');
    if (!Array.isArray(e.tags) || !e.tags.every((t) => typeof t === 'string'))
      p.add(at(ep, 'tags'), 'must be an array of strings');
    if (e.published !== null) {
      if (!isObject(e.published) || !isTimestamp(e.published.at) || !isTimestamp(e.published.firstAt))
        p.add(at(ep, 'published'), 'must be null or { at, firstAt } ISO timestamps');
      else if (e.published.firstAt > e.published.at)
        p.add(`${ep}.published.firstAt`, 'must not be after published.at');
    }
  });
  // Parents: must exist, be a folder or a page-kind entry, and form no cycle.
  const byId = new Map(bundle.entries.map((e) => [e.id, e]));
  bundle.entries.forEach((e, i) => {
    if (e.parent === null || e.parent === undefined) return;
    const pp = at(at('entries', i), 'parent');
    const parent = byId.get(e.parent);
    if (!parent) return p.add(pp, `entry "${String(e.parent)}" is not in the bundle`);
    const pk = types.get(parent.type);
    if (!pk || !(pk.kind === 'folder' || pk.kind === 'page'))
      return p.add(pp, `"${e.parent}" is not a folder or page`);
    if (!hasPaths(types.get(e.type)))
      return p.add(pp, 'only pages, folders and page collections live in the tree');
    const seen = new Set([e.id]);
    for (
      let cur: typeof parent | undefined = parent;
      cur;
      cur = cur.parent ? byId.get(cur.parent) : undefined
    ) {
      if (seen.has(cur.id)) return p.add(pp, 'parents form a cycle');
      seen.add(cur.id);
    }
  });
  if (!p.empty) return entryTypes;
  // Two published pages must not share a path in any locale.
  const settings = { locales: bundle.space.locales ?? [], timeZone: 'UTC', ai: false, imagePresets: {} };
  const published = bundle.entries.filter((e) => e.published !== null);
  const paths = computePaths(
    published.map((e) => ({
      id: e.id,
      type: e.type,
      parentId: e.parent,
      slug: e.slug,
      slugs: e.slugs ?? {},
    })),
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
        p.add(
          at('entries', bundle.entries.indexOf(e)),
          `path "${path}" (${locale}) is also the path of ${owner}`,
        );
      else owners.set(key, e.id);
    }
  }
  return entryTypes;
}

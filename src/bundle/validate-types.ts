import {
  type ContentTypeDef,
  FIELD_TYPES,
  type FieldDef,
  type FieldType,
  type OptionDef,
  TYPE_KINDS,
  type TypeKind,
} from '../content/model.js';
import { copyTexts } from './json-value.js';
import { at, isObject, KEY, type Problems, show } from '../lib/problems.js';

const isKind = (k: unknown): k is TypeKind => (TYPE_KINDS as readonly unknown[]).includes(k);
const isFieldType = (t: unknown): t is FieldType => (FIELD_TYPES as readonly unknown[]).includes(t);

/**
 * The bundle's `types`: `{ key, kind, name?, pages?, fields }`, `fields` defaulting to `[]` (a folder type needs
 * none). Field definitions are rebuilt member by member; `blocks` must name block types, `to` types, `list` a list
 * of the bundle (`lists`: its keys).
 */
export function parseTypes(
  raw: readonly Record<string, unknown>[],
  lists: ReadonlySet<string>,
  locales: ReadonlySet<string>,
  p: Problems,
): Map<string, ContentTypeDef> {
  // Kinds first: a field's `blocks` may name a block type defined further down.
  const kinds = new Map<string, TypeKind>();
  raw.forEach((t, i) => {
    const tp = at('types', i);
    if (typeof t.key !== 'string' || !KEY.test(t.key))
      p.add(at(tp, 'key'), 'must be a key (letters, digits, _ -)');
    else if (kinds.has(t.key)) p.add(at(tp, 'key'), `duplicate type "${t.key}"`);
    if (!isKind(t.kind)) p.add(at(tp, 'kind'), `must be one of ${TYPE_KINDS.join(', ')}`);
    else if (typeof t.key === 'string' && !kinds.has(t.key)) kinds.set(t.key, t.kind);
  });
  const types = new Map<string, ContentTypeDef>();
  raw.forEach((t, i) => {
    const before = p.count;
    const tp = at('types', i);
    if (t.name !== undefined && typeof t.name !== 'string') p.add(at(tp, 'name'), 'must be a string');
    if (t.pages !== undefined && typeof t.pages !== 'boolean')
      p.add(at(tp, 'pages'), 'must be true or false');
    let fields: FieldDef[] = [];
    if (t.fields !== undefined) {
      if (!Array.isArray(t.fields)) p.add(at(tp, 'fields'), 'must be an array');
      else fields = parseFields(t.fields, at(tp, 'fields'), { kinds, lists, locales }, p);
    }
    const { key, kind } = t;
    if (p.count !== before || typeof key !== 'string' || !isKind(kind) || types.has(key)) return;
    const type: ContentTypeDef = { key, kind, fields };
    if (typeof t.name === 'string') type.name = t.name;
    if (typeof t.pages === 'boolean') type.pages = t.pages;
    types.set(key, type);
  });
  return types;
}

interface Names {
  kinds: ReadonlyMap<string, TypeKind>;
  lists: ReadonlySet<string>;
  locales: ReadonlySet<string>;
}

function parseFields(raw: readonly unknown[], path: string, names: Names, p: Problems): FieldDef[] {
  const keys = new Set<string>();
  return raw.flatMap((f: unknown, j) => {
    const fp = at(path, j);
    if (!isObject(f) || typeof f.key !== 'string' || !KEY.test(f.key)) {
      p.add(
        isObject(f) ? at(fp, 'key') : fp,
        'must be a field { key, type, … } with a key (letters, digits, _ -)',
      );
      return [];
    }
    if (keys.has(f.key)) p.add(at(fp, 'key'), `duplicate field "${f.key}"`);
    keys.add(f.key);
    const before = p.count;
    if (!isFieldType(f.type)) p.add(at(fp, 'type'), `must be one of ${FIELD_TYPES.join(', ')}`);
    for (const flag of ['localized', 'required', 'many'] as const)
      if (f[flag] !== undefined && typeof f[flag] !== 'boolean') p.add(at(fp, flag), 'must be true or false');
    const blocks = typeKeys(f.blocks, at(fp, 'blocks'), p, (b) =>
      names.kinds.get(b) === 'block' ? undefined : `"${b}" is not a block type`,
    );
    const to = typeKeys(f.to, at(fp, 'to'), p, (r) =>
      names.kinds.has(r) ? undefined : `"${r}" is not a type`,
    );
    const options =
      f.options === undefined ? undefined : parseOptions(f.options, at(fp, 'options'), names.locales, p);
    if (f.list !== undefined && (typeof f.list !== 'string' || !names.lists.has(f.list)))
      p.add(fp, `list ${show(f.list)} is not in the bundle`);
    if (f.type === 'option' && (f.options === undefined) === (f.list === undefined))
      p.add(fp, 'an option field has exactly one of options and list');
    if (p.count !== before || !isFieldType(f.type)) return [];
    const def: FieldDef = { key: f.key, type: f.type };
    if (typeof f.localized === 'boolean') def.localized = f.localized;
    if (typeof f.required === 'boolean') def.required = f.required;
    if (blocks !== undefined) def.blocks = blocks;
    if (to !== undefined) def.to = to;
    if (typeof f.many === 'boolean') def.many = f.many;
    if (options !== undefined) def.options = options;
    if (typeof f.list === 'string') def.list = f.list;
    return [def];
  });
}

/** A list of names (`blocks`, `to`), each checked by `problem`. */
function typeKeys(
  raw: unknown,
  path: string,
  p: Problems,
  problem: (name: string) => string | undefined,
): string[] | undefined {
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw)) {
    p.add(path, 'must be an array of type keys');
    return undefined;
  }
  return raw.flatMap((n: unknown, k) => {
    const why = typeof n === 'string' ? problem(n) : 'must be a type key';
    if (why === undefined && typeof n === 'string') return [n];
    // One problem per list, as before: the list names its first bad member.
    p.add(typeof n === 'string' ? path : at(path, k), why ?? 'must be a type key');
    return [];
  });
}

/** Options `[{ value, label }]` (a field's `options`, a list's), values unique. */
export function parseOptions(
  raw: unknown,
  path: string,
  locales: ReadonlySet<string>,
  p: Problems,
): OptionDef[] | undefined {
  if (!Array.isArray(raw)) {
    p.add(path, 'must be an array of { value, label }');
    return undefined;
  }
  const values = new Set<string>();
  return raw.flatMap((o: unknown, k) => {
    const op = at(path, k);
    if (!isObject(o) || typeof o.value !== 'string') {
      p.add(op, 'must be { value, label }');
      return [];
    }
    if (values.has(o.value)) p.add(at(op, 'value'), `duplicate value "${o.value}"`);
    values.add(o.value);
    if (!checkLabel(o.label, at(op, 'label'), locales, p) || !isObject(o.label)) return [];
    return [{ value: o.value, label: copyTexts(o.label) }];
  });
}

/** A text per locale of the space (`{ en: "Germany", de: "Deutschland" }`); true when it is one. */
export function checkLabel(v: unknown, path: string, locales: ReadonlySet<string>, p: Problems): boolean {
  if (!isObject(v)) {
    p.add(path, 'must be an object keyed by locale');
    return false;
  }
  const before = p.count;
  for (const [k, t] of Object.entries(v)) {
    if (!locales.has(k)) p.add(at(path, k), `"${k}" is not a locale of the space`);
    else if (typeof t !== 'string') p.add(at(path, k), 'must be a string');
  }
  return p.count === before;
}

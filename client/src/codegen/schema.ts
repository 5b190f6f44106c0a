// The query keys of a content model, as `folio-types` writes them under `"~schema"` of `FolioTypes`
// (client/src/typed-keys.ts reads them): exactly what the server's list and read parameters accept for each type
// (src/delivery/params.ts, src/delivery/list/list-params.ts; docs/api.md "GET /entries").

import type { ModelField, ModelType } from '../types.js';
import type { FilterKind } from '../typed-keys.js';

/** How the server compares a field in filters and sorts (list-params.ts via index-values.ts `FILTERABLE`). */
function filterKind(f: ModelField): FilterKind | undefined {
  switch (f.type) {
    case 'text':
    case 'option':
      return 'text';
    case 'number':
    case 'date':
    case 'datetime':
    case 'boolean':
      return f.type;
    case 'reference':
      return f.many === true ? 'list' : 'ref';
    default:
      return undefined;
  }
}

/** Types read by path: pages and page collections; folders have paths for their children but are 404 by path. */
export const isPageType = (t: ModelType): boolean => t.pages && t.kind !== 'folder';
/** Types `/entries` lists. */
export const isListedType = (t: ModelType): boolean => t.kind === 'page' || t.kind === 'collection';

/**
 * `fields.<key>` members of a list: of `type`'s fields, or without it of any listed type's where the field has
 * one kind in every type that has it (else the server asks for `type`). Fields that cannot be filtered are out.
 */
function fieldKinds(scope: readonly ModelType[]): Map<string, FilterKind> {
  const kinds = new Map<string, FilterKind | null>();
  for (const t of scope)
    for (const f of t.fields) {
      const kind = filterKind(f) ?? null;
      const seen = kinds.get(f.key);
      kinds.set(f.key, seen === undefined || seen === kind ? kind : null);
    }
  const out = new Map<string, FilterKind>();
  for (const [key, kind] of kinds) if (kind !== null) out.set(`fields.${key}`, kind);
  return out;
}

/**
 * The reference fields an entry of `start` reaches: its own, those of the blocks it may hold (at any depth), and
 * those of the entries its references may include (the server follows `include` into included entries). The
 * server takes any reference key of the model; the others embed nothing for this type.
 */
function reachableReferences(start: ModelType, byKey: ReadonlyMap<string, ModelType>): string[] {
  const all = [...byKey.values()];
  const seen = new Set<string>([start.key]);
  const queue = [start];
  const keys = new Set<string>();
  const visit = (key: string) => {
    const t = byKey.get(key);
    if (t !== undefined && !seen.has(key)) {
      seen.add(key);
      queue.push(t);
    }
  };
  for (let t = queue.shift(); t !== undefined; t = queue.shift())
    for (const f of t.fields) {
      if (f.type === 'reference') {
        keys.add(f.key);
        for (const to of f.to ?? all.filter((x) => x.kind !== 'block').map((x) => x.key)) visit(to);
      } else if (f.type === 'blocks')
        for (const b of f.blocks ?? all.filter((x) => x.kind === 'block').map((x) => x.key)) visit(b);
    }
  return [...keys].sort();
}

const quote = (s: string) => JSON.stringify(s);
const union = (values: Iterable<string>) => {
  const all = [...values].map(quote);
  return all.length === 0 ? 'never' : all.join(' | ');
};
const record = (entries: [string, string][], indent: string) =>
  entries.length === 0
    ? '{}'
    : `{\n${entries.map(([k, v]) => `${indent}  ${quote(k)}: ${v};\n`).join('')}${indent}}`;

/** The `"~schema"` member's type, indented for a member of `FolioTypes`. */
export function schemaType(types: readonly ModelType[], menus: readonly string[] | undefined): string {
  const byKey = new Map(types.map((t) => [t.key, t]));
  const entries = types.filter((t) => t.kind !== 'block');
  const listed = types.filter(isListedType);
  const filters = (scope: readonly ModelType[]) =>
    record(
      [...fieldKinds(scope)].map(([member, kind]) => [member, quote(kind)]),
      '      ',
    );
  const sorts = (scope: readonly ModelType[]) =>
    union([...fieldKinds(scope)].filter(([, kind]) => kind !== 'list').map(([member]) => member));
  const listScopes: [string, readonly ModelType[]][] = [
    ...listed.map((t): [string, readonly ModelType[]] => [t.key, [t]]),
    ['*', listed],
  ];
  const lines = [
    `    pages: ${union(types.filter(isPageType).map((t) => t.key))};\n`,
    `    lists: ${union(listed.map((t) => t.key))};\n`,
    `    globals: ${union(types.filter((t) => t.kind === 'global').map((t) => t.key))};\n`,
    `    menus: ${menus === undefined ? 'string' : union([...menus].sort())};\n`,
    `    include: ${record(
      entries.map((t) => [t.key, union(reachableReferences(t, byKey))]),
      '    ',
    )};\n`,
    `    filter: ${record(
      listScopes.map(([key, scope]) => [key, filters(scope)]),
      '    ',
    )};\n`,
    `    sort: ${record(
      listScopes.map(([key, scope]) => [key, sorts(scope)]),
      '    ',
    )};\n`,
  ];
  return `{\n${lines.join('')}  }`;
}

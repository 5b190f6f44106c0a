// Which columns a CSV export has, and what a stored value looks like in a cell. Pure: definitions arrive as
// parsed-but-unchecked JSON and are checked here, so a malformed stored document drops out instead of crashing
// an export.

import { NON_SUBMITTED_TYPES } from '../rules/index.js';

/** Every export starts with these, in this order (docs/api.md "Exports"). */
export const LEADING_COLUMNS = ['id', 'createdAt', 'folder', 'status', 'assignee', 'page', 'locale'] as const;

export interface FieldColumn {
  /** The value key in `submissions.values`. */
  key: string;
  /** The header cell: the key, or `<key> (field)` when the key is also a leading column's name. */
  header: string;
  /** Where the column came from: the current definition, an older published one, or the rows themselves. */
  from: 'current' | 'history' | 'rows';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The keys of a definition's submitted fields, in the definition's order: headings, paragraphs and sections
 * carry no value (spec 2.10) and get no column. A type this version does not know is kept (it may carry one).
 * Null when the document has no `fields` array; fields without a string key and type are skipped.
 */
export function submittedFieldKeys(doc: unknown): string[] | null {
  if (!isRecord(doc) || !Array.isArray(doc['fields'])) return null;
  const keys: string[] = [];
  const nonSubmitted: ReadonlySet<string> = NON_SUBMITTED_TYPES;
  for (const field of doc['fields'] as unknown[]) {
    if (!isRecord(field)) continue;
    const { key, type } = field;
    if (typeof key !== 'string' || key === '' || typeof type !== 'string') continue;
    if (!nonSubmitted.has(type)) keys.push(key);
  }
  return keys;
}

/**
 * The field columns of an export: the current definition's fields in its order, then fields only older
 * published versions had (newest version first, each in its own order), so a renamed or removed field still
 * exports. `rowKeys` (keys seen in the stored values) are used only when there is no definition at all, current
 * or published (a deleted form whose history was pruned); otherwise a key in no definition gets no column.
 */
export function planColumns(
  current: readonly string[] | null,
  history: readonly (readonly string[])[],
  rowKeys: readonly string[] = [],
): FieldColumn[] {
  const out: FieldColumn[] = [];
  const seen = new Set<string>();
  const leading: ReadonlySet<string> = new Set(LEADING_COLUMNS);
  const add = (key: string, from: FieldColumn['from']) => {
    if (seen.has(key)) return;
    seen.add(key);
    // Keys are stable and unique, labels are per locale and may repeat; only a leading column's name clashes.
    out.push({ key, header: leading.has(key) ? `${key} (field)` : key, from });
  };
  for (const key of current ?? []) add(key, 'current');
  for (const keys of history) for (const key of keys) add(key, 'history');
  if (current === null && history.length === 0) for (const key of rowKeys) add(key, 'rows');
  return out;
}

/**
 * A stored value as a cell: lists (checkboxes, several files) joined with `; `, booleans as `true`/`false`,
 * files as their upload ids (which is what is stored), nothing as an empty cell. Numbers stay numbers so the
 * CSV writer leaves them unquoted and un-neutralised. Anything else (never written by this version) as JSON.
 */
export function cellOf(value: unknown): string | number {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string' || typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value))
    return value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))).join('; ');
  return JSON.stringify(value);
}

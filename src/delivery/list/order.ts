import type { Scalar, SortKey, SortSource } from './plan.js';

/**
 * The order of entry lists and the values their cursors carry (spec 4.3 `sort`, `cursor`): one set of rules for the
 * three evaluators of a plan, the SQL (list-sql-repo.ts `sortParts`, list-query-repo.ts's number walk), the
 * previews (preview-list.ts) and the rows index (rows/), so a cursor issued by one of them continues in another
 * (pages of one listing may come from the rows index and from SQL). Pure.
 *
 * - Text compares in UTF-8 byte order (SQLite BINARY, PostgreSQL collation "C"), numbers as numbers.
 * - A sort on a field or the path is nullable: it yields two components, a flag (`PRESENT` or `MISSING`, always
 *   ascending, so entries without the value sort last in both directions) and the value, or a placeholder when it
 *   is missing (0 for numbers, '' for text). Member columns sort only where they are never null (list-params.ts
 *   lets no nullable member sort) and yield one component; so does search rank.
 * - The entry id comes last, in the direction of the last key: every row has one place.
 *
 * A page sorted by one nullable key therefore carries `[missing, value, entry id]` (`oneKeyCursor`); a page in
 * publish order `[published_at, entry id]`.
 */

/**
 * Compares strings in UTF-8 byte order. UTF-16 code units order the same way except that surrogates (code points
 * from U+10000) sort below U+E000–U+FFFF in UTF-16 and above them in UTF-8.
 */
export function utf8Compare(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** UTF-16 order, which is UTF-8 order for strings without code units from U+D800 on (see utf8Compare). */
export const codeUnitCompare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const ABOVE_D800 = /[\ud800-\uffff]/;

/** Whether a string has a code unit where UTF-16 and UTF-8 order may differ (codeUnitCompare is not enough). */
export const needsUtf8Compare = (s: string): boolean => ABOVE_D800.test(s);

/** Text in UTF-8 byte order, numbers numerically. */
export function compareScalar(a: Scalar, b: Scalar): number {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  return utf8Compare(String(a), String(b));
}

/** The flag component of a nullable sort key. */
export const PRESENT = 0;
export const MISSING = 1;

/** What a missing value's second component holds: a value of its column's type that every engine can compare. */
export const placeholder = (numeric: boolean): Scalar => (numeric ? 0 : '');

/** Whether a sort key yields a missing flag before its value (see above). */
export const nullableSort = (source: SortSource): boolean =>
  source.kind === 'path' || source.kind === 'value';

/** Whether a sort key's values are numbers (its missing values' placeholder is 0). */
export const numericSort = (source: SortSource): boolean => source.kind === 'value' && source.col === 'num';

/** The two components of a nullable sort key's value `v` (null: missing). */
export const nullableComponents = (v: Scalar | null, numeric: boolean): [number, Scalar] =>
  v === null ? [MISSING, placeholder(numeric)] : [PRESENT, v];

/** The number of components a sort yields, the entry id tiebreaker included: the length of its cursors. */
export function componentCount(sort: readonly SortKey[]): number {
  return sort.reduce((n, k) => n + (nullableSort(k.source) ? 2 : 1), 0) + 1;
}

/** Each component's direction (true: descending): flags ascend, values and the entry id go the key's way. */
export function componentDirections(sort: readonly SortKey[]): boolean[] {
  const dirs = sort.flatMap((k) => (nullableSort(k.source) ? [false, k.desc] : [k.desc]));
  return [...dirs, sort.at(-1)?.desc ?? false];
}

/** Two rows' components (or a row's and a cursor's) in the order `desc` gives them. */
export function compareComponents(
  a: readonly Scalar[],
  b: readonly Scalar[],
  desc: readonly boolean[],
): number {
  for (let i = 0; i < desc.length; i++) {
    const c = compareScalar(a[i] ?? '', b[i] ?? '');
    if (c !== 0) return desc[i] ? -c : c;
  }
  return 0;
}

/**
 * The cursor values of a row of a page sorted by one nullable key: `[missing, value, entry id]`. Array literals, not
 * nullableComponents spread: the rows index builds one per row of a page, and spreading doubled a sorted run's page.
 */
export const oneKeyCursor = (v: Scalar | null, numeric: boolean, entryId: string): Scalar[] =>
  v === null ? [MISSING, placeholder(numeric), entryId] : [PRESENT, v, entryId];

/** A `[missing, value, entry id]` cursor (oneKeyCursor) read back. */
export interface OneKeyAfter {
  missing: boolean;
  /** The value, or the placeholder when missing. */
  value: Scalar;
  entryId: string;
}

export const readOneKeyCursor = (after: readonly Scalar[]): OneKeyAfter => ({
  missing: Number(after[0]) === MISSING,
  value: after[1] ?? 0,
  entryId: String(after[2]),
});

/** The cursor values of a row of a page in publish order: `[published_at, entry id]`. */
export const publishOrderCursor = (publishedAt: string, entryId: string): Scalar[] => [publishedAt, entryId];

/** Whether a plan's sort is publish order (either direction): what the publish-order indexes and tables hand out. */
export function inPublishOrder(sort: readonly SortKey[]): boolean {
  const [key] = sort;
  return sort.length === 1 && key?.source.kind === 'column' && key.source.column === 'published_at';
}

import {
  compareScalar,
  oneKeyCursor,
  placeholder,
  publishOrderCursor,
  readOneKeyCursor,
  utf8Compare,
} from '../order.js';
import type { Cond, ListPlan, Scalar } from '../plan.js';
import {
  drivesRows,
  isNumSlot,
  type Slot,
  type SlotLayout,
  slotOf,
  sortSlot,
  type StrSlot,
} from '../slots.js';
import { type CompiledTest, inCodes, isString, numTest, passesAll, strTest, valuesOf } from './row-tests.js';
import { sortedRunOf, sortedRunPage } from './sorted-runs.js';
import type { RowsTable } from './table.js';

/**
 * A list's selection on a rows table (table.ts): its candidates (a driving filter's rows, or every row), its other
 * filters as tests (row-tests.ts), its count, and its pages in publish order or by one slot, with the cursor values
 * of order.ts (list-query-repo.ts answers the same on the same rows). Pure.
 */

/** A selection compiled against one table: the rows it may start from and the tests every row must pass. */
export interface Selection {
  /** Rows of the driving filter, one run per value, or every row; each run in row order. */
  runs: Int32Array[];
  /** How many rows the runs hold. */
  size: number;
  /** Whether a driving filter chose the runs (else they are every row). */
  driven: boolean;
  /** The driving filter's one value, when it has one (its rows are the one run): where a sorted run is kept. */
  driver: { slot: StrSlot; code: number } | null;
  tests: CompiledTest[];
}

/**
 * Whether a table of the plan's type could answer it, from the plan alone: no `under` or full text, every filter a
 * slot test, and a driving filter unless the type's rows cover every entry (see compileSelection). Lists that fail
 * it never load a table.
 */
export function answerable(plan: ListPlan, layout: SlotLayout): boolean {
  if (plan.under !== null || plan.words !== null) return false;
  if (!plan.conds.every((c) => slotOf(c, layout) !== null)) return false;
  return !layout.perLocale || plan.conds.some((c) => drivesRows(c, layout));
}

/**
 * The plan's filters as tests on `table`, or null when one of them is not a slot test it can answer (a filter on
 * `list_values`, a column, `under`, full text), which the SQL then answers. A positive `eq`/`in` on a string slot
 * drives: the rows of its values, the fewest of such filters, are the candidates and the other filters are tested
 * on them; without one, every row is.
 */
export function compileSelection(table: RowsTable, plan: ListPlan, layout: SlotLayout): Selection | null {
  if (plan.under !== null || plan.words !== null) return null;
  const slots = plan.conds.map((c) => slotOf(c, layout));
  let chosen: {
    cond: Cond | null;
    runs: Int32Array[];
    size: number;
    driver: Selection['driver'];
  } | null = null;
  for (const [i, cond] of plan.conds.entries()) {
    const slot = slots[i];
    if (slot == null || isNumSlot(slot) || !drivesRows(cond, layout) || cond.test !== 'in') continue;
    const values = valuesOf(cond);
    if (!values.every(isString)) continue;
    const column = table.strColumn(slot);
    const groups = table.groups(slot);
    const codes = column && groups ? inCodes(column, values) : [];
    const runs = groups ? codes.map((c) => groups.rows.subarray(groups.start[c], groups.start[c + 1])) : [];
    const size = runs.reduce((n, r) => n + r.length, 0);
    const driver = codes.length === 1 ? { slot, code: codes[0]! } : null;
    if (chosen === null || size < chosen.size) chosen = { cond, runs, size, driver };
  }
  // No driving filter (a list of the type alone, or filtered only by negations, ranges, numbers): every row is a
  // candidate, if every entry of the type has a row here. A type with no localized slotted field has one row per
  // version in `*`; a localized one has rows for the space's locales at each version's cv, which SQL does not
  // depend on for such lists (it reads list_entries), so those stay SQL.
  if (chosen === null && layout.perLocale) return null;
  chosen ??= { cond: null, runs: [table.allRows()], size: table.size, driver: null };
  const tests: CompiledTest[] = [];
  for (const [i, cond] of plan.conds.entries()) {
    const slot = slots[i];
    if (slot == null) return null;
    if (cond === chosen.cond) continue;
    const test = isNumSlot(slot)
      ? numTest(table.numColumn(slot), cond)
      : strTest(table.strColumn(slot), cond, chosen.size);
    if (test === null) return null;
    tests.push(test);
  }
  return { runs: chosen.runs, size: chosen.size, driven: chosen.cond !== null, driver: chosen.driver, tests };
}

/** The candidates that pass every test, counted a test at a time over those the previous ones kept. */
export function countSelection(selection: Selection): number {
  const { runs, tests } = selection;
  if (tests.length === 0) return runs.reduce((n, r) => n + r.length, 0);
  let rows = runs.length === 1 ? runs[0]! : concat(runs);
  for (const t of tests) rows = t.filter(rows);
  return rows.length;
}

export interface MemoryPageRow {
  entryId: string;
  cvFrom: number;
  /** The row's cursor values (order.ts), as the SQL yields them. */
  after: Scalar[];
}

/**
 * The first row whose (published_at, entry id) is above the cursor's, or (`inclusive`) not below it: the rows of an
 * ascending page start there, those of a descending page end just before.
 */
function seek(table: RowsTable, after: readonly Scalar[], inclusive: boolean): number {
  const at = String(after[0]);
  const id = String(after[1]);
  let lo = 0;
  let hi = table.size;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = utf8Compare(table.publishedAt[mid]!, at) || utf8Compare(table.entryId[mid]!, id);
    if (c < 0 || (c === 0 && !inclusive)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index of `run` (ascending rows) whose row is at least `row`. */
function firstAtLeast(run: Int32Array, row: number): number {
  let lo = 0;
  let hi = run.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (run[mid]! < row) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function concat(runs: readonly Int32Array[]): Int32Array {
  const all = new Int32Array(runs.reduce((s, r) => s + r.length, 0));
  let at = 0;
  for (const r of runs) {
    all.set(r, at);
    at += r.length;
  }
  return all;
}

const merged = (runs: readonly Int32Array[]): Int32Array => concat(runs).sort();

/**
 * One page in publish order (order.ts `inPublishOrder`, the order of the table's rows): `limit + 1` matching rows
 * from the cursor on, as pageList answers them. Several driving values' runs are merged in row order.
 */
export function publishOrderPage(table: RowsTable, selection: Selection, plan: ListPlan): MemoryPageRow[] {
  const desc = plan.sort[0]?.desc ?? false;
  // Ascending: the rows from the boundary on; descending: the rows below it, newest first.
  const boundary = plan.after === null ? (desc ? table.size : 0) : seek(table, plan.after, desc);
  const run = selection.runs.length === 1 ? selection.runs[0]! : merged(selection.runs);
  const out: MemoryPageRow[] = [];
  const want = plan.limit + 1;
  const push = (row: number) => {
    if (!passesAll(selection.tests, row)) return;
    out.push({
      entryId: table.entryId[row]!,
      cvFrom: table.cvFrom[row]!,
      after: publishOrderCursor(table.publishedAt[row]!, table.entryId[row]!),
    });
  };
  const from = firstAtLeast(run, boundary);
  if (desc) for (let i = from - 1; i >= 0 && out.length < want; i--) push(run[i]!);
  else for (let i = from; i < run.length && out.length < want; i++) push(run[i]!);
  return out;
}

/**
 * The slot a plan's one sort key reads from the table: a field whose slot holds its whole value (number, date,
 * datetime, boolean), as the SQL sorts it (list-sql-repo.ts sortParts). Null for other sorts.
 */
export function sortedBySlot(plan: ListPlan, layout: SlotLayout): Slot | null {
  const [key] = plan.sort;
  return plan.sort.length === 1 && key !== undefined ? sortSlot(key.source, layout) : null;
}

/**
 * One page sorted by one slot (`sortedBySlot`) in the SQL's order (order.ts): entries with a value first in both
 * directions, by value in the sort's direction, then by entry id in it; cursor values `[missing, value, entry id]`.
 * A driving value's sorted run (sortedRunOf) has the rows in that order; otherwise the candidates are not, so each
 * one that passes the filters and comes after the cursor is compared with the worst of the `limit + 1` best kept so
 * far: one comparison for most, an insertion for few (SQL sorts every match of such a list without a driving
 * filter).
 */
export function slotOrderPage(
  table: RowsTable,
  selection: Selection,
  plan: ListPlan,
  slot: Slot,
): MemoryPageRow[] {
  const run = sortedRunOf(table, selection, slot);
  if (run !== null && isNumSlot(slot)) return sortedRunPage(table, selection, plan, slot, run);
  const sign = (plan.sort[0]?.desc ?? false) ? -1 : 1;
  const nums = isNumSlot(slot) ? table.numColumn(slot) : undefined;
  const strs = isNumSlot(slot) ? undefined : table.strColumn(slot);
  const ids = table.entryId;
  const idOrder = table.idOrder;
  const has = (r: number): boolean =>
    nums !== undefined ? !Number.isNaN(nums[r]) : strs !== undefined && strs.codes[r]! >= 0;
  /** The row's value, or the placeholder of a missing one (order.ts). */
  const value = (r: number): Scalar => {
    if (nums !== undefined) return has(r) ? nums[r]! : 0;
    if (strs !== undefined && has(r)) return strs.dict[strs.codes[r]!]!;
    return placeholder(isNumSlot(slot));
  };
  /** Row against row, or row against the cursor's values: missing values last, then value, then entry id. */
  const compare = (r: number, missing: boolean, v: Scalar, id: string): number => {
    const m = !has(r);
    if (m !== missing) return m ? 1 : -1;
    return sign * (compareScalar(value(r), v) || idOrder(ids[r]!, id));
  };
  const compareRows = (a: number, b: number): number => compare(a, !has(b), value(b), ids[b]!);
  const cursor = plan.after === null ? null : readOneKeyCursor(plan.after);
  const want = plan.limit + 1;
  const best: number[] = [];
  // The worst row kept, once `want` are: most candidates are compared with it and rejected before any test runs, for
  // a number slot with the comparison written out (`compare` above, inlined: a call per candidate and utf8Compare
  // cost most of such a page; filtering every candidate first, as the count does, was slower).
  let worst = -1;
  let worstMissing = 0;
  let worstValue = 0;
  for (const rows of selection.runs)
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      if (worst >= 0) {
        if (nums === undefined) {
          if (compareRows(r, worst) >= 0) continue;
        } else {
          const x = nums[r]!;
          const missing = x !== x ? 1 : 0;
          if (missing !== worstMissing) {
            if (missing > worstMissing) continue;
          } else if (missing === 0 && x !== worstValue) {
            if ((x - worstValue) * sign > 0) continue;
          } else if (sign * idOrder(ids[r]!, ids[worst]!) >= 0) continue;
        }
      }
      if (!passesAll(selection.tests, r)) continue;
      if (cursor !== null && compare(r, cursor.missing, cursor.value, cursor.entryId) <= 0) continue;
      let lo = 0;
      let hi = best.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (compareRows(best[mid]!, r) < 0) lo = mid + 1;
        else hi = mid;
      }
      best.splice(lo, 0, r);
      if (best.length > want) best.pop();
      if (best.length === want) {
        worst = best[want - 1]!;
        worstMissing = has(worst) ? 0 : 1;
        worstValue = nums !== undefined && worstMissing === 0 ? nums[worst]! : 0;
      }
    }
  return best.map((r) => ({
    entryId: ids[r]!,
    cvFrom: table.cvFrom[r]!,
    after: oneKeyCursor(has(r) ? value(r) : null, isNumSlot(slot), ids[r]!),
  }));
}

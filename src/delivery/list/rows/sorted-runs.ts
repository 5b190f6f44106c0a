import { oneKeyCursor, readOneKeyCursor } from '../order.js';
import type { ListPlan } from '../plan.js';
import { isNumSlot, type NumSlot, type Slot, slotOf, type StrSlot } from '../slots.js';
import { sortedRunFits, sortedRunsHold } from './policy.js';
import { passesAll } from './row-tests.js';
import type { MemoryPageRow, Selection } from './selection.js';
import type { RowsTable } from './table.js';

/**
 * The rows of one driving value (a category) in the order of one number slot (a rating), kept beside a rows table
 * (table.ts), so a page of that value sorted by that number reads its `limit + 1` rows from where the cursor or the
 * number's own bounds put it instead of meeting every row of the value (its rows are scattered over the table's
 * columns, so each is a cache miss). Same order and cursor values as slotOrderPage (selection.ts) and the SQL
 * (order.ts). Which values get a run, and how many rows a table's runs may hold: policy.ts. Pure, but for the runs
 * it keeps per table.
 */

/** Valued rows by (value, entry id) ascending, then the rows without a value by entry id. */
export interface SortedRun {
  order: Int32Array;
  /** How many rows of `order` have a value. */
  valued: number;
}

const runsOf = new WeakMap<RowsTable, { runs: Map<string, SortedRun>; rows: number }>();

/**
 * The run of the rows of `code` in string slot `driver` (`rows`, in row order) sorted by number slot `by`: sorted
 * the first time a page asks for it, then kept with the table; null once the table's runs hold their share of rows.
 */
export function sortedRun(
  table: RowsTable,
  driver: StrSlot,
  code: number,
  by: NumSlot,
  rows: Int32Array,
): SortedRun | null {
  let held = runsOf.get(table);
  if (held === undefined) runsOf.set(table, (held = { runs: new Map(), rows: 0 }));
  const key = `${driver} ${code} ${by}`;
  const known = held.runs.get(key);
  if (known !== undefined) return known;
  const nums = table.numColumn(by);
  if (nums === undefined || !sortedRunsHold(held.rows, rows.length, table.size)) return null;
  const ids = table.entryId;
  const idOrder = table.idOrder;
  const order = rows.slice().sort((a, b) => {
    const x = nums[a]!;
    const y = nums[b]!;
    const ma = Number.isNaN(x);
    if (ma !== Number.isNaN(y)) return ma ? 1 : -1;
    if (!ma && x !== y) return x < y ? -1 : 1;
    return idOrder(ids[a]!, ids[b]!);
  });
  let valued = 0;
  for (const r of order) if (!Number.isNaN(nums[r])) valued++;
  const run = { order, valued };
  held.runs.set(key, run);
  held.rows += rows.length;
  return run;
}

/**
 * The driving value's rows sorted by `slot`, for a selection driven by one value whose rows fit a run (policy.ts
 * sortedRunFits) sorted by a number slot, or null: its pages read about `limit + 1` rows.
 */
export function sortedRunOf(table: RowsTable, selection: Selection, slot: Slot): SortedRun | null {
  const [rows] = selection.runs;
  if (!isNumSlot(slot) || selection.driver === null || rows === undefined) return null;
  if (!sortedRunFits(rows.length)) return null;
  return sortedRun(table, selection.driver.slot, selection.driver.code, slot, rows);
}

/**
 * The values of `by` a row may have to pass the plan's positive comparisons on `by` itself (`rating >= 3`): the
 * page starts and stops there instead of meeting the rows outside. Null bounds: none. Every test still runs on each
 * row read; the bounds only skip rows a test would refuse.
 */
function boundsOn(
  plan: ListPlan,
  by: NumSlot,
): { lo: number; loIn: boolean; hi: number; hiIn: boolean } | null {
  if (plan.layout === null) return null;
  let lo = -Infinity;
  let loIn = true;
  let hi = Infinity;
  let hiIn = true;
  let bounded = false;
  for (const cond of plan.conds) {
    if (cond.negate || slotOf(cond, plan.layout) !== by) continue;
    const v =
      cond.test === 'cmp'
        ? cond.value
        : cond.test === 'in' && cond.values.length === 1
          ? cond.values[0]
          : null;
    if (typeof v !== 'number') continue;
    bounded = true;
    const op = cond.test === 'cmp' ? cond.cmp : '=';
    if ((op === '>' || op === '>=' || op === '=') && (v > lo || (v === lo && op === '>'))) {
      lo = v;
      loIn = op !== '>';
    }
    if ((op === '<' || op === '<=' || op === '=') && (v < hi || (v === hi && op === '<'))) {
      hi = v;
      hiIn = op !== '<';
    }
  }
  return bounded ? { lo, loIn, hi, hiIn } : null;
}

/** First index in [from, to) of `order` whose value is not below `v` (`inclusive`) or above it; values ascending. */
function firstFrom(
  order: Int32Array,
  nums: Float64Array,
  from: number,
  to: number,
  v: number,
  inclusive: boolean,
) {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const x = nums[order[mid]!]!;
    if (x < v || (!inclusive && x === v)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * One page of `selection` (one driving value's rows, `run` sorted) sorted by number slot `by`: the rows in the sort's
 * order (valued rows by value then entry id, in the sort's direction, then rows without a value by entry id in it)
 * from the cursor or the bounds on, `limit + 1` that pass every test.
 */
export function sortedRunPage(
  table: RowsTable,
  selection: Selection,
  plan: ListPlan,
  by: NumSlot,
  run: SortedRun,
): MemoryPageRow[] {
  const nums = table.numColumn(by);
  if (nums === undefined) return [];
  const desc = plan.sort[0]?.desc ?? false;
  const { order, valued } = run;
  // The page reads a range of the valued rows, then (without bounds) a range of the others, each in the sort's
  // direction: ascending from `start`, descending from `end - 1`.
  const bounds = boundsOn(plan, by);
  const parts: { start: number; end: number }[] = [];
  if (bounds === null) parts.push({ start: 0, end: valued }, { start: valued, end: order.length });
  else {
    const start = firstFrom(order, nums, 0, valued, bounds.lo, bounds.loIn);
    const end = firstFrom(order, nums, start, valued, bounds.hi, !bounds.hiIn);
    parts.push({ start, end });
  }
  const after = plan.after;
  const ids = table.entryId;
  const sign = desc ? -1 : 1;
  const cursor = after === null ? null : readOneKeyCursor(after);
  /** Whether row `r` comes after the cursor in the sort's order (order.ts: missing values last, then entry id). */
  const pastCursor = (r: number): boolean => {
    if (cursor === null) return true;
    const missing = Number.isNaN(nums[r]);
    if (missing !== cursor.missing) return missing;
    const v = missing ? 0 : nums[r]!;
    const cv = Number(cursor.value);
    const c = v !== cv ? (v < cv ? -1 : 1) : table.idOrder(ids[r]!, cursor.entryId);
    return sign * c > 0;
  };
  const out: MemoryPageRow[] = [];
  const want = plan.limit + 1;
  for (const { start, end } of parts) {
    const n = end - start;
    const at = (i: number) => order[desc ? end - 1 - i : start + i]!;
    // The first position past the cursor: rows of a part are in the sort's order, so a binary search finds it.
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (pastCursor(at(mid))) hi = mid;
      else lo = mid + 1;
    }
    for (let i = lo; i < n && out.length < want; i++) {
      const r = at(i);
      if (!passesAll(selection.tests, r)) continue;
      const v = nums[r]!;
      out.push({
        entryId: ids[r]!,
        cvFrom: table.cvFrom[r]!,
        after: oneKeyCursor(Number.isNaN(v) ? null : v, true, ids[r]!),
      });
    }
    if (out.length >= want) break;
  }
  return out;
}

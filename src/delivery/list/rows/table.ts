import { codeUnitCompare, needsUtf8Compare, utf8Compare } from '../order.js';
import { NUM_SLOTS, type NumSlot, STR_SLOTS, type StrSlot } from '../slots.js';
import { SORTED_RUNS_PER_ROW } from './policy.js';

/**
 * The list rows of one type in one row locale at one cv, in memory (rows-index.ts keeps them), so a list whose
 * filters are all slot tests counts its matches and reads its pages without a statement (selection.ts; the filters
 * as tests on its columns in row-tests.ts). Counting a new selection in SQL reads every matching index entry; here
 * it visits the same rows in typed arrays.
 *
 * Same answers as the SQL of list-query-repo.ts on the same rows: slots compared as the engines compare them
 * (order.ts), a missing value outside every test and inside its negation, rows in (published_at, entry_id) order as
 * the load read them. Pure.
 */

/** One row as the load reads it, in (published_at, entry_id) order. */
export interface LoadedRow {
  cvFrom: number;
  publishedAt: string;
  entryId: string;
  str: readonly (string | null)[];
  num: readonly (number | null)[];
}

/** A string slot: each row's value as a code into its dictionary (-1: none), codes in order of first appearance. */
export interface StrColumn {
  codes: Int32Array;
  dict: string[];
  /** Code of each value of the dictionary. */
  codeOf: Map<string, number>;
  /** Rows of each code in row order (a counting sort), built the first time a filter selects by this slot. */
  groups?: { start: Int32Array; rows: Int32Array };
}

// Heap per row, checked against the heap measured on the bench's posts (docs/operations.md, "The rows index"):
// `cv_from` (8) and the two string arrays' pointers (16); per filled slot 8 (a number, or a string's code and its
// place in the groups); per string its characters (one byte each for ids and times, two counted for slot values)
// and about 16 of header; per distinct slot value a map entry.
const ROW_BYTES = 24;
const SLOT_BYTES = 8;
const STRING_BYTES = 16;
const MAP_ENTRY_BYTES = 24;
/** The table's share of sorted runs (sorted-runs.ts, policy.ts SORTED_RUNS_PER_ROW), 4 bytes a row of a run. */
const SORTED_RUN_BYTES = 4 * SORTED_RUNS_PER_ROW;

/**
 * Builds a table chunk by chunk as the load reads it, so the work of a large type is spread over as many turns of
 * the event loop as the load takes (no step of a large table blocks requests for long). No string is sorted:
 * `in` looks codes up, comparisons compare values (sorting a large dictionary would hold the event loop).
 */
export class RowsTableBuilder {
  // Typed columns grown by doubling, so finishing copies memory instead of converting arrays of numbers (which
  // held the event loop at the end of a large load).
  private cvFrom = new Float64Array(1024);
  private readonly publishedAt: string[] = [];
  private readonly entryId: string[] = [];
  private codes: Int32Array[] = STR_SLOTS.map(() => new Int32Array(1024));
  private readonly dicts: { dict: string[]; codeOf: Map<string, number> }[] = STR_SLOTS.map(() => ({
    dict: [],
    codeOf: new Map(),
  }));
  private nums: Float64Array[] = NUM_SLOTS.map(() => new Float64Array(1024));
  private readonly filled = new Set<NumSlot>();
  private stringBytes = 0;
  private plainIds = true;

  get size(): number {
    return this.entryId.length;
  }

  /**
   * What the table will hold at most, estimated while loading (every slot counted as filled): the load stops once it
   * is past the budget. `finish` counts what the table keeps.
   */
  get bytes(): number {
    return (
      this.size * (ROW_BYTES + SORTED_RUN_BYTES + SLOT_BYTES * (STR_SLOTS.length + NUM_SLOTS.length)) +
      this.stringBytes
    );
  }

  add(rows: readonly LoadedRow[]): void {
    const need = this.size + rows.length;
    if (need > this.cvFrom.length) {
      const capacity = Math.max(need, this.cvFrom.length * 2);
      this.cvFrom = grown(this.cvFrom, new Float64Array(capacity));
      this.codes = this.codes.map((c) => grown(c, new Int32Array(capacity)));
      this.nums = this.nums.map((c) => grown(c, new Float64Array(capacity)));
    }
    for (const r of rows) {
      const at = this.size;
      this.cvFrom[at] = r.cvFrom;
      this.publishedAt.push(r.publishedAt);
      this.entryId.push(r.entryId);
      if (this.plainIds && needsUtf8Compare(r.entryId)) this.plainIds = false;
      this.stringBytes += r.publishedAt.length + r.entryId.length + 2 * STRING_BYTES;
      for (let i = 0; i < STR_SLOTS.length; i++) {
        const v = r.str[i];
        const d = this.dicts[i]!;
        let code = -1;
        if (v != null) {
          code = d.codeOf.get(v) ?? -1;
          if (code < 0) {
            code = d.dict.push(v) - 1;
            d.codeOf.set(v, code);
            this.stringBytes += 2 * v.length + STRING_BYTES + MAP_ENTRY_BYTES;
          }
        }
        this.codes[i]![at] = code;
      }
      for (let i = 0; i < NUM_SLOTS.length; i++) {
        const v = r.num[i];
        if (v != null) this.filled.add(NUM_SLOTS[i]!);
        this.nums[i]![at] = v ?? Number.NaN;
      }
    }
  }

  finish(cv: number): RowsTable {
    const n = this.size;
    const str = new Map<StrSlot, StrColumn>();
    STR_SLOTS.forEach((slot, i) => {
      const { dict, codeOf } = this.dicts[i]!;
      if (dict.length > 0) str.set(slot, { codes: this.codes[i]!.slice(0, n), dict, codeOf });
    });
    const num = new Map<NumSlot, Float64Array>();
    NUM_SLOTS.forEach((slot, i) => {
      if (this.filled.has(slot)) num.set(slot, this.nums[i]!.slice(0, n));
    });
    // What it keeps: the filled slots' columns (a string slot's codes and its groups once built), not every slot.
    const bytes = n * (ROW_BYTES + SORTED_RUN_BYTES + SLOT_BYTES * (str.size + num.size)) + this.stringBytes;
    const idOrder = this.plainIds ? codeUnitCompare : utf8Compare;
    return new RowsTable(
      cv,
      this.cvFrom.slice(0, n),
      this.publishedAt,
      this.entryId,
      str,
      num,
      bytes,
      idOrder,
    );
  }
}

/** `into` with `from` copied to its start. */
function grown<A extends Float64Array | Int32Array>(from: A, into: A): A {
  into.set(from);
  return into;
}

export class RowsTable {
  readonly size: number;

  constructor(
    /** The cv the rows were read at. */
    readonly cv: number,
    readonly cvFrom: Float64Array,
    readonly publishedAt: readonly string[],
    readonly entryId: readonly string[],
    private readonly str: ReadonlyMap<StrSlot, StrColumn>,
    /** NaN: no value (field values are finite numbers). */
    private readonly num: ReadonlyMap<NumSlot, Float64Array>,
    /** Heap this table holds, estimated. */
    readonly bytes: number,
    /**
     * Entry ids in UTF-8 byte order (the SQL's tiebreak): the engine's own string comparison when no id of the table
     * has a code unit from U+D800 on (Folio's ids are ASCII), utf8Compare otherwise.
     */
    readonly idOrder: (a: string, b: string) => number,
  ) {
    this.size = entryId.length;
  }

  groups(slot: StrSlot): { start: Int32Array; rows: Int32Array } | null {
    const column = this.str.get(slot);
    if (column === undefined) return null;
    if (column.groups) return column.groups;
    const { codes, dict } = column;
    const start = new Int32Array(dict.length + 1);
    for (const c of codes) if (c >= 0) start[c + 1]! += 1;
    for (let c = 0; c < dict.length; c++) start[c + 1]! += start[c]!;
    const next = start.slice(0, dict.length);
    const rows = new Int32Array(start[dict.length]!);
    for (let r = 0; r < codes.length; r++) {
      const c = codes[r]!;
      if (c >= 0) rows[next[c]!++] = r;
    }
    column.groups = { start, rows };
    return column.groups;
  }

  strColumn(slot: StrSlot): StrColumn | undefined {
    return this.str.get(slot);
  }

  numColumn(slot: NumSlot): Float64Array | undefined {
    return this.num.get(slot);
  }

  private every: Int32Array | undefined;

  /** Every row, in row order: the candidates of a list without a driving filter. */
  allRows(): Int32Array {
    if (this.every === undefined) {
      // A plain loop: Int32Array.from with a mapping function was far slower.
      this.every = new Int32Array(this.size);
      for (let i = 0; i < this.size; i++) this.every[i] = i;
    }
    return this.every;
  }
}

import { utf8Compare } from '../order.js';
import type { Cond, Scalar } from '../plan.js';
import type { StrColumn } from './table.js';

/**
 * The filters of a list as tests on the columns of a rows table (table.ts), as the SQL of list-query-repo.ts tests
 * the same slots: compared as order.ts compares (text in UTF-8 byte order, numbers as numbers), a missing value
 * outside every test and inside its negation. Pure.
 */

export type RowTest = (row: number) => boolean;

/**
 * One filter compiled against a table, its negation included: a test of one row (a page stops after `limit + 1`
 * matches) and a pass over many (a count visits every candidate). The pass keeps its loop inside one function per
 * kind of test, without a call per row, which cost a count of a whole table more.
 */
export interface CompiledTest {
  test: RowTest;
  filter(rows: Int32Array): Int32Array;
}

/** Whether one row passes every test (a page tests the rows it reads one at a time). */
export const passesAll = (tests: readonly CompiledTest[], row: number): boolean => {
  for (const t of tests) if (!t.test(row)) return false;
  return true;
};

const CMP: Record<'>' | '>=' | '<' | '<=', (c: number) => boolean> = {
  '>': (c) => c > 0,
  '>=': (c) => c >= 0,
  '<': (c) => c < 0,
  '<=': (c) => c <= 0,
};

/** The values a test compares with: an `in` list, a comparison's one value, none for `present`. */
export const valuesOf = (cond: Cond): readonly Scalar[] =>
  cond.test === 'in' ? cond.values : cond.test === 'cmp' || cond.test === 'substring' ? [cond.value] : [];
export const isString = (v: Scalar): v is string => typeof v === 'string';
const isNumber = (v: Scalar): v is number => typeof v === 'number';

/** A test on a slot no row fills: the positive test passes no row, its negation every row. */
const constant = (negate: boolean): CompiledTest => ({
  test: () => negate,
  filter: (rows) => (negate ? rows : new Int32Array(0)),
});

/** The rows of `rows` that `test` passes, a call per row (string comparisons row by row). */
function keep(rows: Int32Array, test: RowTest): Int32Array {
  const out = new Int32Array(rows.length);
  let k = 0;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    if (test(r)) out[k++] = r;
  }
  return out.subarray(0, k);
}

/**
 * A test on a string slot, null when a value is not a string. Decided per dictionary value into a table indexed by
 * code + 1 (0: no value), negation applied to the table, so a row costs one lookup; a comparison on a dictionary
 * larger than the rows it may be asked about (dates of 100k entries, a category's 5,000 candidates) compares each
 * row's value instead.
 */
export function strTest(column: StrColumn | undefined, cond: Cond, candidates: number): CompiledTest | null {
  const values = valuesOf(cond);
  if (!values.every(isString) || cond.test === 'substring') return null;
  const { negate } = cond;
  if (column === undefined) return constant(negate);
  const { codes, dict } = column;
  const pass = new Uint8Array(dict.length + 1);
  if (cond.test === 'present') pass.fill(1, 1);
  else if (cond.test === 'in') for (const c of inCodes(column, values)) pass[c + 1] = 1;
  else {
    const v = values[0] ?? '';
    const holds = CMP[cond.cmp];
    if (dict.length > candidates) {
      const test: RowTest = (r) => {
        const c = codes[r]!;
        return (c >= 0 && holds(utf8Compare(dict[c]!, v))) !== negate;
      };
      return { test, filter: (rows) => keep(rows, test) };
    }
    for (let c = 0; c < dict.length; c++) pass[c + 1] = holds(utf8Compare(dict[c]!, v)) ? 1 : 0;
  }
  if (negate) for (let i = 0; i < pass.length; i++) pass[i]! ^= 1;
  return {
    test: (r) => pass[codes[r]! + 1] === 1,
    filter(rows) {
      const out = new Int32Array(rows.length);
      let k = 0;
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i]!;
        if (pass[codes[r]! + 1] === 1) out[k++] = r;
      }
      return out.subarray(0, k);
    },
  };
}

export const inCodes = (column: StrColumn, values: readonly string[]): number[] =>
  values.flatMap((v) => {
    const c = column.codeOf.get(v);
    return c === undefined ? [] : [c];
  });

/** A test on a number slot, null when a value is not a number. NaN (no value) fails every comparison, as NULL does. */
export function numTest(column: Float64Array | undefined, cond: Cond): CompiledTest | null {
  const values = valuesOf(cond);
  if (!values.every(isNumber) || cond.test === 'substring') return null;
  const { negate } = cond;
  if (column === undefined) return constant(negate);
  const col = column;
  const v = values[0] ?? 0;
  const wanted = new Set(values);
  let test: RowTest;
  if (cond.test === 'present') test = (r) => !Number.isNaN(col[r]) !== negate;
  else if (cond.test === 'in') test = (r) => wanted.has(col[r]!) !== negate;
  else if (cond.cmp === '>') test = (r) => col[r]! > v !== negate;
  else if (cond.cmp === '>=') test = (r) => col[r]! >= v !== negate;
  else if (cond.cmp === '<') test = (r) => col[r]! < v !== negate;
  else test = (r) => col[r]! <= v !== negate;
  const op = cond.test === 'cmp' ? cond.cmp : cond.test;
  return {
    test,
    filter(rows) {
      const out = new Int32Array(rows.length);
      let k = 0;
      const n = rows.length;
      // One loop per operator, the comparison written out in each.
      switch (op) {
        case '>':
          for (let i = 0; i < n; i++) if (col[rows[i]!]! > v !== negate) out[k++] = rows[i]!;
          break;
        case '>=':
          for (let i = 0; i < n; i++) if (col[rows[i]!]! >= v !== negate) out[k++] = rows[i]!;
          break;
        case '<':
          for (let i = 0; i < n; i++) if (col[rows[i]!]! < v !== negate) out[k++] = rows[i]!;
          break;
        case '<=':
          for (let i = 0; i < n; i++) if (col[rows[i]!]! <= v !== negate) out[k++] = rows[i]!;
          break;
        case 'in':
          for (let i = 0; i < n; i++) if (wanted.has(col[rows[i]!]!) !== negate) out[k++] = rows[i]!;
          break;
        case 'present':
          for (let i = 0; i < n; i++) if (!Number.isNaN(col[rows[i]!]) !== negate) out[k++] = rows[i]!;
          break;
      }
      return out.subarray(0, k);
    },
  };
}

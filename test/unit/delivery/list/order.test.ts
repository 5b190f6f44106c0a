import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareComponents,
  compareScalar,
  componentCount,
  componentDirections,
  inPublishOrder,
  MISSING,
  nullableComponents,
  oneKeyCursor,
  PRESENT,
  publishOrderCursor,
  readOneKeyCursor,
} from '../../../../src/delivery/list/order.js';
import type { Scalar, SortKey } from '../../../../src/delivery/list/plan.js';

// The order and cursor rules every evaluator of a list follows (SQL, previews, the rows index): one module, so a
// cursor one of them issues is read the same way by the others.

const rating = { kind: 'value', key: 'rating', col: 'num', many: false, locs: 'any' } as const;
const day = { kind: 'value', key: 'day', col: 'str', many: false, locs: 'any' } as const;
const published = { kind: 'column', column: 'published_at', nullable: false } as const;
const sortBy = (...keys: [SortKey['source'], boolean][]): SortKey[] =>
  keys.map(([source, desc]) => ({ source, desc }));

describe('the order of list rows', () => {
  it('compares text in UTF-8 byte order and numbers as numbers', () => {
    expect(compareScalar(2, 10)).toBeLessThan(0);
    expect(compareScalar('10', '2')).toBeLessThan(0);
    // U+FFFD is below a surrogate pair in UTF-8 (and above it in UTF-16).
    expect(compareScalar('\uFFFD', '😀')).toBeLessThan(0);
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        return Math.sign(compareScalar(a, b)) === Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b)));
      }),
      { numRuns: 500 },
    );
  });

  it('gives a nullable key a flag and a value, entries without it last in both directions', () => {
    expect(nullableComponents(3, true)).toEqual([PRESENT, 3]);
    expect(nullableComponents(null, true)).toEqual([MISSING, 0]);
    expect(nullableComponents(null, false)).toEqual([MISSING, '']);
    const rows: Scalar[][] = [
      oneKeyCursor(null, true, 'ent_a'),
      oneKeyCursor(5, true, 'ent_b'),
      oneKeyCursor(5, true, 'ent_a'),
      oneKeyCursor(7, true, 'ent_c'),
    ];
    const ordered = (desc: boolean) =>
      [...rows]
        .sort((a, b) => compareComponents(a, b, componentDirections(sortBy([rating, desc]))))
        .map((r) => `${String(r[1])} ${String(r[2])}`);
    expect(ordered(false)).toEqual(['5 ent_a', '5 ent_b', '7 ent_c', '0 ent_a']);
    expect(ordered(true)).toEqual(['7 ent_c', '5 ent_b', '5 ent_a', '0 ent_a']);
  });

  it('counts and directs the components of every sort as its cursors carry them, the entry id last', () => {
    expect(componentCount(sortBy([rating, true]))).toBe(3);
    expect(componentDirections(sortBy([rating, true]))).toEqual([false, true, true]);
    expect(componentCount(sortBy([published, true]))).toBe(2);
    expect(componentDirections(sortBy([published, false]))).toEqual([false, false]);
    const mixed = sortBy([{ kind: 'path' }, false], [day, true], [{ kind: 'rank' }, true]);
    expect(componentCount(mixed)).toBe(6);
    expect(componentDirections(mixed)).toEqual([false, false, false, true, true, true]);
    expect(inPublishOrder(sortBy([published, true]))).toBe(true);
    expect(inPublishOrder(sortBy([published, true], [rating, false]))).toBe(false);
    expect(publishOrderCursor('2026-03-01T10:00:00.000Z', 'ent_a')).toHaveLength(
      componentCount(sortBy([published, true])),
    );
  });

  it('reads back the cursor of a page sorted by one key', () => {
    fc.assert(
      fc.property(fc.option(fc.oneof(fc.integer(), fc.string())), fc.string({ minLength: 1 }), (v, id) => {
        const numeric = typeof v !== 'string';
        const after = oneKeyCursor(v, numeric, id);
        expect(after).toHaveLength(componentCount(sortBy([numeric ? rating : day, false])));
        expect(readOneKeyCursor(after)).toEqual({
          missing: v === null,
          value: v ?? (numeric ? 0 : ''),
          entryId: id,
        });
      }),
      { numRuns: 200 },
    );
  });
});

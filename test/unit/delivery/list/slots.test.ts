import { describe, expect, it } from 'vitest';
import type { ContentTypeDef } from '../../../../src/content/model.js';
import type { IndexValue } from '../../../../src/delivery/list/index-values.js';
import type { Cond } from '../../../../src/delivery/list/plan.js';
import {
  drivesRows,
  SLOT_QUERY_MAX,
  SLOT_TEXT_CAP,
  slotLayout,
  slotOf,
  slotRows,
  sortSlot,
} from '../../../../src/delivery/list/slots.js';

const type = (fields: ContentTypeDef['fields']): ContentTypeDef => ({ key: 't', kind: 'collection', fields });
const value = (key: string, loc: string, str: string | null, num: number | null = null): IndexValue => ({
  key,
  loc,
  str,
  num,
});
const eq = (key: string, ...values: (string | number)[]): Cond => ({
  source: {
    kind: 'value',
    key,
    col: typeof values[0] === 'number' ? 'num' : 'str',
    many: false,
    locs: 'any',
  },
  negate: false,
  test: 'in',
  values,
});

describe('slotLayout', () => {
  it('gives short single-valued fields slots in field order, four strings and four numbers', () => {
    const layout = slotLayout(
      type([
        { key: 'title', type: 'text' },
        { key: 'a', type: 'option', options: [] },
        { key: 'n', type: 'number' },
        { key: 'tags', type: 'reference', many: true },
        { key: 'b', type: 'date' },
        { key: 'c', type: 'boolean' },
        { key: 'd', type: 'reference' },
        { key: 'e', type: 'datetime' },
        { key: 'body', type: 'richtext' },
        ...['m', 'o', 'p', 'q'].map((key) => ({ key, type: 'number' as const })),
      ]),
    );
    expect(Object.fromEntries(layout.slots)).toEqual({
      a: 's1',
      b: 's2',
      c: 's3',
      d: 's4',
      n: 'n1',
      m: 'n2',
      o: 'n3',
      p: 'n4',
    });
    expect(layout.perLocale).toBe(false);
  });

  it('writes one row per locale when a slotted field is localized', () => {
    const layout = slotLayout(type([{ key: 'a', type: 'option', localized: true, options: [] }]));
    expect(layout.perLocale).toBe(true);
    expect(slotLayout(type([{ key: 'a', type: 'text', localized: true }])).slots.size).toBe(0);
  });
});

describe('slotRows', () => {
  const layout = slotLayout(
    type([
      { key: 'a', type: 'option', localized: true, options: [] },
      { key: 'n', type: 'number' },
    ]),
  );

  it('fills each locale row with the value delivered there and non-localized values everywhere', () => {
    const rows = slotRows([value('a', 'en', 'x'), value('a', 'de', 'y'), value('n', '*', null, 4)], layout, [
      'en',
      'de',
      'fr',
    ]);
    expect(rows.map((r) => [r.loc, r.s1, r.n1, r.s2])).toEqual([
      ['en', 'x', 4, null],
      ['de', 'y', 4, null],
      ['fr', null, 4, null],
    ]);
  });

  it('cuts long strings without leaving half a surrogate pair', () => {
    const long = `${'a'.repeat(SLOT_TEXT_CAP - 1)}😀tail`;
    const [row] = slotRows([value('a', 'en', long)], layout, ['en']);
    expect(row?.s1).toBe('a'.repeat(SLOT_TEXT_CAP - 1));
  });

  it('writes nothing for a type without slots', () => {
    expect(slotRows([value('t', '*', 'x')], slotLayout(type([{ key: 't', type: 'text' }])), ['en'])).toEqual(
      [],
    );
  });
});

describe('slotOf', () => {
  const layout = slotLayout(
    type([
      { key: 'a', type: 'option', options: [] },
      { key: 'n', type: 'number' },
    ]),
  );

  it('answers short equality and comparisons from slots, and lets eq/in on strings drive', () => {
    expect(slotOf(eq('a', 'x'), layout)).toBe('s1');
    expect(drivesRows(eq('a', 'x'), layout)).toBe(true);
    expect(slotOf(eq('n', 3), layout)).toBe('n1');
    expect(drivesRows(eq('n', 3), layout)).toBe(false);
    expect(drivesRows({ ...eq('a', 'x'), negate: true }, layout)).toBe(false);
  });

  it('leaves long values, substrings and unslotted keys to list_values', () => {
    expect(slotOf(eq('a', 'x'.repeat(SLOT_QUERY_MAX + 1)), layout)).toBeNull();
    expect(slotOf(eq('a', 'x'.repeat(SLOT_QUERY_MAX)), layout)).toBe('s1');
    expect(slotOf({ ...eq('a'), test: 'substring', value: 'x' }, layout)).toBeNull();
    expect(slotOf(eq('other', 'x'), layout)).toBeNull();
  });
});

describe('sortSlot', () => {
  it('sorts from slots that hold whole values only: numbers, dates, booleans, not cut option values', () => {
    const layout = slotLayout(
      type([
        { key: 'a', type: 'option', options: [] },
        { key: 'd', type: 'date' },
        { key: 'n', type: 'number' },
      ]),
    );
    const by = (key: string, col: 'str' | 'num') =>
      sortSlot({ kind: 'value', key, col, many: false, locs: 'any' }, layout);
    expect(by('d', 'str')).toBe('s2');
    expect(by('n', 'num')).toBe('n1');
    expect(by('a', 'str')).toBeNull();
    expect(sortSlot({ kind: 'path' }, layout)).toBeNull();
  });
});

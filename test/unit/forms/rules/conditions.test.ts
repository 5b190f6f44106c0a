import { describe, expect, it } from 'vitest';

import {
  evaluateCondition,
  evaluateRule,
  isEmptyValue,
  visibleFields,
} from '../../../../src/forms/rules/conditions.js';
import type { Condition, ConditionRule, FormField } from '../../../../src/forms/rules/types.js';

describe('evaluateRule (spec 2.11)', () => {
  const cases: [string, ConditionRule, Record<string, unknown>, boolean][] = [
    ['equals on a string', { field: 'a', op: 'equals', value: 'x' }, { a: 'x' }, true],
    ['equals, other string', { field: 'a', op: 'equals', value: 'x' }, { a: 'y' }, false],
    ['equals, absent', { field: 'a', op: 'equals', value: 'x' }, {}, false],
    ['equals number vs numeric text', { field: 'a', op: 'equals', value: 5 }, { a: '5' }, true],
    ['equals number vs number', { field: 'a', op: 'equals', value: 5 }, { a: 5.0 }, true],
    ['equals boolean', { field: 'a', op: 'equals', value: true }, { a: true }, true],
    ['equals boolean false vs unticked', { field: 'a', op: 'equals', value: false }, { a: false }, true],
    ['equals on checkboxes: ticked', { field: 'a', op: 'equals', value: 'x' }, { a: ['w', 'x'] }, true],
    ['equals on checkboxes: not ticked', { field: 'a', op: 'equals', value: 'x' }, { a: ['w'] }, false],
    ['notEquals on checkboxes: not ticked', { field: 'a', op: 'notEquals', value: 'x' }, { a: ['w'] }, true],
    ['notEquals on checkboxes: ticked', { field: 'a', op: 'notEquals', value: 'x' }, { a: ['x'] }, false],
    ['notEquals, absent', { field: 'a', op: 'notEquals', value: 'x' }, {}, true],
    ['in', { field: 'a', op: 'in', values: ['x', 'y'] }, { a: 'y' }, true],
    ['in, not listed', { field: 'a', op: 'in', values: ['x', 'y'] }, { a: 'z' }, false],
    ['in with numbers', { field: 'a', op: 'in', values: [1, 2] }, { a: 2 }, true],
    [
      'in on checkboxes: any ticked value listed',
      { field: 'a', op: 'in', values: ['x'] },
      { a: ['w', 'x'] },
      true,
    ],
    ['notIn on checkboxes: none listed', { field: 'a', op: 'notIn', values: ['x'] }, { a: ['w'] }, true],
    ['notIn on checkboxes: one listed', { field: 'a', op: 'notIn', values: ['x'] }, { a: ['w', 'x'] }, false],
    ['notIn, absent', { field: 'a', op: 'notIn', values: ['x'] }, {}, true],
    ['filled', { field: 'a', op: 'filled' }, { a: 'x' }, true],
    ['filled, empty string', { field: 'a', op: 'filled' }, { a: '' }, false],
    ['filled, unticked checkbox', { field: 'a', op: 'filled' }, { a: false }, false],
    ['filled, zero is a value', { field: 'a', op: 'filled' }, { a: 0 }, true],
    ['empty, absent', { field: 'a', op: 'empty' }, {}, true],
    ['empty, null', { field: 'a', op: 'empty' }, { a: null }, true],
    ['empty, no ticks', { field: 'a', op: 'empty' }, { a: [] }, true],
    ['empty, ticked checkbox', { field: 'a', op: 'empty' }, { a: true }, false],
    ['greaterThan', { field: 'a', op: 'greaterThan', value: 10 }, { a: 11 }, true],
    ['greaterThan, equal', { field: 'a', op: 'greaterThan', value: 10 }, { a: 10 }, false],
    ['greaterThan on numeric text', { field: 'a', op: 'greaterThan', value: 10 }, { a: '12.5' }, true],
    ['greaterThan on non-number', { field: 'a', op: 'greaterThan', value: 10 }, { a: 'abc' }, false],
    ['greaterThan, absent', { field: 'a', op: 'greaterThan', value: 10 }, {}, false],
    ['lessThan', { field: 'a', op: 'lessThan', value: 10 }, { a: -1 }, true],
    ['lessThan on a list', { field: 'a', op: 'lessThan', value: 10 }, { a: ['1'] }, false],
    ['lessThan on a boolean', { field: 'a', op: 'lessThan', value: 10 }, { a: false }, false],
  ];
  it.each(cases)('%s', (_name, rule, values, expected) => {
    expect(evaluateRule(rule, values)).toBe(expected);
    expect(evaluateRule(rule, new Map(Object.entries(values)))).toBe(expected);
  });

  it('does not read inherited properties', () => {
    expect(evaluateRule({ field: 'constructor', op: 'filled' }, {})).toBe(false);
    expect(evaluateRule({ field: 'toString', op: 'empty' }, {})).toBe(true);
  });
});

describe('evaluateCondition', () => {
  const a: ConditionRule = { field: 'a', op: 'equals', value: 'x' };
  const b: ConditionRule = { field: 'b', op: 'filled' };
  it.each([
    ['all, both hold', { match: 'all', rules: [a, b] }, { a: 'x', b: 'y' }, true],
    ['all, one fails', { match: 'all', rules: [a, b] }, { a: 'x' }, false],
    ['any, one holds', { match: 'any', rules: [a, b] }, { b: 'y' }, true],
    ['any, none holds', { match: 'any', rules: [a, b] }, {}, false],
    ['all with no rules', { match: 'all', rules: [] }, {}, true],
    ['any with no rules', { match: 'any', rules: [] }, {}, false],
  ] satisfies [string, Condition, Record<string, unknown>, boolean][])('%s', (_n, cond, values, expected) => {
    expect(evaluateCondition(cond, values)).toBe(expected);
  });
});

describe('isEmptyValue', () => {
  it.each([[undefined], [null], [''], ['  '], [[]], [false]])('%j is empty', (v) =>
    expect(isEmptyValue(v)).toBe(true),
  );
  it.each([['x'], [0], [['a']], [true]])('%j is filled', (v) => expect(isEmptyValue(v)).toBe(false));
});

describe('visibleFields (top to bottom, spec 2.11)', () => {
  const fields: FormField[] = [
    {
      key: 'kind',
      type: 'radio',
      options: [
        { value: 'biz', label: 'Business' },
        { value: 'me', label: 'Private' },
      ],
    },
    {
      key: 'bizHead',
      type: 'heading',
      label: 'Company',
      showIf: { match: 'all', rules: [{ field: 'kind', op: 'equals', value: 'biz' }] },
    },
    {
      key: 'company',
      type: 'text',
      showIf: { match: 'all', rules: [{ field: 'kind', op: 'equals', value: 'biz' }] },
    },
    { key: 'vat', type: 'text', showIf: { match: 'all', rules: [{ field: 'company', op: 'filled' }] } },
    { key: 'news', type: 'checkbox' },
    {
      key: 'freq',
      type: 'select',
      options: [],
      showIf: { match: 'all', rules: [{ field: 'news', op: 'equals', value: true }] },
    },
    {
      key: 'unsub',
      type: 'text',
      showIf: { match: 'all', rules: [{ field: 'news', op: 'equals', value: false }] },
    },
  ];
  const keys = (values: Record<string, unknown>) => visibleFields({ fields }, values).map((f) => f.key);

  it('shows fields whose conditions hold, including headings', () => {
    expect(keys({ kind: 'biz', company: 'ACME', news: 'on' })).toEqual([
      'kind',
      'bizHead',
      'company',
      'vat',
      'news',
      'freq',
    ]);
  });

  it('drops a hidden field value before later fields read it (chained)', () => {
    // company still holds text from before the visitor switched to "private"
    expect(keys({ kind: 'me', company: 'ACME' })).toEqual(['kind', 'news', 'unsub']);
  });

  it('reads a plain-HTML "on" and an unsent checkbox as true and false', () => {
    expect(keys({ news: 'on' })).toContain('freq');
    expect(keys({})).toContain('unsub');
    expect(keys({ news: 'off' })).toContain('unsub');
  });
});

describe('visibleFields with hidden fields', () => {
  it("reads a hidden field's defaultValue when nothing was sent", () => {
    const fields: FormField[] = [
      { key: 'src', type: 'hidden', defaultValue: 'ad' },
      {
        key: 'campaign',
        type: 'text',
        showIf: { match: 'all', rules: [{ field: 'src', op: 'equals', value: 'ad' }] },
      },
    ];
    expect(visibleFields({ fields }, {}).map((f) => f.key)).toEqual(['src', 'campaign']);
    expect(visibleFields({ fields }, { src: 'mail' }).map((f) => f.key)).toEqual(['src']);
  });
});

// Cases for select, radio and checkboxes, with inline options and shared lists (spec 2.8, 2.10, 7.4).

import type { FormOption } from '../../../../../src/forms/rules/types.js';
import { fails, field, ok, tc } from './table.js';
import type { SubmissionCase } from './table.js';

const options: FormOption[] = [
  { value: 'a', label: 'A' },
  { value: 'b', label: 'B' },
  { value: 'c', label: 'C' },
];
const numbered: FormOption[] = [
  { value: '1', label: 'One' },
  { value: '2', label: 'Two' },
];
const lists = {
  countries: [
    { value: 'de', label: 'Germany' },
    { value: 'fr', label: 'France' },
  ],
};

export const CHOICE_CASES: SubmissionCase[] = [
  // select
  tc('select: an option', field('select', { options }), { f: 'b' }, ok({ f: 'b' })),
  tc('select: not an option', field('select', { options }), { f: 'z' }, fails('invalid_option')),
  tc(
    'select: option values are case-sensitive',
    field('select', { options }),
    { f: 'B' },
    fails('invalid_option'),
  ),
  tc(
    'select: a JSON number matches its option value',
    field('select', { options: numbered }),
    { f: 1 },
    ok({ f: '1' }),
  ),
  tc(
    'select: a list is invalid_type',
    field('select', { options }),
    { f: ['a', 'b'] },
    fails('invalid_type'),
  ),
  tc('select: required', field('select', { options, required: true }), { f: '' }, fails('required')),
  tc('select: shared list', field('select', { list: 'countries' }), { f: 'fr' }, ok({ f: 'fr' }), { lists }),
  tc(
    'select: not in the shared list',
    field('select', { list: 'countries' }),
    { f: 'xx' },
    fails('invalid_option'),
    {
      lists,
    },
  ),
  // radio
  tc('radio: an option', field('radio', { options }), { f: 'a' }, ok({ f: 'a' })),
  tc('radio: not an option', field('radio', { options }), { f: 'd' }, fails('invalid_option')),
  tc('radio: required', field('radio', { options, required: true }), {}, fails('required')),
  tc(
    'radio: an object is invalid_type',
    field('radio', { options }),
    { f: { value: 'a' } },
    fails('invalid_type'),
  ),
  tc('radio: shared list', field('radio', { list: 'countries' }), { f: 'de' }, ok({ f: 'de' }), { lists }),
  // checkboxes
  tc('checkboxes: ticks', field('checkboxes', { options }), { f: ['a', 'c'] }, ok({ f: ['a', 'c'] })),
  tc('checkboxes: one tick sent as a string', field('checkboxes', { options }), { f: 'b' }, ok({ f: ['b'] })),
  tc(
    'checkboxes: repeated ticks count once',
    field('checkboxes', { options, max: 2 }),
    { f: ['a', 'a', 'b'] },
    ok({ f: ['a', 'b'] }),
  ),
  tc(
    'checkboxes: not an option',
    field('checkboxes', { options }),
    { f: ['a', 'z'] },
    fails('invalid_option'),
  ),
  tc(
    'checkboxes: min ticks',
    field('checkboxes', { options, min: 2 }),
    { f: ['a'] },
    fails('too_few', { min: 2 }),
  ),
  tc(
    'checkboxes: max ticks',
    field('checkboxes', { options, max: 2 }),
    { f: ['a', 'b', 'c'] },
    fails('too_many', { max: 2 }),
  ),
  tc('checkboxes: required', field('checkboxes', { options, required: true }), {}, fails('required')),
  tc(
    'checkboxes: required and an empty list',
    field('checkboxes', { options, required: true }),
    { f: [] },
    fails('required'),
  ),
  tc('checkboxes: optional with min and none ticked', field('checkboxes', { options, min: 2 }), {}, ok({})),
  tc(
    'checkboxes: a nested object is invalid_type',
    field('checkboxes', { options }),
    { f: [{ v: 'a' }] },
    fails('invalid_type'),
  ),
  tc(
    'checkboxes: shared list',
    field('checkboxes', { list: 'countries' }),
    { f: ['de', 'fr'] },
    ok({ f: ['de', 'fr'] }),
    {
      lists,
    },
  ),
  tc(
    'checkboxes: not in the shared list',
    field('checkboxes', { list: 'countries' }),
    { f: ['de', 'it'] },
    fails('invalid_option'),
    {
      lists,
    },
  ),
];

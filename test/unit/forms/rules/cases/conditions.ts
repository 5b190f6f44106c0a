// Cases for showIf (spec 2.11), dropped keys (spec 2.13) and non-submitted types.

import type { FormField } from '../../../../../src/forms/rules/types.js';
import { fails, failsMany, field, ok, tc } from './table.js';
import type { SubmissionCase } from './table.js';

const contact: FormField = field('select', {
  key: 'contact',
  options: [
    { value: 'email', label: 'Email' },
    { value: 'phone', label: 'Phone' },
  ],
});
const email = field('email', {
  key: 'email',
  required: true,
  showIf: { match: 'all', rules: [{ field: 'contact', op: 'equals', value: 'email' }] },
});

// Chained: extra depends on detail, which depends on more.
const chain: FormField[] = [
  field('checkbox', { key: 'more' }),
  field('text', {
    key: 'detail',
    showIf: { match: 'all', rules: [{ field: 'more', op: 'equals', value: true }] },
  }),
  field('text', {
    key: 'extra',
    required: true,
    showIf: { match: 'all', rules: [{ field: 'detail', op: 'filled' }] },
  }),
];

const topics = field('checkboxes', {
  key: 'topics',
  options: [
    { value: 'news', label: 'News' },
    { value: 'events', label: 'Events' },
  ],
});
const when = field('date', {
  key: 'when',
  required: true,
  showIf: { match: 'all', rules: [{ field: 'topics', op: 'equals', value: 'events' }] },
});
const why = field('text', {
  key: 'why',
  required: true,
  showIf: { match: 'all', rules: [{ field: 'topics', op: 'notEquals', value: 'events' }] },
});

const age = field('number', { key: 'age' });
const guardian = field('text', {
  key: 'guardian',
  required: true,
  showIf: {
    match: 'any',
    rules: [
      { field: 'age', op: 'lessThan', value: 18 },
      { field: 'age', op: 'empty' },
    ],
  },
});

const source = field('hidden', { key: 'src', defaultValue: 'ad' });
const campaign = field('text', {
  key: 'campaign',
  required: true,
  showIf: { match: 'all', rules: [{ field: 'src', op: 'equals', value: 'ad' }] },
});

// JSON.parse makes `__proto__` an own key, as a JSON body parser would.
const pollution = JSON.parse(
  '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"f":"ok"}',
) as Record<string, unknown>;

export const CONDITION_CASES: SubmissionCase[] = [
  tc(
    'showIf: hidden field is not required and its value is dropped',
    [contact, email],
    { contact: 'phone', email: 'nope' },
    ok({ contact: 'phone' }),
  ),
  tc(
    'showIf: shown field is required',
    [contact, email],
    { contact: 'email' },
    fails('required', undefined, 'email'),
  ),
  tc(
    'showIf: shown field is validated',
    [contact, email],
    { contact: 'email', email: 'nope' },
    fails('invalid_email', undefined, 'email'),
  ),
  tc('showIf: chained conditions, first link off', chain, { detail: 'x', extra: '' }, ok({ more: false })),
  tc(
    'showIf: chained conditions, all on',
    chain,
    { more: 'on', detail: 'x' },
    fails('required', undefined, 'extra'),
  ),
  tc('showIf: chained conditions, middle empty', chain, { more: 'on', detail: '' }, ok({ more: true })),
  tc(
    'showIf: checkboxes equals matches a ticked value',
    [topics, when],
    { topics: ['news', 'events'] },
    fails('required', undefined, 'when'),
  ),
  tc(
    'showIf: checkboxes equals without that tick',
    [topics, when],
    { topics: ['news'], when: 'x' },
    ok({ topics: ['news'] }),
  ),
  tc(
    'showIf: checkboxes notEquals',
    [topics, why],
    { topics: ['news'] },
    fails('required', undefined, 'why'),
  ),
  tc(
    'showIf: checkboxes notEquals with that tick',
    [topics, why],
    { topics: 'events' },
    ok({ topics: ['events'] }),
  ),
  tc(
    'showIf: lessThan on a number from form data',
    [age, guardian],
    { age: '16' },
    fails('required', undefined, 'guardian'),
  ),
  tc('showIf: lessThan false', [age, guardian], { age: '30', guardian: 'Mum' }, ok({ age: 30 })),
  tc('showIf: any with empty', [age, guardian], { guardian: 'Dad' }, ok({ guardian: 'Dad' })),
  tc(
    'showIf: an invalid number is absent to conditions',
    [age, guardian],
    { age: 'abc' },
    failsMany({ age: 'invalid_number', guardian: 'required' }),
  ),
  tc(
    "showIf: a hidden field's defaultValue counts",
    [source, campaign],
    {},
    fails('required', undefined, 'campaign'),
  ),
  tc(
    'showIf: a sent hidden value wins over its default',
    [source, campaign],
    { src: 'mail' },
    ok({ src: 'mail' }),
  ),
  // spec 2.13: keys that are not fields are dropped
  tc(
    'keys that are not fields and control keys are dropped',
    field('text'),
    { f: 'x', other: 'y', _page: '/contact', _locale: 'de', 'cf-turnstile-response': 'token' },
    ok({ f: 'x' }),
  ),
  tc(
    'heading, paragraph and section values are dropped',
    [field('heading', { key: 'h' }), field('paragraph', { key: 'p' }), field('section', { key: 's' })],
    { h: 'x', p: 'y', s: 'z' },
    ok({}),
  ),
  tc('prototype keys are dropped', field('text'), pollution, ok({ f: 'ok' }), {
    formData: [
      ['__proto__', 'polluted'],
      ['constructor', 'x'],
      ['f', 'ok'],
    ],
  }),
  tc(
    'a field named constructor is read from the body only',
    field('text', { key: 'constructor', required: true }),
    {},
    fails('required', undefined, 'constructor'),
  ),
  tc(
    'a field named constructor takes its value',
    field('text', { key: 'constructor' }),
    { constructor: 'x' },
    ok({ constructor: 'x' }),
  ),
];

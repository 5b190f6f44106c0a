import { describe, expect, it } from 'vitest';

import { SUBMISSION_CASES, caseDefinition } from '../rules/cases.js';
import type { FormDefinition, FormField, FormSettings } from '../rules/types.js';
import { formatDefinitionErrors, validateFormDefinition } from './validate-definition.js';

const opts = { listKeys: new Set(['countries']), locales: ['en', 'de', 'pt-BR'] };
const turnstile: FormSettings = { turnstileSiteKey: 'site', turnstileSecret: 'secret' };

function form(fields: FormField[], settings: FormSettings = {}): FormDefinition {
  return { key: 'contact', name: 'Contact', fields, settings };
}

const name: FormField = { key: 'name', type: 'text', label: 'Name', required: true, maxLength: 100 };
const email: FormField = { key: 'email', type: 'email', label: 'Email', required: true };
const topic: FormField = {
  key: 'topic',
  type: 'select',
  label: 'Topic',
  options: [
    { value: 'sales', label: 'Sales' },
    { value: 'support', label: 'Support' },
  ],
  translations: { de: { label: 'Thema', options: { sales: 'Vertrieb' } } },
};

const full: FormDefinition = form(
  [
    name,
    email,
    topic,
    {
      key: 'order',
      type: 'text',
      label: 'Order',
      showIf: { match: 'all', rules: [{ field: 'topic', op: 'equals', value: 'support' }] },
    },
    { key: 'country', type: 'radio', label: 'Country', list: 'countries' },
    { key: 'qty', type: 'number', label: 'Quantity', min: 1, max: 10, step: 0.5 },
    { key: 'day', type: 'date', label: 'Day', minDate: 'today', maxDate: '2030-12-31' },
    {
      key: 'cv',
      type: 'file',
      label: 'CV',
      accept: ['application/pdf', 'image/*', '.docx'],
      maxSize: 10 * 1024 * 1024,
      maxFiles: 10,
    },
    { key: 'src', type: 'hidden', defaultValue: 'web', fromQuery: 'utm_source' },
    { key: 'step2', type: 'section', label: 'More' },
    {
      key: 'ok',
      type: 'consent',
      label: 'I agree',
      link: { label: 'Privacy', url: 'https://example.com/privacy' },
    },
  ],
  {
    ...turnstile,
    active: true,
    opensAt: '2026-01-01T00:00:00.000Z',
    closesAt: '2026-12-31T23:59:59.999Z',
    maxSubmissions: 100,
    uniqueField: 'email',
    successMessage: { en: 'Thanks', de: 'Danke' },
    closedMessage: { en: 'Closed' },
    honeypot: 'homepage',
    retentionDays: 30,
    notify: ['team@example.com'],
    notifyRules: [
      {
        when: { match: 'any', rules: [{ field: 'topic', op: 'in', values: ['sales'] }] },
        to: ['sales@example.com'],
      },
    ],
    chatWebhookUrl: 'https://chat.example.com/hook',
    confirmationEmail: { subject: { en: 'We got it' }, body: { en: 'Thanks for writing.' } },
  },
);

describe('validateFormDefinition: valid definitions', () => {
  it('accepts a definition using every feature and returns a copy', () => {
    const result = validateFormDefinition(full, opts);
    expect(result).toEqual({ ok: true, form: full });
    if (result.ok) expect(result.form).not.toBe(full);
  });

  it('accepts notify and rules naming more than 20 in all: the cap of 20 is per submission (spec 8)', () => {
    const when = { match: 'all' as const, rules: [{ field: 'name', op: 'filled' as const }] };
    const def = form([name, email], {
      notify: many(10, 'n'),
      notifyRules: [
        { when, to: many(20, 'r') },
        { when, to: many(20, 's') },
      ],
    });
    const result = validateFormDefinition(def, opts);
    if (!result.ok) throw new Error(formatDefinitionErrors(result.errors));
  });

  it.each(SUBMISSION_CASES.map((c) => [c.name, c] as const))(
    'case table definition is valid: %s',
    (_n, c) => {
      const result = validateFormDefinition(caseDefinition(c), {
        listKeys: new Set(Object.keys(c.lists)),
        locales: ['en'],
      });
      if (!result.ok) throw new Error(formatDefinitionErrors(result.errors));
    },
  );
});

type Mutation = (def: FormDefinition) => unknown;
const withField =
  (field: Partial<FormField> & Record<string, unknown>, settings: FormSettings = {}): Mutation =>
  () =>
    form([name, email, field as FormField], settings);
const withSettings =
  (settings: Record<string, unknown>): Mutation =>
  () =>
    form([name, email], settings as FormSettings);
const many = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}@example.com`);

// [name, build the input, expected path, expected message fragment]
const REJECTIONS: [string, Mutation, string, string][] = [
  ['not an object', () => [], '', 'must be an object'],
  [
    'fields not an array',
    () => ({ key: 'k', name: 'N', fields: {}, settings: {} }),
    'fields',
    'must be an array',
  ],
  ['missing name', () => ({ key: 'k', fields: [], settings: {} }), 'name', 'is required'],
  ['bad form key', () => ({ ...form([]), key: '1form' }), 'key', 'must start with a letter'],
  ['unknown form member', () => ({ ...form([]), extra: 1 }), 'extra', 'not a setting of forms'],
  ['field not an object', () => form(['x' as unknown as FormField]), 'fields[0]', 'must be an object'],
  [
    'unknown field type',
    withField({ key: 'x', type: 'color' as FormField['type'], label: 'X' }),
    'fields[2].type',
    'unknown field type "color"',
  ],
  [
    'key starting with a digit',
    withField({ key: '1x', type: 'text', label: 'X' }),
    'fields[2].key',
    'must start with a letter',
  ],
  [
    'key too long',
    withField({ key: `a${'b'.repeat(64)}`, type: 'text', label: 'X' }),
    'fields[2].key',
    '1–64',
  ],
  [
    'key with a dot',
    withField({ key: 'a.b', type: 'text', label: 'X' }),
    'fields[2].key',
    'must start with a letter',
  ],
  [
    'reserved cf-turnstile-response',
    withField({ key: 'cf-turnstile-response', type: 'text', label: 'X' }),
    'fields[2].key',
    'reserved',
  ],
  ['reserved _page', withField({ key: '_page', type: 'text', label: 'X' }), 'fields[2].key', 'reserved'],
  [
    'reserved _redirect_error',
    withField({ key: '_redirect_error', type: 'text', label: 'X' }),
    'fields[2].key',
    'reserved',
  ],
  [
    'default honeypot name',
    withField({ key: 'website', type: 'url', label: 'X' }),
    'fields[2].key',
    "spam trap's name",
  ],
  [
    'custom honeypot name',
    withField({ key: 'trap', type: 'text', label: 'X' }, { honeypot: 'trap' }),
    'fields[2].key',
    "spam trap's name",
  ],
  [
    'duplicate keys',
    withField({ key: 'email', type: 'text', label: 'X' }),
    'fields[2].key',
    'duplicate key "email" (also fields[1])',
  ],
  ['missing label', withField({ key: 'x', type: 'text' }), 'fields[2].label', 'is required'],
  [
    'setting of another type',
    withField({ key: 'x', type: 'number', label: 'X', maxLength: 5 }),
    'fields[2].maxLength',
    'not a setting of number fields',
  ],
  [
    'misspelt setting',
    withField({ key: 'x', type: 'text', label: 'X', maxlength: 5 }),
    'fields[2].maxlength',
    'not a setting of text fields',
  ],
  [
    'bad width',
    withField({ key: 'x', type: 'text', label: 'X', width: 'third' as 'full' }),
    'fields[2].width',
    '"full" or "half"',
  ],
  [
    'required heading',
    withField({ key: 'x', type: 'heading', label: 'X', required: true }),
    'fields[2].required',
    'never submitted',
  ],
  [
    'consent not required',
    withField({ key: 'x', type: 'consent', label: 'X', required: false }),
    'fields[2].required',
    'always required',
  ],
  [
    'text maxLength over 500',
    withField({ key: 'x', type: 'text', label: 'X', maxLength: 501 }),
    'fields[2].maxLength',
    'text fields allow at most 500',
  ],
  [
    'textarea maxLength over 5,000',
    withField({ key: 'x', type: 'textarea', label: 'X', maxLength: 5001 }),
    'fields[2].maxLength',
    'textarea fields allow at most 5,000',
  ],
  [
    'minLength over maxLength',
    withField({ key: 'x', type: 'text', label: 'X', minLength: 10, maxLength: 5 }),
    'fields[2].minLength',
    'must not exceed maxLength (5)',
  ],
  [
    'minLength over the text cap',
    withField({ key: 'x', type: 'text', label: 'X', minLength: 600 }),
    'fields[2].minLength',
    'must not exceed maxLength (500)',
  ],
  [
    'maxLength not an integer',
    withField({ key: 'x', type: 'text', label: 'X', maxLength: 5.5 }),
    'fields[2].maxLength',
    'must be an integer',
  ],
  [
    'number min over max',
    withField({ key: 'x', type: 'number', label: 'X', min: 5, max: 1 }),
    'fields[2].min',
    'must not exceed max (1)',
  ],
  [
    'number step zero',
    withField({ key: 'x', type: 'number', label: 'X', step: 0 }),
    'fields[2].step',
    'greater than 0',
  ],
  [
    'number step negative',
    withField({ key: 'x', type: 'number', label: 'X', step: -1 }),
    'fields[2].step',
    'greater than 0',
  ],
  [
    'number min as text',
    withField({ key: 'x', type: 'number', label: 'X', min: '1' as unknown as number }),
    'fields[2].min',
    'must be a number',
  ],
  [
    'minDate not a date',
    withField({ key: 'x', type: 'date', label: 'X', minDate: 'tomorrow' }),
    'fields[2].minDate',
    'or "today"',
  ],
  [
    'maxDate 2026-02-30',
    withField({ key: 'x', type: 'date', label: 'X', maxDate: '2026-02-30' }),
    'fields[2].maxDate',
    'must be a date',
  ],
  [
    'minDate after maxDate',
    withField({ key: 'x', type: 'date', label: 'X', minDate: '2027-01-01', maxDate: '2026-01-01' }),
    'fields[2].minDate',
    'must not be after maxDate',
  ],
  [
    'choice with options and list',
    withField({
      key: 'x',
      type: 'select',
      label: 'X',
      list: 'countries',
      options: [{ value: 'a', label: 'A' }],
    }),
    'fields[2]',
    'not both',
  ],
  [
    'choice with neither',
    withField({ key: 'x', type: 'radio', label: 'X' }),
    'fields[2]',
    'need options or list',
  ],
  [
    'unknown list',
    withField({ key: 'x', type: 'checkboxes', label: 'X', list: 'cities' }),
    'fields[2].list',
    'unknown option list "cities"',
  ],
  [
    'duplicate option values',
    withField({
      key: 'x',
      type: 'select',
      label: 'X',
      options: [
        { value: 'a', label: 'A' },
        { value: 'a', label: 'B' },
      ],
    }),
    'fields[2].options[1].value',
    'duplicate option value "a" (also options[0])',
  ],
  [
    'empty options',
    withField({ key: 'x', type: 'select', label: 'X', options: [] }),
    'fields[2].options',
    'non-empty array',
  ],
  [
    'option without label',
    withField({ key: 'x', type: 'select', label: 'X', options: [{ value: 'a' } as FormOption] }),
    'fields[2].options[0].label',
    'is required',
  ],
  [
    'checkboxes min over max',
    withField({ key: 'x', type: 'checkboxes', label: 'X', list: 'countries', min: 3, max: 2 }),
    'fields[2].min',
    'must not exceed max',
  ],
  [
    'checkboxes min over options',
    withField({ key: 'x', type: 'checkboxes', label: 'X', options: [{ value: 'a', label: 'A' }], min: 2 }),
    'fields[2].min',
    'more ticks than the 1 options',
  ],
  [
    'file maxSize over 10 MB',
    withField({ key: 'x', type: 'file', label: 'X', maxSize: 10 * 1024 * 1024 + 1 }, turnstile),
    'fields[2].maxSize',
    'at most 10 MB',
  ],
  [
    'file maxFiles over 10',
    withField({ key: 'x', type: 'file', label: 'X', maxFiles: 11 }, turnstile),
    'fields[2].maxFiles',
    'at most 10',
  ],
  [
    'file maxFiles under 1',
    withField({ key: 'x', type: 'file', label: 'X', maxFiles: 0 }, turnstile),
    'fields[2].maxFiles',
    'at least 1',
  ],
  [
    'file accept entry',
    withField({ key: 'x', type: 'file', label: 'X', accept: ['pdf'] }, turnstile),
    'fields[2].accept[0]',
    'media type',
  ],
  [
    'file without Turnstile',
    withField({ key: 'x', type: 'file', label: 'X' }),
    'fields[2]',
    'file fields require Turnstile',
  ],
  [
    'file with only a site key',
    withField({ key: 'x', type: 'file', label: 'X' }, { turnstileSiteKey: 'k' }),
    'settings.turnstileSecret',
    'must be set together',
  ],
  [
    'consent link url',
    withField({ key: 'x', type: 'consent', label: 'X', link: { label: 'P', url: 'javascript:x' } }),
    'fields[2].link.url',
    'http(s) link',
  ],
  [
    'showIf on a field below',
    () => form([{ ...name, showIf: { match: 'all', rules: [{ field: 'email', op: 'filled' }] } }, email]),
    'fields[0].showIf.rules[0].field',
    'not above this field',
  ],
  [
    'showIf on itself',
    withField({
      key: 'x',
      type: 'text',
      label: 'X',
      showIf: { match: 'all', rules: [{ field: 'x', op: 'filled' }] },
    }),
    'fields[2].showIf.rules[0].field',
    'not above this field',
  ],
  [
    'showIf on an unknown field',
    withField({
      key: 'x',
      type: 'text',
      label: 'X',
      showIf: { match: 'all', rules: [{ field: 'nope', op: 'filled' }] },
    }),
    'fields[2].showIf.rules[0].field',
    'unknown field "nope"',
  ],
  [
    'showIf on a heading',
    () =>
      form([
        { key: 'h', type: 'heading', label: 'H' },
        { ...name, showIf: { match: 'all', rules: [{ field: 'h', op: 'filled' }] } },
      ]),
    'fields[1].showIf.rules[0].field',
    'is a heading and is never submitted',
  ],
  [
    'showIf unknown op',
    withField({
      key: 'x',
      type: 'text',
      label: 'X',
      showIf: { match: 'all', rules: [{ field: 'name', op: 'contains' as 'equals', value: 'a' }] },
    }),
    'fields[2].showIf.rules[0].op',
    'unknown op "contains"',
  ],
  [
    'showIf bad match',
    withField({
      key: 'x',
      type: 'text',
      label: 'X',
      showIf: { match: 'some' as 'all', rules: [{ field: 'name', op: 'filled' }] },
    }),
    'fields[2].showIf.match',
    '"all" or "any"',
  ],
  [
    'showIf no rules',
    withField({ key: 'x', type: 'text', label: 'X', showIf: { match: 'all', rules: [] } }),
    'fields[2].showIf.rules',
    'non-empty array',
  ],
  [
    'equals without value',
    withField({
      key: 'x',
      type: 'text',
      label: 'X',
      showIf: { match: 'all', rules: [{ field: 'name', op: 'equals' }] },
    }),
    'fields[2].showIf.rules[0].value',
    'is required for equals',
  ],
  [
    'in without values',
    withField({
      key: 'x',
      type: 'text',
      label: 'X',
      showIf: { match: 'all', rules: [{ field: 'name', op: 'in', value: 'a' }] },
    }),
    'fields[2].showIf.rules[0].values',
    'non-empty array for in',
  ],
  [
    'greaterThan with text',
    withField({
      key: 'x',
      type: 'text',
      label: 'X',
      showIf: { match: 'all', rules: [{ field: 'name', op: 'greaterThan', value: '5' }] },
    }),
    'fields[2].showIf.rules[0].value',
    'must be a number for greaterThan',
  ],
  [
    'filled with a value',
    withField({
      key: 'x',
      type: 'text',
      label: 'X',
      showIf: { match: 'all', rules: [{ field: 'name', op: 'filled', value: 'a' }] },
    }),
    'fields[2].showIf.rules[0].value',
    'takes no operand',
  ],
  [
    'translation for an unknown locale',
    withField({ key: 'x', type: 'text', label: 'X', translations: { fr: { label: 'Y' } } }),
    'fields[2].translations.fr',
    'unknown locale "fr"',
  ],
  [
    'translation key needing quotes',
    withField({
      key: 'x',
      type: 'text',
      label: 'X',
      translations: { 'pt-BR': { label: 1 as unknown as string } },
    }),
    'fields[2].translations["pt-BR"].label',
    'must be a string',
  ],
  [
    'translated label of a missing option',
    withField({ ...topic, key: 'x', translations: { de: { options: { nope: 'Nein' } } } }),
    'fields[2].translations.de.options.nope',
    'not an option',
  ],
  [
    'translated option labels on a list field',
    withField({
      key: 'x',
      type: 'select',
      label: 'X',
      list: 'countries',
      translations: { de: { options: { de: 'D' } } },
    }),
    'fields[2].translations.de.options',
    'shared list',
  ],
  [
    'confirmation email without Turnstile',
    withSettings({ confirmationEmail: { subject: { en: 'S' }, body: { en: 'B' } } }),
    'settings.confirmationEmail',
    'requires Turnstile',
  ],
  [
    'confirmation email without an email field',
    () => form([name], { ...turnstile, confirmationEmail: { subject: { en: 'S' }, body: { en: 'B' } } }),
    'settings.confirmationEmail',
    'requires an email field',
  ],
  [
    'confirmation email without subject',
    withSettings({ ...turnstile, confirmationEmail: { body: { en: 'B' } } }),
    'settings.confirmationEmail.subject',
    'is required',
  ],
  [
    'more than 10 notify addresses',
    withSettings({ notify: many(11, 'n') }),
    'settings.notify',
    'at most 10 addresses',
  ],
  [
    'invalid notify address',
    withSettings({ notify: ['team@example'] }),
    'settings.notify[0]',
    'must be an email address',
  ],
  [
    'invalid notifyRules address',
    withSettings({
      notifyRules: [{ when: { match: 'all', rules: [{ field: 'name', op: 'filled' }] }, to: ['x'] }],
    }),
    'settings.notifyRules[0].to[0]',
    'must be an email address',
  ],
  [
    'notifyRules condition on an unknown field',
    withSettings({
      notifyRules: [
        { when: { match: 'all', rules: [{ field: 'zip', op: 'filled' }] }, to: ['a@example.com'] },
      ],
    }),
    'settings.notifyRules[0].when.rules[0].field',
    'unknown field',
  ],
  [
    // spec 8: at most 20 routed recipients per submission, so one rule can never name more.
    'a rule naming more than 20 addresses',
    withSettings({
      notifyRules: [{ when: { match: 'all', rules: [{ field: 'name', op: 'filled' }] }, to: many(21, 'r') }],
    }),
    'settings.notifyRules[0].to',
    'at most 20 addresses',
  ],
  [
    'uniqueField not an email field',
    withSettings({ uniqueField: 'name' }),
    'settings.uniqueField',
    'must name an email field',
  ],
  ['retentionDays zero', withSettings({ retentionDays: 0 }), 'settings.retentionDays', 'at least 1'],
  [
    'retentionDays fractional',
    withSettings({ retentionDays: 1.5 }),
    'settings.retentionDays',
    'must be an integer',
  ],
  ['maxSubmissions zero', withSettings({ maxSubmissions: 0 }), 'settings.maxSubmissions', 'at least 1'],
  [
    'opensAt not a timestamp',
    withSettings({ opensAt: '2026-01-01' }),
    'settings.opensAt',
    'ISO 8601 timestamp',
  ],
  [
    'closesAt impossible date',
    withSettings({ closesAt: '2026-02-30T00:00:00Z' }),
    'settings.closesAt',
    'ISO 8601 timestamp',
  ],
  [
    'opensAt not before closesAt',
    withSettings({ opensAt: '2026-02-01T00:00:00Z', closesAt: '2026-02-01T00:00:00.000Z' }),
    'settings.opensAt',
    'must be before closesAt',
  ],
  [
    'success message in an unknown locale',
    withSettings({ successMessage: { fr: 'Merci' } }),
    'settings.successMessage.fr',
    'unknown locale',
  ],
  [
    'unknown setting',
    withSettings({ notifyEmail: 'a@example.com' }),
    'settings.notifyEmail',
    'not a setting of form settings',
  ],
  ['bad honeypot name', withSettings({ honeypot: '_trap' }), 'settings.honeypot', 'must be a letter'],
  [
    'chat webhook not a link',
    withSettings({ chatWebhookUrl: 'hooks.example.com' }),
    'settings.chatWebhookUrl',
    'http(s) link',
  ],
];

type FormOption = { value: string; label: string };

describe('validateFormDefinition: rejections', () => {
  it.each(REJECTIONS)('%s', (_name, build, path, fragment) => {
    const result = validateFormDefinition(build(full), opts);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const match = result.errors.find((e) => e.path === path && e.message.includes(fragment));
    if (!match)
      throw new Error(`expected ${path}: …${fragment}…, got:\n${formatDefinitionErrors(result.errors)}`);
  });

  it('reports every problem, in document order', () => {
    const result = validateFormDefinition(
      form(
        [
          { key: '_page', type: 'text', label: 'X', maxLength: 900 },
          { key: 'n', type: 'number', label: 'N', step: 0 },
        ],
        { retentionDays: -1 },
      ),
      opts,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(formatDefinitionErrors(result.errors).split('\n')).toEqual([
      'fields[0].key: "_page" is reserved: a submission control key (spec 2.10)',
      'fields[0].maxLength: text fields allow at most 500',
      'fields[1].step: must be greater than 0',
      'settings.retentionDays: must be at least 1',
    ]);
  });
});

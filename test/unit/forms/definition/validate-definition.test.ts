import { describe, expect, it } from 'vitest';
import { SUBMISSION_CASES, caseDefinition } from '../rules/cases.js';
import {
  formatDefinitionErrors,
  validateFormDefinition,
} from '../../../../src/forms/definition/validate-definition.js';
import {
  email,
  form,
  full,
  many,
  type Mutation,
  name,
  opts,
  turnstile,
  withField,
  withSettings,
  expectRejection,
} from './definition-fixtures.js';

// Rejections of fields are in validate-definition-fields.test.ts.

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

// [name, build the input, expected path, expected message fragment]
const REJECTIONS: [string, Mutation, string, string][] = [
  ['not an object', () => [], '', 'must be an object'],
  ['missing name', () => ({ key: 'k', fields: [], settings: {} }), 'name', 'is required'],
  ['bad form key', () => ({ ...form([]), key: '1form' }), 'key', 'must start with a letter'],
  ['unknown form member', () => ({ ...form([]), extra: 1 }), 'extra', 'not a setting of forms'],
  [
    'file with only a site key',
    withField({ key: 'x', type: 'file', label: 'X' }, { turnstileSiteKey: 'k' }),
    'settings.turnstileSecret',
    'must be set together',
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

describe('validateFormDefinition: rejections', () => {
  it.each(REJECTIONS)('%s', (_name, build, path, fragment) => {
    expectRejection(build, path, fragment);
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

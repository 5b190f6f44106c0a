import type { FormDefinition, FormField, FormSettings } from '../../../../src/forms/rules/types.js';
import {
  formatDefinitionErrors,
  validateFormDefinition,
} from '../../../../src/forms/definition/validate-definition.js';

/**
 * Definitions the tests of validate-definition.ts start from (validate-definition.test.ts,
 * validate-definition-fields.test.ts): a small form, a full one using every kind of field and setting, and the
 * mutations the rejection tables apply to them.
 */
export const opts = { listKeys: new Set(['countries']), locales: ['en', 'de', 'pt-BR'] };
export const turnstile: FormSettings = { turnstileSiteKey: 'site', turnstileSecret: 'secret' };

export function form(fields: FormField[], settings: FormSettings = {}): FormDefinition {
  return { key: 'contact', name: 'Contact', fields, settings };
}

export const name: FormField = { key: 'name', type: 'text', label: 'Name', required: true, maxLength: 100 };
export const email: FormField = { key: 'email', type: 'email', label: 'Email', required: true };
export const topic: FormField = {
  key: 'topic',
  type: 'select',
  label: 'Topic',
  options: [
    { value: 'sales', label: 'Sales' },
    { value: 'support', label: 'Support' },
  ],
  translations: { de: { label: 'Thema', options: { sales: 'Vertrieb' } } },
};

export const full: FormDefinition = form(
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

export type Mutation = (def: FormDefinition) => unknown;
export const withField =
  (field: Partial<FormField> & Record<string, unknown>, settings: FormSettings = {}): Mutation =>
  () =>
    form([name, email, field as FormField], settings);
export const withSettings =
  (settings: Record<string, unknown>): Mutation =>
  () =>
    form([name, email], settings as FormSettings);
export const many = (n: number, prefix: string) =>
  Array.from({ length: n }, (_, i) => `${prefix}${i}@example.com`);

export type FormOption = { value: string; label: string };

/** Throws unless the mutated full definition is refused with an error at `path` whose message holds `fragment`. */
export function expectRejection(build: Mutation, path: string, fragment: string): void {
  const result = validateFormDefinition(build(full), opts);
  if (result.ok) throw new Error(`expected ${path}: …${fragment}…, but the definition was accepted`);
  const match = result.errors.find((e) => e.path === path && e.message.includes(fragment));
  if (!match)
    throw new Error(`expected ${path}: …${fragment}…, got:\n${formatDefinitionErrors(result.errors)}`);
}

import type { FormDefinition, FormField } from '../../src/forms/rules/index.js';

/** Forms of the fixture space (locales en, de, de-ch → de) used by the form tests. */

export const CONTACT_FIELDS: FormField[] = [
  {
    key: 'name',
    type: 'text',
    label: 'Name',
    required: true,
    maxLength: 100,
    translations: { de: { label: 'Name' } },
  },
  { key: 'email', type: 'email', label: 'Email', required: true, translations: { de: { label: 'E-Mail' } } },
  {
    key: 'topic',
    type: 'select',
    label: 'Topic',
    options: [
      { value: 'general', label: 'General' },
      { value: 'press', label: 'Press' },
    ],
    translations: { de: { label: 'Thema', options: { general: 'Allgemein', press: 'Presse' } } },
  },
  {
    key: 'message',
    type: 'textarea',
    label: 'Message',
    showIf: { match: 'all', rules: [{ field: 'topic', op: 'equals', value: 'general' }] },
  },
  {
    key: 'tags',
    type: 'checkboxes',
    label: 'Tags',
    options: [
      { value: 'a', label: 'A' },
      { value: 'b', label: 'B' },
      { value: 'c', label: 'C' },
    ],
  },
  { key: 'color', type: 'radio', label: 'Color', list: 'colors', translations: { de: { label: 'Farbe' } } },
  {
    key: 'consent',
    type: 'consent',
    label: 'I agree to the storage of my data.',
    required: true,
    link: { label: 'Privacy', url: 'https://site.example/privacy' },
    translations: {
      de: {
        label: 'Ich stimme der Speicherung zu.',
        link: { label: 'Datenschutz', url: 'https://site.example/de/datenschutz' },
      },
    },
  },
];

export const contactForm = (key = 'contact', settings: FormDefinition['settings'] = {}): FormDefinition => ({
  key,
  name: 'Contact',
  fields: CONTACT_FIELDS,
  settings: {
    successMessage: { en: 'Thanks!', de: 'Danke!' },
    closedMessage: { en: 'Closed for now.', de: 'Zurzeit geschlossen.' },
    notify: ['team@example.com'],
    ...settings,
  },
});

/** A one-field form (email) with settings. */
export const emailForm = (key: string, settings: FormDefinition['settings'] = {}): FormDefinition => ({
  key,
  name: key,
  fields: [{ key: 'email', type: 'email', label: 'Email', required: true }],
  settings,
});

export const VALID_CONTACT = {
  name: 'Ada',
  email: 'ada@example.com',
  topic: 'general',
  message: 'Hello',
  consent: true,
};

import { describe, expect, it } from 'vitest';

import type { FormDefinition } from '../../../../src/forms/rules/types.js';
import {
  DEFAULT_SUCCESS_MESSAGE,
  deliverForm,
  resolveText,
} from '../../../../src/forms/definition/deliver.js';
import type { DeliverOptions } from '../../../../src/forms/definition/deliver.js';
import { topic } from './definition-fixtures.js';

const def: FormDefinition = {
  key: 'contact',
  name: 'Contact',
  fields: [
    {
      key: 'name',
      type: 'text',
      label: 'Name',
      help: 'Your full name',
      placeholder: 'Ada',
      required: true,
      maxLength: 100,
      translations: { de: { label: 'Name (de)', placeholder: '' }, 'de-ch': { label: 'Name (ch)' } },
    },
    topic,
    { key: 'country', type: 'radio', label: 'Country', list: 'countries' },
    {
      key: 'day',
      type: 'date',
      label: 'Day',
      minDate: 'today',
      showIf: { match: 'all', rules: [{ field: 'topic', op: 'equals', value: 'sales' }] },
    },
    {
      key: 'ok',
      type: 'consent',
      label: 'I agree',
      link: { label: 'Privacy', url: 'https://example.com/privacy' },
      translations: { de: { label: 'Ich stimme zu', link: { url: 'https://example.com/de/datenschutz' } } },
    },
  ],
  settings: {
    turnstileSiteKey: 'site-key',
    turnstileSecret: 'top-secret',
    successMessage: { en: 'Thanks!', de: 'Danke!' },
    closedMessage: { en: 'Closed.' },
    notify: ['team@example.com'],
    notifyRules: [
      { when: { match: 'all', rules: [{ field: 'topic', op: 'filled' }] }, to: ['x@example.com'] },
    ],
    chatWebhookUrl: 'https://chat.example.com/hook',
    confirmationEmail: { subject: { en: 'Hi' }, body: { en: 'Thanks' } },
    opensAt: '2026-01-01T01:00:00+01:00',
    closesAt: null,
    maxSubmissions: 5,
  },
};

const base: DeliverOptions = {
  localeChain: ['en'],
  defaultLocale: 'en',
  lists: {
    countries: [
      { value: 'de', label: { en: 'Germany', de: 'Deutschland' } },
      { value: 'ch', label: { de: 'Schweiz' } },
    ],
  },
  now: new Date('2026-03-15T12:00:00Z'),
  nonSpamCount: 0,
};

describe('deliverForm (spec 2.9)', () => {
  it('delivers the spec members in the default locale', () => {
    const form = deliverForm(def, base);
    expect(Object.keys(form)).toEqual([
      'key',
      'name',
      'locale',
      'fields',
      'honeypot',
      'turnstile',
      'turnstileSiteKey',
      'successMessage',
      'status',
      'closedMessage',
      'opensAt',
      'closesAt',
    ]);
    expect(form).toMatchObject({
      key: 'contact',
      name: 'Contact',
      locale: 'en',
      honeypot: 'website',
      turnstile: true,
      turnstileSiteKey: 'site-key',
      successMessage: 'Thanks!',
      status: 'open',
      closedMessage: 'Closed.',
      opensAt: '2026-01-01T00:00:00.000Z',
      closesAt: null,
    });
    expect(form.fields[0]).toEqual({
      key: 'name',
      type: 'text',
      label: 'Name',
      help: 'Your full name',
      placeholder: 'Ada',
      required: true,
      maxLength: 100,
    });
  });

  it('never delivers secrets, notification settings, confirmation email or translations', () => {
    const json = JSON.stringify(deliverForm(def, { ...base, localeChain: ['de', 'en'] }));
    for (const hidden of [
      'top-secret',
      'turnstileSecret',
      'notify',
      'team@example.com',
      'chatWebhookUrl',
      'confirmationEmail',
      'translations',
      '"list"',
    ]) {
      expect(json).not.toContain(hidden);
    }
  });

  it('resolves texts along the chain, falling back per text to the base', () => {
    const form = deliverForm(def, { ...base, localeChain: ['de-ch', 'de', 'en'] });
    expect(form.locale).toBe('de-ch');
    const [name, topic, country, day, ok] = form.fields;
    expect(name).toMatchObject({ label: 'Name (ch)', help: 'Your full name', placeholder: 'Ada' }); // empty de placeholder falls back
    expect(topic?.label).toBe('Thema');
    expect(topic?.options).toEqual([
      { value: 'sales', label: 'Vertrieb' },
      { value: 'support', label: 'Support' },
    ]);
    expect(country?.options).toEqual([
      { value: 'de', label: 'Deutschland' },
      { value: 'ch', label: 'Schweiz' },
    ]);
    expect(day).toMatchObject({ minDate: 'today', showIf: { match: 'all' } });
    expect(ok?.label).toBe('Ich stimme zu');
    expect(ok?.link).toEqual({ label: 'Privacy', url: 'https://example.com/de/datenschutz' });
    expect(form.successMessage).toBe('Danke!');
    expect(form.closedMessage).toBe('Closed.');
  });

  it('ends every chain at the default locale', () => {
    const form = deliverForm(def, { ...base, localeChain: ['fr'] });
    expect(form.locale).toBe('fr');
    expect(form.fields[2]?.options).toEqual([
      { value: 'de', label: 'Germany' },
      { value: 'ch', label: 'ch' }, // no label in fr or en: the value stands in
    ]);
    expect(form.successMessage).toBe('Thanks!');
  });

  it('delivers an unknown list as no options', () => {
    expect(deliverForm(def, { ...base, lists: {} }).fields[2]?.options).toEqual([]);
  });

  it('evaluates the status now (spec 3.1)', () => {
    expect(deliverForm(def, { ...base, nonSpamCount: 5 }).status).toBe('full');
    expect(deliverForm(def, { ...base, now: new Date('2025-12-31T23:00:00Z') }).status).toBe('scheduled');
    expect(deliverForm({ ...def, settings: { ...def.settings, active: false } }, base).status).toBe('closed');
  });

  it('delivers defaults for a form without settings', () => {
    const form = deliverForm({ key: 'k', name: 'K', fields: [], settings: {} }, base);
    expect(form).toMatchObject({
      honeypot: 'website',
      turnstile: false,
      turnstileSiteKey: null,
      successMessage: DEFAULT_SUCCESS_MESSAGE,
      closedMessage: null,
      opensAt: null,
      closesAt: null,
      status: 'open',
    });
  });

  it('does not change the authored definition', () => {
    const before = JSON.stringify(def);
    deliverForm(def, { ...base, localeChain: ['de'] });
    expect(JSON.stringify(def)).toBe(before);
  });
});

describe('resolveText', () => {
  it('takes the first non-empty text along the chain', () => {
    expect(resolveText({ en: 'Hi', de: '' }, ['de', 'en'])).toBe('Hi');
    expect(resolveText({ en: 'Hi', de: 'Hallo' }, ['de', 'en'])).toBe('Hallo');
    expect(resolveText(undefined, ['en'])).toBeNull();
    expect(resolveText({}, ['constructor'])).toBeNull();
  });
});

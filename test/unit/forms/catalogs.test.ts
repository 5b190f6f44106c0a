import { describe, expect, it } from 'vitest';
import { messageFor, resolveMessages, text } from '../../../src/forms/render/messages.js';
import { renderForm } from '../../../src/forms/render/render.js';
import { readFormResult } from '../../../client/src/forms/round-trip.js';
import {
  CATALOGS,
  FIELD_ERROR_CODES,
  FORM_ERROR_CODES,
  SHIPPED_LOCALES,
  catalogFor,
  fallbackChain,
  fieldError,
  labelled,
} from '../../../src/forms/rules/index.js';
import { EVERY_TYPE, OPTS, form, parse } from '../../helpers/render-html.js';

// Every message code in every shipped catalog, nothing left in English where a language has its
// own words, and the catalog chosen along the space's fallback chain.

const EN = CATALOGS['en']!;
const KEYS = Object.keys(EN).sort();
const PARAMS = { min: 2, max: 5, step: 0.5, accept: 'application/pdf', retryAfter: 30, step_: 1, steps: 3 };
/** Words that are the same in every language. */
const SAME_EVERYWHERE = new Set(['requiredMark']);
const placeholders = (s: string) => [...s.matchAll(/\{([A-Za-z]+)\}/g)].map((m) => m[1]).sort();

describe('the message catalogs', () => {
  it('ship en, de, fr, it and es', () => {
    expect(SHIPPED_LOCALES.sort()).toEqual(['de', 'en', 'es', 'fr', 'it']);
  });

  it.each(SHIPPED_LOCALES)('%s has every code and word, with the same placeholders as English', (locale) => {
    const catalog = CATALOGS[locale]!;
    expect(Object.keys(catalog).sort()).toEqual(KEYS);
    for (const key of KEYS) {
      const words = catalog[key as keyof typeof catalog];
      expect([key, typeof words, words.trim() === '']).toEqual([key, 'string', false]);
      expect([key, placeholders(words)]).toEqual([key, placeholders(EN[key as keyof typeof EN])]);
    }
  });

  it('cover every field and form code of spec 7.4', () => {
    for (const code of [...FIELD_ERROR_CODES, ...FORM_ERROR_CODES]) expect(KEYS).toContain(code);
  });

  it.each(SHIPPED_LOCALES.filter((l) => l !== 'en'))('%s leaves no English behind', (locale) => {
    const catalog = CATALOGS[locale]!;
    for (const key of KEYS) {
      if (SAME_EVERYWHERE.has(key)) continue;
      const words = catalog[key as keyof typeof catalog];
      expect([key, words]).not.toEqual([key, EN[key as keyof typeof EN]]);
      if (locale === 'de')
        expect([
          key,
          // Placeholders ({field}) are names, not words.
          /\b(the|this|please|field|enter|choose|must|form|files?|send)\b/i.test(
            words.replace(/\{\w+\}/g, ''),
          ),
        ]).toEqual([key, false]);
    }
  });

  it('say in English exactly what the server says (the browser and `message` agree)', () => {
    const variants = [undefined, 'date', 'number', 'choices', 'files'] as const;
    for (const code of FIELD_ERROR_CODES)
      for (const variant of variants)
        for (const params of [
          { min: 2, max: 5, step: 0.5, accept: 'image/png' },
          { min: 1, max: 1, step: 1, accept: '' },
        ]) {
          const server = fieldError(code, params, variant).message;
          const browser = messageFor(code, { params, variant, messages: resolveMessages(['en']) });
          expect([code, variant, params, browser]).toEqual([code, variant, params, server]);
        }
  });

  it.each(SHIPPED_LOCALES)('render every code in %s with its params filled in', (locale) => {
    const messages = resolveMessages([locale]);
    for (const key of KEYS) {
      const [code, variant] = key.split('.') as [string, string | undefined];
      const message = messageFor(code, { params: PARAMS, variant, messages });
      expect([key, message.includes('{'), message]).toEqual([key, false, expect.any(String)]);
    }
    expect(text('step', messages, { step: 1, steps: 3 })).toMatch(/1.*3/);
  });
});

describe('choosing a catalog', () => {
  const locales = [
    { code: 'en', default: true },
    { code: 'rm', fallbacks: ['it'] },
    { code: 'de-AT', fallbacks: [] },
  ];

  it('follows the form locale along the space fallbacks, then the language, then English', () => {
    expect(catalogFor(fallbackChain('rm', locales)).locale).toBe('it');
    expect(catalogFor(fallbackChain('de-AT', locales)).locale).toBe('de');
    expect(catalogFor(fallbackChain('pt', locales)).locale).toBe('en');
  });

  it('lets a site override a code, its variants included', () => {
    const messages = resolveMessages(['de'], { too_many: 'Höchstens {max}!' });
    expect(messageFor('too_many', { params: { max: 1 }, variant: 'files', messages })).toBe('Höchstens 1!');
    expect(messageFor('required', { messages })).toBe('Dieses Feld ist erforderlich.');
  });

  it('writes labels ending in punctuation without a second colon', () => {
    expect(labelled('Name', 'Required.')).toBe('Name: Required.');
    expect(labelled('I agree to the terms.', 'Required.')).toBe('I agree to the terms. Required.');
    expect(labelled('Your question?', 'Required.')).toBe('Your question? Required.');
    expect(labelled('Phone:', 'Required.')).toBe('Phone: Required.');
  });
});

describe('renderForm in German, back from a failed plain post', () => {
  const def = form(EVERY_TYPE, { locale: 'de' });
  const back = readFormResult(
    '?error=validation_failed&fields=name:required,bio:too_long,pets:too_many,x%3Cy:required,bogus&draft=drf_' +
      'a'.repeat(24),
  );
  const html = renderForm(def, {
    ...OPTS,
    error: back.error,
    fieldErrors: back.fieldErrors,
    values: { name: 'Ada', bio: 'x'.repeat(20) },
  });
  const h = parse(html);

  it('reads the redirect: codes by field, a draft id, nothing else', () => {
    expect(back).toEqual({
      error: 'validation_failed',
      fieldErrors: { name: { code: 'required' }, bio: { code: 'too_long' }, pets: { code: 'too_many' } },
      draft: `drf_${'a'.repeat(24)}`,
    });
  });

  it('speaks German: the summary, the field messages with the field bounds, the submit label', () => {
    const alert = h.text(h.byId('folio-all-alert'));
    expect(alert).toContain('Einige Angaben fehlen oder sind ungültig.');
    expect(h.text(h.tag('button').at(-1)!)).toBe('Senden');
    expect(html).toContain('Dieses Feld ist erforderlich.');
    expect(html).not.toMatch(/This field|Choose…|>Send</);
    // Bounds come from the field when the redirect carried only the code.
    const bio = EVERY_TYPE.find((f) => f.key === 'bio');
    if (bio?.maxLength !== undefined) expect(html).toContain(`Höchstens ${bio.maxLength} Zeichen.`);
  });

  it('marks the failing fields as the enhancer does and keeps the typed values', () => {
    const name = h.byId('folio-all-f-name');
    expect(h.attr(name, 'aria-invalid')).toBe('true');
    expect(h.attr(name, 'value')).toBe('Ada');
  });
});

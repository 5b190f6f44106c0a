import { describe, expect, it } from 'vitest';
import { type DeliveredField, parseDeliveredForm } from '../client/src/forms/definition.js';
import { escapeHtml } from '../src/forms/render/html.js';
import { DEFAULT_MESSAGES, messageFor } from '../src/forms/render/messages.js';
import { type RenderOptions, readFormError, renderForm, renderSuccess } from '../src/forms/render/render.js';
import { FIELD_ERROR_CODES, FORM_ERROR_CODES } from '../src/forms/rules/index.js';
import { EVERY_TYPE, type Node, OPTS, demoContactForm, form, parse } from './helpers/render-html.js';

// What renderForm shows for a failed post (`?error=<code>`, spec 4.4; field errors, spec 7.4), its
// message table, and that no text of a definition becomes markup.

describe('renderForm: errors from a failed post', () => {
  const def = demoContactForm();

  it('reads ?error= as a code, and ignores anything that is not code-shaped', () => {
    expect(readFormError('?error=validation_failed&x=1')).toBe('validation_failed');
    expect(readFormError(new URLSearchParams('error=form_full'))).toBe('form_full');
    for (const bad of ['?error=<script>', '?error=Call+us', '?x=1', `?error=${'a'.repeat(65)}`]) {
      expect([bad, readFormError(bad)]).toEqual([bad, null]);
    }
  });

  it('shows the code at the top (role=alert) and field errors by their fields', () => {
    const h = parse(
      renderForm(def, {
        ...OPTS,
        error: 'validation_failed',
        fieldErrors: { email: { code: 'invalid_email' }, name: { code: 'too_long', params: { max: 100 } } },
      }),
    );
    const alert = h.byId('folio-contact-alert');
    expect(h.text(alert)).toContain(DEFAULT_MESSAGES.validation_failed);
    expect(
      h
        .tag('a')
        .filter((a) => h.attr(a, 'href')?.startsWith('#folio-contact-f-'))
        .map((a) => h.text(a)),
    ).toEqual(['Email: Enter a valid email address.', 'Name: Must be at most 100 characters.']);
    const email = h.byId('folio-contact-f-email');
    expect([h.attr(email, 'aria-invalid'), h.attr(email, 'aria-describedby')]).toEqual([
      'true',
      'folio-contact-f-email-help folio-contact-f-email-error',
    ]);
    const error = h.byId('folio-contact-f-email-error');
    expect([h.text(error), h.attr(error, 'data-folio-code'), h.attr(error, 'hidden')]).toEqual([
      'Enter a valid email address.',
      'invalid_email',
      undefined,
    ]);
    expect(h.attr(h.byId('folio-contact-f-topic-error'), 'hidden')).toBe('');
    expect(h.attr(h.byId('folio-contact-f-topic'), 'aria-invalid')).toBeUndefined();
  });

  it('says what each form-level code means, the closed message first where the spec says so', () => {
    const alertOf = (opts: Partial<RenderOptions>, d = def) => {
      const h = parse(renderForm(d, { ...OPTS, ...opts }));
      return h.text(h.byId('folio-contact-alert'));
    };
    expect(alertOf({ error: 'form_full' })).toBe(DEFAULT_MESSAGES.form_full);
    expect(alertOf({ error: 'form_full' }, { ...def, closedMessage: 'Sold out.' })).toBe('Sold out.');
    expect(alertOf({ error: 'rate_limited' })).toBe(DEFAULT_MESSAGES.rate_limited);
    expect(alertOf({ error: 'forbidden_origin' })).toBe(DEFAULT_MESSAGES.error);
    // 413 `too_large` of a whole body is not the field code `too_large` ("Must be at most {max}").
    expect(alertOf({ error: 'too_large' })).toBe(DEFAULT_MESSAGES.body_too_large);
    expect(alertOf({ error: 'form_full', messages: { form_full: 'Ausgebucht.' } })).toBe('Ausgebucht.');
  });

  it('has a message for every code of spec 7.4, overridable by code and by variant', () => {
    for (const code of [...FIELD_ERROR_CODES, ...FORM_ERROR_CODES]) {
      expect([code, messageFor(code, { params: { min: 1, max: 2, step: 1, accept: '.pdf' } })]).not.toEqual([
        code,
        DEFAULT_MESSAGES.error,
      ]);
    }
    expect(messageFor('too_small', { params: { min: '2026-01-01' }, variant: 'date' })).toBe(
      'Must be on or after 2026-01-01.',
    );
    const de = { too_long: 'Höchstens {max} Zeichen.', 'too_small.date': 'Frühestens am {min}.' };
    expect(messageFor('too_long', { params: { max: 5 }, messages: de })).toBe('Höchstens 5 Zeichen.');
    expect(messageFor('too_small', { params: { min: '2026-01-01' }, variant: 'date', messages: de })).toBe(
      'Frühestens am 2026-01-01.',
    );
    expect(messageFor('rate_limited', { variant: 'retry', params: { retryAfter: 42 } })).toBe(
      'Too many attempts. Please try again in 42 seconds.',
    );
  });

  it('renders the closed message instead of a form that is not open (spec 3.1)', () => {
    for (const [status, expected] of [
      ['closed', DEFAULT_MESSAGES.form_closed],
      ['scheduled', DEFAULT_MESSAGES.form_not_open],
      ['full', DEFAULT_MESSAGES.form_full],
    ] as const) {
      const h = parse(renderForm({ ...def, status }, OPTS));
      expect([status, h.tag('form').length, h.text(h.byId('folio-contact'))]).toEqual([status, 0, expected]);
    }
    const h = parse(renderForm({ ...def, status: 'closed', closedMessage: 'See you next year.' }, OPTS));
    expect(h.text(h.byId('folio-contact'))).toBe('See you next year.');
  });

  it('refuses a preview token (it would end up in the page)', () => {
    expect(() => renderForm(def, { ...OPTS, token: 'folio_prv_Secret0000000000000001' })).toThrow(
      /public token/,
    );
  });
});

describe('renderForm: escaping', () => {
  const EVIL = `"><script>alert(1)</script><img src=x onerror=alert(2)>&amp;'</textarea>`;
  const evilOptions = [{ value: EVIL, label: EVIL }];
  const fields: DeliveredField[] = [
    { key: 'a', type: 'text', label: EVIL, help: EVIL, placeholder: EVIL },
    { key: 'b', type: 'select', label: EVIL, options: evilOptions },
    { key: 'c', type: 'radio', label: EVIL, options: evilOptions },
    { key: 'd', type: 'checkboxes', label: EVIL, options: evilOptions },
    { key: 'e', type: 'consent', label: EVIL, link: { label: EVIL, url: 'javascript:alert(3)' } },
    { key: 'f', type: 'hidden', defaultValue: EVIL },
    { key: 'g', type: 'heading', label: EVIL },
    { key: 'h', type: 'paragraph', label: EVIL },
    { key: 's', type: 'section', label: EVIL, help: EVIL },
    { key: 't', type: 'textarea', label: EVIL },
    { key: 'x"><b>', type: 'text', label: 'odd key' },
  ];
  const def = form(fields, {
    key: 'k"><i>',
    honeypot: `w"><u>`,
    successMessage: EVIL,
    closedMessage: EVIL,
    turnstile: true,
    turnstileSiteKey: EVIL,
  });
  const html = renderForm(def, {
    ...OPTS,
    redirect: EVIL,
    page: EVIL,
    values: { a: EVIL, t: EVIL },
    messages: { submit: EVIL, honeypot: EVIL },
    error: 'validation_failed',
    fieldErrors: { a: { code: 'too_long', params: { max: EVIL } } },
  });
  const h = parse(html);

  it('lets no definition text become markup, script or an event handler', () => {
    expect(h.tag('script').map((s) => h.attr(s, 'type'))).toEqual(['application/json']);
    expect(h.tag('img')).toEqual([]);
    expect(h.tag('b').concat(h.tag('i'), h.tag('u'))).toEqual([]);
    for (const e of h.all) {
      expect(Object.keys(e.attribs).filter((n) => n.startsWith('on'))).toEqual([]);
      for (const value of Object.values(e.attribs)) expect(value).not.toMatch(/^\s*javascript:/i);
    }
    // A consent link that is not http(s) is left out, its label with it.
    expect(h.tag('a').filter((a) => h.attr(a, 'class') === 'folio-consent-link')).toEqual([]);
  });

  it('keeps the texts as they were written (escaped, not mangled)', () => {
    expect(h.text(h.byId('folio-k___i_-f-a-help'))).toBe(EVIL.replace(/\s+/g, ' '));
    expect(h.attr(h.byId('folio-k___i_-f-a'), 'placeholder')).toBe(EVIL);
    expect(h.attr(h.byId('folio-k___i_-f-a'), 'value')).toBe(EVIL);
    expect(h.tag('option').map((o) => h.attr(o, 'value'))).toContain(EVIL);
    expect(
      h.controls.find((c) => h.attr(c, 'type') === 'hidden' && h.attr(c, 'name') === 'f')?.attribs.value,
    ).toBe(EVIL);
    expect(h.controls.some((c) => h.attr(c, 'name') === `w"><u>`)).toBe(true);
    // htmlparser2 leaves textarea content undecoded (HTML decodes it: RCDATA); what matters is that it stays
    // text, with no `</textarea>` of its own to end the element early.
    expect(h.text(h.tag('textarea')[0] as Node)).toBe(escapeHtml(EVIL));
    expect(h.text(h.byId('folio-k___i_-alert'))).toContain(
      `Must be at most ${EVIL} characters.`.replace(/\s+/g, ' '),
    );
  });

  it('keeps the embedded definition inside its script element', () => {
    const script = h.tag('script')[0] as Node;
    const config = JSON.parse(h.text(script)) as { form: unknown };
    expect(parseDeliveredForm(config.form)).toEqual(def);
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    const success = parse(renderSuccess(def));
    expect(success.tag('script')).toEqual([]);
    expect(success.text(success.tag('p')[0] as Node)).toBe(EVIL.replace(/\s+/g, ' '));
  });
});

describe('parseDeliveredForm', () => {
  it('rebuilds a delivered form from JSON and names the first member that is wrong', () => {
    const def = form(EVERY_TYPE);
    expect(parseDeliveredForm(JSON.parse(JSON.stringify({ ...def, extra: 1 })))).toEqual(def);
    const broken = JSON.parse(JSON.stringify(def)) as { fields: { type: string }[] };
    (broken.fields[2] as { type: string }).type = 'script';
    expect(() => parseDeliveredForm(broken)).toThrow(/fields\[2\]\.type/);
    expect(() => parseDeliveredForm(null)).toThrow(/form must be an object/);
  });
});

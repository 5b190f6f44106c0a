import { describe, expect, it } from 'vitest';
import { bundleEnhancer } from '../client/scripts/bundle-enhancer.js';
import { parseDeliveredForm } from '../client/src/forms/definition.js';
import { TEL_PATTERN } from '../src/forms/render/render-field.js';
import { renderForm } from '../src/forms/render/render.js';
import { isTel } from '../src/forms/rules/index.js';
import { EVERY_TYPE, type Node, OPTS, demoContactForm, form, parse } from './helpers/render-html.js';

// renderForm's HTML for the demo contact form and for every field type, read back with a real HTML
// parser. Errors and escaping: test/forms-render-errors.test.ts. In a browser, with and without JavaScript:
// test/e2e/forms.e2e.test.ts.

describe('renderForm: the demo contact form', () => {
  const def = demoContactForm();
  const html = renderForm(def, {
    ...OPTS,
    redirect: 'https://site.example/thanks',
    redirectError: 'https://site.example/contact',
  });
  const h = parse(html);

  it('posts to the submissions endpoint with the public token in the action URL (spec 4.4, 5 rule 4)', () => {
    const [f] = h.tag('form');
    expect(f && h.attr(f, 'method')).toBe('post');
    expect(f && h.attr(f, 'action')).toBe(
      'https://folio.example.com/v1/spc_demo/forms/contact/submissions?token=folio_pub_DemoToken000000000001',
    );
    expect(f && h.attr(f, 'data-folio-form')).toBe('contact');
    expect(f && h.attr(f, 'novalidate')).toBeUndefined();
  });

  it('labels every control, and links help text with aria-describedby', () => {
    for (const c of h.controls.filter((c) => h.attr(c, 'type') !== 'hidden')) {
      const id = h.attr(c, 'id') ?? '';
      const labels = h.tag('label').filter((l) => h.attr(l, 'for') === id);
      expect([id, labels.length]).toEqual([id, 1]);
      expect(h.text(labels[0] as Node)).not.toBe('');
    }
    const email = h.byId('folio-contact-f-email');
    expect(h.attr(email, 'aria-describedby')).toBe('folio-contact-f-email-help');
    expect(h.text(h.byId('folio-contact-f-email-help'))).toBe('We reply to this address.');
    expect(h.attr(email, 'autocomplete')).toBe('email');
    expect(h.attr(h.byId('folio-contact-f-name'), 'autocomplete')).toBe('name');
  });

  it('carries the native constraints; the conditional message is not natively required', () => {
    const name = h.byId('folio-contact-f-name');
    expect([h.attr(name, 'type'), h.attr(name, 'required'), h.attr(name, 'maxlength')]).toEqual([
      'text',
      '',
      '100',
    ]);
    const topic = h.byId('folio-contact-f-topic');
    expect(h.attr(topic, 'required')).toBe('');
    const options = h.tag('option').filter((o) => topic.children.includes(o));
    expect(options.map((o) => h.attr(o, 'value'))).toEqual(['', 'general', 'support', 'press', 'meetup']);
    // The shared list `countries` arrives resolved into options (spec 2.9).
    expect(h.text(h.byId('folio-contact-f-country'))).toContain('Switzerland');
    const message = h.byId('folio-contact-f-message');
    expect([message.name, h.attr(message, 'maxlength'), h.attr(message, 'required')]).toEqual([
      'textarea',
      '2000',
      undefined,
    ]);
    const consent = h.byId('folio-contact-f-consent');
    expect([h.attr(consent, 'type'), h.attr(consent, 'required'), h.attr(consent, 'value')]).toEqual([
      'checkbox',
      '',
      'true',
    ]);
    const link = h.tag('a').find((a) => h.text(a) === 'Privacy policy');
    expect(link && h.attr(link, 'href')).toBe('https://example.com/privacy');
  });

  it('sends the control keys as hidden inputs', () => {
    const hidden = Object.fromEntries(
      h.controls
        .filter((c) => h.attr(c, 'type') === 'hidden')
        .map((c) => [h.attr(c, 'name'), h.attr(c, 'value')]),
    );
    expect(hidden).toEqual({
      _locale: 'en',
      _redirect: 'https://site.example/thanks',
      _redirect_error: 'https://site.example/contact',
    });
  });

  it('hides the honeypot from people and assistive technology, and keeps it empty', () => {
    const trap = h.controls.filter((c) => h.attr(c, 'name') === 'website');
    expect(trap).toHaveLength(1);
    const input = trap[0] as Node;
    expect([h.attr(input, 'tabindex'), h.attr(input, 'autocomplete'), h.attr(input, 'value')]).toEqual([
      '-1',
      'off',
      '',
    ]);
    const box = input.parent as Node;
    expect(h.attr(box, 'aria-hidden')).toBe('true');
    expect(h.attr(box, 'style')).toContain('left:-10000px');
  });

  it('embeds the definition for the enhancer, readable by parseDeliveredForm', () => {
    const script = h.tag('script');
    expect(script.map((s) => h.attr(s, 'type'))).toEqual(['application/json']);
    const config = JSON.parse(h.text(script[0] as Node)) as { form: unknown; prefix: string };
    expect(parseDeliveredForm(config.form)).toEqual(def);
    expect(config.prefix).toBe('folio-contact');
  });

  it('has an empty alert and status region waiting for messages, and no Turnstile', () => {
    const alert = h.byId('folio-contact-alert');
    expect([h.attr(alert, 'role'), h.text(alert)]).toEqual(['alert', '']);
    expect(h.attr(h.byId('folio-contact-status'), 'role')).toBe('status');
    expect(html).not.toContain('cf-turnstile');
  });
});

describe('renderForm: every field type (spec 2.10)', () => {
  const def = form(EVERY_TYPE);
  const h = parse(
    renderForm(def, {
      ...OPTS,
      timeZone: 'Pacific/Kiritimati',
      now: new Date('2026-03-15T12:00:00Z'),
      query: new URLSearchParams('utm_campaign=spring'),
    }),
  );
  const id = (key: string) => `folio-all-f-${key}`;
  const attrsOf = (key: string, ...names: string[]) => names.map((n) => h.attr(h.byId(id(key)), n));

  it('uses native input types and constraints', () => {
    expect(attrsOf('name', 'type', 'required', 'minlength', 'maxlength', 'placeholder')).toEqual([
      'text',
      '',
      '2',
      '80',
      'Ada',
    ]);
    // Without maxLength the allowed maximum applies (spec 2.10: 5,000 for textarea).
    expect(attrsOf('bio', 'maxlength', 'aria-describedby')).toEqual(['5000', id('bio-help')]);
    expect(attrsOf('email', 'type', 'autocomplete')).toEqual(['email', 'email']);
    expect(attrsOf('phone', 'type', 'autocomplete', 'pattern')).toEqual(['tel', 'tel', TEL_PATTERN]);
    expect(attrsOf('site', 'type', 'autocomplete')).toEqual(['url', 'url']);
    expect(attrsOf('age', 'type', 'min', 'max', 'step')).toEqual(['number', '18', '120', '1']);
    // No step means any number (rules/field-checks.ts), not HTML's default of 1.
    expect(attrsOf('amount', 'step')).toEqual(['any']);
    // `today` in the space's time zone: already the 16th at UTC+14.
    expect(attrsOf('day', 'type', 'min', 'max')).toEqual(['date', '2026-03-16', '2027-12-31']);
    expect(attrsOf('at', 'type')).toEqual(['time']);
  });

  it('writes a phone pattern browsers compile (v flag) that takes what the server takes', () => {
    const re = new RegExp(`^(?:${TEL_PATTERN})$`, 'v');
    for (const ok of ['+41 44 123 45 67', '(030) 1234-567', '044.123.45.67']) {
      expect([ok, isTel(ok), re.test(ok)]).toEqual([ok, true, true]);
    }
    expect(re.test('call me')).toBe(false);
  });

  it('groups radio and checkbox options in a fieldset whose legend is the label', () => {
    for (const key of ['color', 'topics']) {
      const set = h.all.find((e) => e.name === 'fieldset' && h.attr(e, 'data-folio-field') === key) as Node;
      const legend = set.children.find((c): c is Node => 'name' in c && c.name === 'legend');
      expect(legend && h.text(legend)).toMatch(key === 'color' ? /^Color/ : /^Topics/);
      const inputs = h.controls.filter((c) => h.attr(c, 'name') === key);
      expect(inputs.map((c) => h.attr(c, 'id'))).toEqual([`${id(key)}-0`, `${id(key)}-1`]);
      for (const input of inputs) {
        expect(h.tag('label').some((l) => h.attr(l, 'for') === h.attr(input, 'id'))).toBe(true);
        // Radios share one native required; a checkbox group has no "at least one" in HTML.
        expect(h.attr(input, 'required')).toBe(key === 'color' ? '' : undefined);
      }
    }
    const color = h.all.find((e) => h.attr(e, 'data-folio-field') === 'color') as Node;
    expect(h.attr(color, 'aria-describedby')).toBe(id('color-help'));
  });

  it('renders single boxes, hidden values, files, headings, paragraphs and sections', () => {
    expect(attrsOf('news', 'type', 'value', 'required')).toEqual(['checkbox', 'true', undefined]);
    // spec 2.10: consent is always required, even when the definition does not say so.
    expect(attrsOf('terms', 'type', 'required')).toEqual(['checkbox', '']);
    const hidden = h.controls.find((c) => h.attr(c, 'name') === 'campaign') as Node;
    expect([h.attr(hidden, 'type'), h.attr(hidden, 'value')]).toEqual(['hidden', 'spring']);
    // File inputs have no name: without JavaScript nothing is posted for them (spec 4.4).
    expect(attrsOf('cv', 'type', 'name', 'accept', 'multiple', 'required')).toEqual([
      'file',
      undefined,
      'application/pdf,.docx',
      '',
      '',
    ]);
    expect(h.text(h.tag('h3')[0] as Node)).toBe('About you');
    expect(h.tag('p').some((p) => h.text(p) === 'We keep it short.')).toBe(true);
    const steps = h.all.filter((e) => h.attr(e, 'data-folio-step') !== undefined);
    expect(steps.map((s) => [s.name, h.attr(s, 'data-folio-step')])).toEqual([
      ['div', '0'],
      ['fieldset', '1'],
    ]);
    expect(h.text(h.tag('legend').find((l) => h.attr(l, 'data-folio-type') === 'section') as Node)).toBe(
      'More',
    );
  });

  it('does not natively require a field with a showIf (the server skips it when hidden, spec 2.11)', () => {
    expect(attrsOf('details', 'required', 'aria-required')).toEqual([undefined, 'true']);
    expect(h.text(h.tag('label').find((l) => h.attr(l, 'for') === id('details')) as Node)).toBe('Details *');
  });

  it('leaves `today` out without the space time zone, and uses the default value without a query', () => {
    const plain = parse(renderForm(def, OPTS));
    expect(plain.attr(plain.byId(id('day')), 'min')).toBeUndefined();
    const hidden = plain.controls.find((c) => plain.attr(c, 'name') === 'campaign') as Node;
    expect(plain.attr(hidden, 'value')).toBe('none');
  });

  it('renders the Turnstile container only for forms that use it', () => {
    const h2 = parse(
      renderForm(form(EVERY_TYPE, { turnstile: true, turnstileSiteKey: '1x00000000000000000000AA' }), OPTS),
    );
    const box = h2.all.find((e) => h2.attr(e, 'data-folio-turnstile') !== undefined) as Node;
    expect([h2.attr(box, 'class'), h2.attr(box, 'data-sitekey')]).toEqual([
      'cf-turnstile folio-turnstile',
      '1x00000000000000000000AA',
    ]);
  });
});

describe('the enhancer bundle', () => {
  it('builds for browsers, and says how big it is', async () => {
    const { code, bytes, gzipBytes } = await bundleEnhancer();
    console.log(
      `enhancer bundle: ${(bytes / 1024).toFixed(1)} KB, ${(gzipBytes / 1024).toFixed(1)} KB gzipped`,
    );
    expect(code).toContain('data-folio-form');
    expect(code).not.toMatch(/["']node:/);
    // The aim is < 15 KB gzipped; this only guards against something large slipping in.
    expect(gzipBytes).toBeLessThan(40 * 1024);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DeliveredField } from '../client/src/forms/definition.js';
import { noScriptConditions } from '../src/forms/render/conditions-css.js';
import { formStyle, renderForm } from '../src/forms/render/render.js';
import { CONDITION_OPS, type Condition } from '../src/forms/rules/index.js';
import { OPTS, demoContactForm, form, parse } from './helpers/render-html.js';

// Conditions without JavaScript: CSS hides a field until its condition holds where CSS can decide (selects, radios,
// boxes, a text left empty), the other fields say in words when they apply, and answers the visitor was told will
// not be sent ride along as `_drop`. That the CSS gives the rules' verdict in a browser, state by state:
// test/e2e/site.e2e.test.ts.

const topic: DeliveredField = {
  key: 'topic',
  type: 'select',
  label: 'Topic',
  options: [
    { value: 'general', label: 'General question' },
    { value: 'press', label: 'Press' },
  ],
};
const when = (rules: Condition['rules'], match: Condition['match'] = 'all'): Condition => ({ match, rules });

describe('renderForm without JavaScript: conditions', () => {
  it('hides the demo message by CSS and says in words when the guests’ diet applies', () => {
    const html = renderForm(demoContactForm(), OPTS);
    const h = parse(html);
    const style = h.tag('style');
    expect(style).toHaveLength(1);
    const css = h.text(style[0]!);
    expect(css.startsWith('@supports selector(:has(a)){')).toBe(true);
    // The message shows for three topics, the guests for the meetup: both hidden by CSS, no words.
    expect(css).toContain('[data-folio-field="message"]');
    expect(css).toContain('[data-folio-field="guests"]');
    expect(css).toContain('option[value="general"]:checked');
    expect(html).not.toContain('folio-contact-f-message-when');
    // A number compared: CSS cannot decide, so the field says it.
    expect(css).not.toContain('[data-folio-field="diet"]');
    const note = h.byId('folio-contact-f-diet-when');
    expect(h.text(note)).toBe('Only if “Guests” is more than 0.');
    expect(h.attr(note, 'data-folio-nojs')).toBe('');
    expect(h.attr(h.byId('folio-contact-f-diet'), 'aria-describedby')).toBe('folio-contact-f-diet-when');
  });

  it('speaks the visitor language, with option labels', () => {
    const fields: DeliveredField[] = [
      topic,
      { key: 'n', type: 'number', label: 'Anzahl' },
      {
        key: 'x',
        type: 'text',
        label: 'Mehr',
        showIf: when(
          [
            { field: 'topic', op: 'in', values: ['general', 'press'] },
            { field: 'n', op: 'lessThan', value: 3 },
          ],
          'any',
        ),
      },
    ];
    const h = parse(renderForm(form(fields, { locale: 'de' }), OPTS));
    expect(h.text(h.byId('folio-all-f-x-when'))).toBe(
      'Nur falls „Topic“ „General question“ oder „Press“ ist oder „Anzahl“ weniger als 3 ist.',
    );
  });

  it('reads an empty text by :placeholder-shown, giving a blank placeholder where the field has none', () => {
    const fields: DeliveredField[] = [
      { key: 'company', type: 'text', label: 'Company' },
      { key: 'vat', type: 'text', label: 'VAT id', showIf: when([{ field: 'company', op: 'filled' }]) },
      { key: 'date', type: 'date', label: 'Date' },
      { key: 'why', type: 'text', label: 'Why', showIf: when([{ field: 'date', op: 'empty' }]) },
    ];
    const html = renderForm(form(fields), OPTS);
    const h = parse(html);
    expect(h.attr(h.byId('folio-all-f-company'), 'placeholder')).toBe(' ');
    expect(html).toContain('[id="folio\\2d all\\2d f\\2d company"]:placeholder-shown');
    // A date shows no placeholder: said in words.
    expect(h.text(h.byId('folio-all-f-why-when'))).toBe('Only if “Date” is left empty.');
  });

  it('composes chains: a field reading a hidden field sees no value', () => {
    const fields: DeliveredField[] = [
      topic,
      {
        key: 'outlet',
        type: 'radio',
        label: 'Outlet',
        options: [
          { value: 'print', label: 'Print' },
          { value: 'web', label: 'Web' },
        ],
        showIf: when([{ field: 'topic', op: 'equals', value: 'press' }]),
      },
      {
        key: 'url',
        type: 'url',
        label: 'URL',
        showIf: when([{ field: 'outlet', op: 'notEquals', value: 'print' }]),
      },
    ];
    const { css, undecided } = noScriptConditions(form(fields), 'f', () => undefined);
    expect(undecided).toEqual(new Set());
    // url shows when outlet is hidden (no value: notEquals holds) or shown and not print.
    const urlRule = css.split('}').find((r) => r.includes('"url"')) ?? '';
    expect(urlRule).toContain(':not(:is(:not(:has([id="f\\2d f\\2d topic"] option[value="press"]:checked))');
    expect(urlRule).toContain('[id="f\\2d f\\2d outlet\\2d 0"]:checked');
  });

  it('keeps a field with an error in sight, and steps aside for the enhancer', () => {
    const css = formStyle(demoContactForm(), {});
    for (const rule of css.slice('@supports selector(:has(a)){'.length, -1).split('}').filter(Boolean)) {
      expect(rule).toContain(':not([data-folio-enhanced])');
      expect(rule).toContain(':not(:has([data-folio-code]))');
      expect(rule.endsWith('{display:none')).toBe(true);
    }
  });

  it('takes a CSP nonce, or leaves the style to the site', () => {
    const withNonce = parse(renderForm(demoContactForm(), { ...OPTS, styleNonce: 'r4nd0m' }));
    expect(withNonce.attr(withNonce.tag('style')[0]!, 'nonce')).toBe('r4nd0m');
    const without = renderForm(demoContactForm(), { ...OPTS, inlineStyle: false });
    expect(without).not.toContain('<style');
    expect(formStyle(demoContactForm(), {})).toContain('[data-folio-field="message"]');
    expect(formStyle(form([topic]), {})).toBe('');
  });

  it('escapes hostile option values and keys: nothing ends the style element', () => {
    const evil = '"]</style><script>alert(1)</script>';
    const fields: DeliveredField[] = [
      { ...topic, options: [{ value: evil, label: 'x' }] },
      {
        key: 'next',
        type: 'text',
        label: 'Next',
        showIf: when([{ field: 'topic', op: 'equals', value: evil }]),
      },
    ];
    const html = renderForm(form(fields), OPTS);
    const css = parse(html).text(parse(html).tag('style')[0]!);
    expect(css).not.toMatch(/[<>]/);
    expect(html.match(/<script/g)).toHaveLength(1); // the embedded definition only
  });

  it('writes _drop for answers the visitor was told will not be sent, and _error_page when asked', () => {
    const h = parse(
      renderForm(demoContactForm(), {
        ...OPTS,
        error: 'validation_failed',
        fieldErrors: { message: { code: 'not_applicable' }, email: { code: 'invalid_email' } },
        errorPage: 'folio',
      }),
    );
    const hidden = h.controls
      .filter((c) => h.attr(c, 'type') === 'hidden')
      .map((c) => [h.attr(c, 'name'), h.attr(c, 'value')]);
    expect(hidden).toEqual(
      expect.arrayContaining([
        ['_drop', 'message'],
        ['_error_page', 'folio'],
      ]),
    );
    expect(hidden.filter(([n]) => n === '_drop')).toHaveLength(1);
    // The message says it will not be sent, and when it would be.
    expect(h.text(h.byId('folio-contact-f-message-when'))).toBe(
      'Only if “Topic” is “General question”, “Support” or “Press”.',
    );
    const alone = parse(
      renderForm(demoContactForm(), { ...OPTS, fieldErrors: { message: { code: 'not_applicable' } } }),
    );
    expect(alone.text(alone.byId('folio-contact-alert'))).toMatch(/^Some answers do not fit/);
    const staticSite = renderForm(demoContactForm(), { ...OPTS, errorPage: 'folio-without-js' });
    expect(staticSite).toContain(
      '<noscript><input type="hidden" name="_error_page" value="folio"></noscript>',
    );
  });

  it('never throws on any condition, and its CSS never leaves the style element', () => {
    const value = fc.oneof(fc.string(), fc.integer(), fc.boolean());
    const rule = fc.record({
      field: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'zz'),
      op: fc.constantFrom(...CONDITION_OPS),
      value,
      values: fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 4 }),
    });
    const cond = fc.record({
      match: fc.constantFrom('all' as const, 'any' as const),
      rules: fc.array(rule, { maxLength: 4 }),
    });
    const type = fc.constantFrom(
      'text',
      'number',
      'date',
      'select',
      'radio',
      'checkboxes',
      'checkbox',
      'consent',
      'hidden',
      'file',
      'heading',
    );
    const options = fc.array(fc.record({ value: fc.string(), label: fc.string() }), { maxLength: 4 });
    fc.assert(
      fc.property(fc.tuple(type, options, cond, type, options, cond, type, options, cond), (t) => {
        const fields: DeliveredField[] = ['a', 'b', 'c'].map((key, i) => ({
          key,
          type: t[i * 3] as DeliveredField['type'],
          label: key,
          options: t[i * 3 + 1] as { value: string; label: string }[],
          ...(i > 0 ? { showIf: t[i * 3 + 2] as Condition } : {}),
        }));
        const html = renderForm(form(fields), OPTS);
        const css = noScriptConditions(form(fields), 'p', () => undefined).css;
        expect(css).not.toMatch(/[<>]/);
        expect(html.match(/<\/style>/g)?.length ?? 0).toBeLessThanOrEqual(1);
      }),
      { numRuns: Number(process.env['FOLIO_FUZZ_RUNS'] ?? 300) },
    );
  });
});

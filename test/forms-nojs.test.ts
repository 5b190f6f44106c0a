import { describe, expect, it } from 'vitest';
import type { DeliveredField } from '../client/src/forms/definition.js';
import { renderForm } from '../src/forms/render/render.js';
import { OPTS, form, parse } from './helpers/render-html.js';

// What needs JavaScript (file uploads, Turnstile) renders, without it, a note in place of the
// inputs that cannot work; never a required input that can never be sent. The enhancer turns them on
// (test/e2e/forms.e2e.test.ts with JavaScript on).

const name: DeliveredField = { key: 'name', type: 'text', label: 'Name', required: true };
const cv = (required: boolean): DeliveredField => ({ key: 'cv', type: 'file', label: 'CV', required });

function rendered(fields: DeliveredField[], extra: Parameters<typeof form>[1] = {}) {
  const h = parse(renderForm(form(fields, extra), OPTS));
  const submit = h.tag('button').find((b) => h.attr(b, 'type') === 'submit');
  const notes = h.all.filter((e) => h.attr(e, 'data-folio-nojs') !== undefined).map(h.text);
  return { h, submit, notes };
}

describe('a form without JavaScript', () => {
  it('turns an optional file field into a note and leaves the rest of the form sendable', () => {
    const { h, submit, notes } = rendered([name, cv(false)]);
    const input = h.byId('folio-all-f-cv');
    expect([h.attr(input, 'disabled'), h.attr(input, 'hidden')]).toEqual(['', '']);
    expect(h.attr(input, 'data-folio-needs-js')).toBeDefined();
    expect(notes).toEqual(['Attaching files needs JavaScript. Please turn JavaScript on to attach a file.']);
    expect(submit && [h.attr(submit, 'disabled'), h.attr(submit, 'hidden')]).toEqual([undefined, undefined]);
  });

  it('says a form with a required file cannot be sent without JavaScript, in place of its button', () => {
    const { submit, notes, h } = rendered([name, cv(true)], { locale: 'de' });
    expect(submit && [h.attr(submit, 'disabled'), h.attr(submit, 'hidden')]).toEqual(['', '']);
    expect(notes).toContain(
      'Dieses Formular braucht JavaScript zum Senden. Bitte schalten Sie es ein oder kontaktieren Sie uns auf anderem Weg.',
    );
  });

  it('says a Turnstile form needs JavaScript for its spam check, and shows no button', () => {
    const { submit, notes, h } = rendered([name], { turnstile: true, turnstileSiteKey: 'site-key' });
    expect(submit && h.attr(submit, 'hidden')).toBe('');
    expect(notes).toEqual([
      'This form needs JavaScript for its spam check. Please turn JavaScript on to send it.',
    ]);
    expect(h.tag('noscript')).toHaveLength(0);
  });

  it('renders a plain form without any note', () => {
    expect(rendered([name]).notes).toEqual([]);
  });
});

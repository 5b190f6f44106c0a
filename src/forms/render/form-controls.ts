// The fixed parts of a rendered form around its fields: hidden inputs, the spam trap, the Turnstile widget and the
// submit button with its no-JavaScript note. Pure and browser-safe, like render.ts.

import { DEFAULT_HONEYPOT } from '../rules/index.js';
import type { DeliveredForm } from '../definition/deliver.js';
import { attrs, el, escapeHtml } from './html.js';
import { DATA, ids } from './ids.js';
import { type Messages, text } from './messages.js';

export function hiddenInput(name: string, value: string | undefined): string {
  return value === undefined ? '' : `<input${attrs({ type: 'hidden', name, value })}>`;
}

/** The spam trap (spec 3.2): out of sight and out of the tab order, hidden from assistive technology. */
export function honeypotHtml(form: DeliveredForm, prefix: string, messages: Messages | undefined): string {
  const id = ids.honeypot(prefix);
  // Inline style, so the trap stays out of sight without the site's CSS (a strict style-src CSP needs a class rule).
  return el(
    'div',
    {
      class: 'folio-hp',
      'aria-hidden': 'true',
      style: 'position:absolute;left:-10000px;top:auto;width:1px;height:1px;overflow:hidden',
    },
    el('label', { for: id }, escapeHtml(text('honeypot', messages))) +
      `<input${attrs({ type: 'text', id, name: form.honeypot || DEFAULT_HONEYPOT, value: '', tabindex: -1, autocomplete: 'off' })}>`,
  );
}

export function turnstileHtml(form: DeliveredForm): string {
  if (!form.turnstile || !form.turnstileSiteKey) return '';
  // `cf-turnstile` also lets Cloudflare's own script render it implicitly on pages without the enhancer.
  return el('div', {
    class: 'cf-turnstile folio-turnstile',
    'data-sitekey': form.turnstileSiteKey,
    [DATA.turnstile]: true,
  });
}

/**
 * A form that cannot be sent without JavaScript (Turnstile's token, or a required file) renders, in place of its
 * submit button, a note saying so; the button is there, disabled and hidden, for the enhancer to turn on
 * (no dead ends).
 */
export function actionsHtml(form: DeliveredForm, messages: Messages): string {
  const needsJs = form.turnstile || form.fields.some((f) => f.type === 'file' && f.required === true);
  const button = el(
    'button',
    {
      type: 'submit',
      class: 'folio-submit',
      ...(needsJs ? { disabled: true, hidden: true, [DATA.needsJs]: true } : {}),
    },
    escapeHtml(text('submit', messages)),
  );
  const note = needsJs
    ? el(
        'p',
        { class: 'folio-nojs', role: 'note', [DATA.noJs]: true },
        escapeHtml(text(form.turnstile ? 'turnstileNoScript' : 'formNoScript', messages)),
      )
    : '';
  return el('div', { class: 'folio-actions', [DATA.actions]: true }, note + button);
}

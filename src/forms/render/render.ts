// renderForm: a delivered form (spec 2.9) as HTML that works with no JavaScript at all — a plain POST to the
// submissions endpoint with the public token in the action URL (spec 4.4, 5 rule 4), `_redirect`/`_redirect_error`
// for the answer, the `?error=<code>` of a failed post shown at the top, conditions decided by CSS or said in
// words — and that the enhancer (client/src/forms/enhance.ts) picks up from its data attributes and the embedded
// definition. Pure and browser-safe: sites render with it, and so does Folio's own page for a failed post.

import {
  MAX_LENGTH,
  type SpaceLocale,
  fallbackChain,
  labelled,
  maxFilesOf,
  resolveDateBound,
} from '../rules/index.js';
import type { DeliveredField, DeliveredForm } from '../definition/deliver.js';
import { conditionWords } from './condition-words.js';
import { noScriptConditions } from './conditions-css.js';
import { el, escapeHtml, jsonForScript } from './html.js';
import { DATA, formPrefix, ids } from './ids.js';
import { type Messages, formErrorMessage, messageFor, resolveMessages, variantOf } from './messages.js';
import { actionsHtml, hiddenInput, honeypotHtml, turnstileHtml } from './form-controls.js';
import { type FieldError, type PrefillValue, renderField } from './render-field.js';

export interface RenderOptions {
  /** Folio's address, e.g. `https://folio.example.com` (no `/v1`) */
  baseUrl: string;
  spaceId: string;
  /** a public token: it is written into the action URL (spec 5 rule 4); preview tokens are refused */
  token: string;
  /** `_redirect`: where the browser goes after a plain post succeeded (on one of the token's origins) */
  redirect?: string;
  /** `_redirect_error`: where a failed plain post returns, with `?error=<code>` (usually this page) */
  redirectError?: string;
  /** `_page`: the page the form is on; the server falls back to the Referer */
  page?: string;
  /** the `error` query parameter a failed plain post came back with (readFormError) */
  error?: string | null;
  /** seconds to wait, for `rate_limited` (the answer's Retry-After) */
  retryAfter?: number;
  /** field errors, when the site has them (e.g. from a JSON answer it proxied): key → code and params */
  fieldErrors?: Readonly<Record<string, FieldError>>;
  /** values to show in the controls (`true` ticks a checkbox) */
  values?: Readonly<Record<string, PrefillValue>>;
  /** the page's query, for hidden fields with `fromQuery` */
  query?: URLSearchParams | Readonly<Record<string, string>>;
  /**
   * the space's locales as GET /status delivers them: the form's locale is followed along their fallbacks to the
   * first language Folio ships words for (en, de, fr, it, es); without them, the form's locale, then English
   */
  locales?: readonly SpaceLocale[];
  /** overrides of the shipped messages and UI words by code or key (messages.ts), e.g. a site's own wording */
  messages?: Messages;
  /** ids are `<idPrefix>-f-<key>`; default `folio-<form key>` (set it when one form shows twice on a page) */
  idPrefix?: string;
  /** level of `heading` fields; default 3 */
  headingLevel?: 2 | 3 | 4 | 5 | 6;
  /** the space's time zone (GET /status), to resolve `today` in date bounds as the server does */
  timeZone?: string;
  now?: Date;
  /** false: `novalidate`, so the server's checks and messages are the only ones (default true) */
  nativeValidation?: boolean;
  /** where the enhancer loads Turnstile from (default Cloudflare's api.js) */
  turnstileScriptUrl?: string;
  /**
   * The CSP nonce of the `<style>` that hides conditional fields without JavaScript (a page whose `style-src`
   * names nonces); `inlineStyle: false` leaves the element out, and the site puts `formStyle()` in its stylesheet.
   */
  styleNonce?: string;
  inlineStyle?: boolean;
  /**
   * Who shows the errors of a failed plain post: `site` (default; `_redirect_error`, or Folio's own page without
   * it), `folio` (always Folio's own page: the form again with errors and values) or `folio-without-js` (Folio's
   * page when the form was posted without JavaScript: for static pages, which cannot read a draft without it).
   */
  errorPage?: 'site' | 'folio' | 'folio-without-js';
}

/** The configuration the enhancer reads back from the form (config.ts). */
export interface EmbeddedConfig {
  form: DeliveredForm;
  prefix: string;
  /** the form's locale and its fallbacks: the enhancer picks the same catalog */
  localeChain?: string[];
  /** the site's overrides only (the catalog is chosen again from `localeChain`) */
  messages?: Messages;
  timeZone?: string;
  turnstileScriptUrl?: string;
}

/** spec 4.4 + 5 rule 4: the submissions endpoint with the public token in its query. */
export function submitUrl(
  form: Pick<DeliveredForm, 'key'>,
  opts: Pick<RenderOptions, 'baseUrl' | 'spaceId' | 'token'>,
): string {
  // Preview tokens in URLs are refused by the server (401) and must stay server-side (spec 5).
  if (/^[a-z]+_prv_/.test(opts.token))
    throw new Error('renderForm needs a public token: preview tokens never go into a page.');
  const base = opts.baseUrl.replace(/\/+$/, '');
  return `${base}/v1/${encodeURIComponent(opts.spaceId)}/forms/${encodeURIComponent(form.key)}/submissions?token=${encodeURIComponent(opts.token)}`;
}

/**
 * The `error` a failed plain post came back with (spec 4.4: `?error=<code>`): a code-shaped value, or null. Any
 * other text is ignored rather than echoed, so a crafted link cannot put words into the page.
 */
export function readFormError(query: URLSearchParams | string): string | null {
  const params = typeof query === 'string' ? new URLSearchParams(query) : query;
  const code = params.get('error');
  return code !== null && /^[a-z_]{1,64}$/.test(code) ? code : null;
}

/** Closed, scheduled and full forms are delivered so sites can show why (spec 3.1). */
const STATUS_CODES = { closed: 'form_closed', scheduled: 'form_not_open', full: 'form_full' } as const;

/** The success message in place of the form (for the page a plain post's `_redirect` leads to). */
export function renderSuccess(form: Pick<DeliveredForm, 'key' | 'successMessage'>): string {
  return el(
    'div',
    { class: 'folio-form folio-form--sent', role: 'status', [DATA.form]: form.key },
    el('p', {}, escapeHtml(form.successMessage)),
  );
}

function alertHtml(
  form: DeliveredForm,
  opts: RenderOptions,
  messages: Messages,
  prefix: string,
  fieldsByKey: ReadonlyMap<string, DeliveredField>,
): string {
  const fieldErrors = Object.entries(opts.fieldErrors ?? {})
    .filter(([key]) => fieldsByKey.has(key))
    .map(([key, e]): [string, FieldError] => [key, withParams(fieldsByKey.get(key), e, opts)]);
  const code = opts.error ?? (fieldErrors.length > 0 ? 'validation_failed' : null);
  let content = '';
  if (code !== null) {
    // Only answers that would not be sent: the summary says so rather than "missing or not valid".
    const notSent =
      code === 'validation_failed' &&
      fieldErrors.length > 0 &&
      fieldErrors.every(([, e]) => e.code === 'not_applicable');
    const message = notSent
      ? messageFor(code, { variant: 'not_applicable', messages })
      : formErrorMessage(form, code, messages, opts.retryAfter ?? null);
    content = el('p', {}, escapeHtml(message));
    if (fieldErrors.length > 0) {
      const items = fieldErrors.map(([key, e]) => {
        const field = fieldsByKey.get(key);
        const target =
          field?.type === 'radio' || field?.type === 'checkboxes'
            ? ids.option(prefix, key, 0)
            : ids.control(prefix, key);
        const message = messageFor(e.code, {
          params: e.params,
          variant: variantOf(field?.type),
          messages,
        });
        return el(
          'li',
          {},
          el('a', { href: `#${target}` }, escapeHtml(labelled(field?.label ?? key, message))),
        );
      });
      content += el('ul', { class: 'folio-error-list' }, items.join(''));
    }
  }
  // Always present, so the enhancer's later messages are announced by a live region that already exists.
  return el(
    'div',
    { class: 'folio-alert', id: ids.alert(prefix), role: 'alert', tabindex: -1, [DATA.alert]: true },
    content,
  );
}

/**
 * A field error's params where the error came without them (`fields=<key>:<code>` of an error redirect carries
 * codes only): the bounds are the field's own, as the server checked them.
 */
function withParams(field: DeliveredField | undefined, e: FieldError, opts: RenderOptions): FieldError {
  if (field === undefined || (e.params !== undefined && Object.keys(e.params).length > 0)) return e;
  const p: Record<string, string | number | undefined> = {};
  const date = field.type === 'date';
  switch (e.code) {
    case 'too_short':
      p['min'] = field.minLength;
      break;
    case 'too_long':
      p['max'] = field.maxLength ?? MAX_LENGTH[field.type];
      break;
    case 'too_small':
    case 'too_few':
      p['min'] = date ? dateBound(field.minDate, opts) : field.min;
      break;
    case 'too_large':
      p['max'] = date ? dateBound(field.maxDate, opts) : field.max;
      break;
    case 'too_many':
      p['max'] = field.type === 'file' ? maxFilesOf(field) : field.max;
      break;
    case 'invalid_step':
      p['step'] = field.step;
      break;
    case 'file_type':
      p['accept'] = (field.accept ?? []).join(', ');
      break;
    case 'file_too_large':
      p['max'] = field.maxSize;
      break;
  }
  const params: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(p)) if (v !== undefined) params[k] = v;
  return Object.keys(params).length > 0 ? { ...e, params } : e;
}

function prefillOf(
  field: DeliveredField,
  opts: Pick<RenderOptions, 'values' | 'query'>,
): PrefillValue | undefined {
  const values = opts.values;
  if (values !== undefined && Object.hasOwn(values, field.key)) return values[field.key];
  if (field.type === 'hidden' && field.fromQuery !== undefined && opts.query !== undefined) {
    const q = opts.query;
    const v =
      q instanceof URLSearchParams
        ? q.get(field.fromQuery)
        : Object.hasOwn(q, field.fromQuery)
          ? q[field.fromQuery]
          : undefined;
    return v ?? undefined;
  }
  return undefined;
}

function dateBound(bound: string | undefined, opts: RenderOptions): string | undefined {
  if (bound === undefined) return undefined;
  if (bound !== 'today') return bound;
  // Without the space's time zone `today` could be a day off; the server checks it anyway.
  return opts.timeZone === undefined
    ? undefined
    : resolveDateBound(bound, opts.timeZone, opts.now ?? new Date());
}

/** Sections start steps (spec 2.10); fields before the first section form a step of their own. */
function renderBody(
  form: DeliveredForm,
  opts: RenderOptions,
  prefix: string,
  field: (f: DeliveredField) => string,
): string {
  if (!form.fields.some((f) => f.type === 'section')) return form.fields.map(field).join('');
  const steps: { section: DeliveredField | null; html: string }[] = [];
  for (const f of form.fields) {
    if (f.type === 'section') steps.push({ section: f, html: '' });
    else {
      if (steps.length === 0) steps.push({ section: null, html: '' });
      const last = steps[steps.length - 1];
      if (last) last.html += field(f);
    }
  }
  return steps
    .map(({ section, html }, i) => {
      if (!section) return el('div', { class: 'folio-step', [DATA.step]: i }, html);
      const legend = el(
        'legend',
        { class: 'folio-step-title', [DATA.field]: section.key, [DATA.type]: 'section' },
        escapeHtml(section.label ?? ''),
      );
      const help = section.help ? el('p', { class: 'folio-help' }, escapeHtml(section.help)) : '';
      return el('fieldset', { class: 'folio-step', [DATA.step]: i }, legend + help + html);
    })
    .join('');
}

/** `_error_page=folio`; inside `<noscript>` for `folio-without-js`, so only a post without JavaScript carries it. */
function errorPageInput(errorPage: RenderOptions['errorPage']): string {
  if (errorPage === 'folio') return hiddenInput('_error_page', 'folio');
  if (errorPage === 'folio-without-js') return el('noscript', {}, hiddenInput('_error_page', 'folio'));
  return '';
}

/**
 * `_drop=<key>` for each answer the visitor was told will not be sent (`not_applicable`): posted again, the form
 * goes without them instead of being refused a second time.
 */
function dropInputs(opts: RenderOptions, fieldsByKey: ReadonlyMap<string, DeliveredField>): string {
  return Object.entries(opts.fieldErrors ?? {})
    .filter(([key, e]) => e.code === 'not_applicable' && fieldsByKey.has(key))
    .map(([key]) => hiddenInput('_drop', key))
    .join('');
}

/**
 * The CSS that hides conditional fields until their conditions hold, for pages without JavaScript ('' when the
 * form has no condition CSS can decide): for a site that puts it in its own stylesheet (`inlineStyle: false`).
 */
export function formStyle(
  form: DeliveredForm,
  opts: Pick<RenderOptions, 'idPrefix' | 'values' | 'query'>,
): string {
  const prefix = formPrefix(form.key, opts.idPrefix);
  return noScriptConditions(form, prefix, (f) => prefillOf(f, opts)).css;
}

/** The form as HTML; a form that is not open renders its closed message instead (spec 3.1). */
export function renderForm(form: DeliveredForm, opts: RenderOptions): string {
  const prefix = formPrefix(form.key, opts.idPrefix);
  const localeChain = fallbackChain(form.locale, opts.locales);
  const messages = resolveMessages(localeChain, opts.messages);
  if (form.status !== 'open') {
    const message = formErrorMessage(form, STATUS_CODES[form.status], messages);
    return el(
      'div',
      { class: 'folio-form folio-form--closed', id: prefix, role: 'status', [DATA.form]: form.key },
      el('p', {}, escapeHtml(message)),
    );
  }
  const fieldsByKey = new Map(form.fields.map((f) => [f.key, f]));
  const headingLevel = Math.min(6, Math.max(2, opts.headingLevel ?? 3));
  const conditions = noScriptConditions(form, prefix, (f) => prefillOf(f, opts));
  const field = (f: DeliveredField): string => {
    const error =
      opts.fieldErrors !== undefined && Object.hasOwn(opts.fieldErrors, f.key)
        ? withParams(f, opts.fieldErrors[f.key] ?? { code: 'error' }, opts)
        : undefined;
    // In words where CSS cannot decide, and beside an answer that would not be sent (it says why).
    const when =
      f.showIf !== undefined && (conditions.undecided.has(f.key) || error?.code === 'not_applicable')
        ? conditionWords(f.showIf, fieldsByKey, messages)
        : undefined;
    return renderField(f, {
      prefix,
      messages,
      value: prefillOf(f, opts),
      error,
      headingLevel,
      dateMin: f.type === 'date' ? dateBound(f.minDate, opts) : undefined,
      dateMax: f.type === 'date' ? dateBound(f.maxDate, opts) : undefined,
      when,
      needsPlaceholder: conditions.placeholders.has(f.key),
    });
  };
  const style =
    conditions.css !== '' && opts.inlineStyle !== false
      ? el('style', { nonce: opts.styleNonce }, conditions.css)
      : '';
  const config: EmbeddedConfig = {
    form,
    prefix,
    localeChain,
    ...(opts.messages ? { messages: opts.messages } : {}),
    ...(opts.timeZone ? { timeZone: opts.timeZone } : {}),
    ...(opts.turnstileScriptUrl ? { turnstileScriptUrl: opts.turnstileScriptUrl } : {}),
  };
  const formAttrs = {
    class: 'folio-form',
    id: prefix,
    method: 'post',
    action: submitUrl(form, opts),
    'accept-charset': 'utf-8',
    lang: form.locale,
    novalidate: opts.nativeValidation === false,
    [DATA.form]: form.key,
  };
  return el(
    'form',
    formAttrs,
    style +
      el('script', { type: 'application/json', [DATA.config]: true }, jsonForScript(config)) +
      alertHtml(form, opts, messages, prefix, fieldsByKey) +
      el('div', { class: 'folio-status', id: ids.status(prefix), role: 'status', [DATA.status]: true }) +
      renderBody(form, opts, prefix, field) +
      hiddenInput('_locale', form.locale) +
      hiddenInput('_redirect', opts.redirect) +
      hiddenInput('_redirect_error', opts.redirectError) +
      hiddenInput('_page', opts.page) +
      errorPageInput(opts.errorPage) +
      dropInputs(opts, fieldsByKey) +
      honeypotHtml(form, prefix, messages) +
      turnstileHtml(form) +
      actionsHtml(form, messages),
  );
}

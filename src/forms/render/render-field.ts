// One field of a delivered form as accessible HTML that works without JavaScript (spec 2.10): a native control
// with its constraints, a label, help and an error slot wired with aria-describedby, choice groups as fieldsets.

import { type FieldErrorCode, type FieldErrorParams, MAX_LENGTH, maxFilesOf } from '../rules/index.js';
import type { DeliveredField } from '../definition/deliver.js';
import { type AttrValue, attrs, el, escapeHtml, safeHttpUrl } from './html.js';
import { DATA, ids } from './ids.js';
import { type Messages, messageFor, text, variantOf } from './messages.js';

export type PrefillValue = string | readonly string[] | boolean;

/**
 * A field's problem as renderForm takes it: the code (spec 7.4) and its params. The client's `FieldError` (what
 * `FolioApiError.fields` holds) has this shape, so an answer's errors go to the form unchanged.
 */
export interface FieldError {
  code: FieldErrorCode | (string & {});
  /** English, from the server; the renderer words errors by code and does not need it. */
  message?: string;
  params?: FieldErrorParams;
}

export interface FieldContext {
  prefix: string;
  messages: Messages | undefined;
  value: PrefillValue | undefined;
  error: FieldError | undefined;
  headingLevel: number;
  /** minDate/maxDate resolved to dates; `today` is left out when the space's time zone is unknown */
  dateMin: string | undefined;
  dateMax: string | undefined;
  /** when the field applies, in words (a condition CSS cannot decide without JavaScript, or a value not sent) */
  when?: string | undefined;
  /** a text-like control whose emptiness a condition reads: it needs a placeholder (conditions-css.ts) */
  needsPlaceholder?: boolean;
}

// The server's phone check (field-checks.ts isTel) as an HTML pattern; the digit count (5–20) it also checks
// has no pattern spelling. Written for the `v` flag browsers compile patterns with: class punctuation escaped.
export const TEL_PATTERN = '\\+?[0-9 \\(\\)\\.\\-]+';

/** `autocomplete` tokens the field type or a well-known key implies (WCAG 1.3.5, identify input purpose). */
const BY_KEY: Readonly<Record<string, string>> = {
  name: 'name',
  fullname: 'name',
  firstname: 'given-name',
  givenname: 'given-name',
  lastname: 'family-name',
  familyname: 'family-name',
  surname: 'family-name',
  company: 'organization',
  organization: 'organization',
  organisation: 'organization',
  phone: 'tel',
  street: 'street-address',
  address: 'street-address',
  zip: 'postal-code',
  postcode: 'postal-code',
  postalcode: 'postal-code',
  city: 'address-level2',
  country: 'country',
};

export function autocompleteFor(field: DeliveredField): string | undefined {
  if (field.type === 'email' || field.type === 'tel' || field.type === 'url') return field.type;
  if (field.type !== 'text' && field.type !== 'select') return undefined;
  const token = BY_KEY[field.key.toLowerCase().replace(/[-_]/g, '')];
  // A select holds codes (`ch`), a text field the name of the country.
  return token === 'country' && field.type === 'text' ? 'country-name' : token;
}

/** spec 2.10: consent is always required. */
export function isRequired(field: DeliveredField): boolean {
  return field.type === 'consent' || field.required === true;
}

/**
 * The native `required` attribute. Not on fields with a showIf: without JavaScript every field shows, and a
 * required-when-shown field would block a form the server accepts (it skips hidden fields, spec 2.11).
 */
function nativeRequired(field: DeliveredField): boolean {
  return isRequired(field) && field.showIf === undefined;
}

function labelText(field: DeliveredField, ctx: FieldContext): string {
  const mark = isRequired(field)
    ? ` <span class="folio-required" aria-hidden="true">${escapeHtml(text('requiredMark', ctx.messages))}</span>`
    : '';
  return `${escapeHtml(field.label ?? field.key)}${mark}`;
}

function helpHtml(field: DeliveredField, ctx: FieldContext): string {
  return field.help
    ? el('p', { class: 'folio-help', id: ids.help(ctx.prefix, field.key) }, escapeHtml(field.help))
    : '';
}

/** The condition in words, for visitors without JavaScript (the enhancer removes it and decides itself). */
function whenHtml(field: DeliveredField, ctx: FieldContext): string {
  if (ctx.when === undefined) return '';
  return el(
    'p',
    { class: 'folio-help folio-when', id: ids.when(ctx.prefix, field.key), [DATA.noJs]: true },
    escapeHtml(ctx.when),
  );
}

function errorHtml(field: DeliveredField, ctx: FieldContext): string {
  const e = ctx.error;
  const message = e
    ? messageFor(e.code, { params: e.params, variant: variantOf(field.type), messages: ctx.messages })
    : '';
  return el(
    'p',
    {
      class: 'folio-error',
      id: ids.error(ctx.prefix, field.key),
      [DATA.error]: true,
      [DATA.code]: e?.code,
      hidden: !e,
    },
    escapeHtml(message),
  );
}

/** aria-describedby: the help, the condition in words, and the error while there is one. */
function describedBy(field: DeliveredField, ctx: FieldContext): string | undefined {
  const list = [
    field.help ? ids.help(ctx.prefix, field.key) : '',
    ctx.when !== undefined ? ids.when(ctx.prefix, field.key) : '',
    ctx.error ? ids.error(ctx.prefix, field.key) : '',
  ];
  return list.filter(Boolean).join(' ') || undefined;
}

function wrapperAttrs(
  field: DeliveredField,
  extra: Record<string, AttrValue> = {},
): Record<string, AttrValue> {
  const classes = ['folio-field', `folio-field--${field.type}`];
  if (field.width === 'half') classes.push('folio-field--half');
  return { class: classes.join(' '), [DATA.field]: field.key, [DATA.type]: field.type, ...extra };
}

const scalarOf = (v: PrefillValue | undefined): string | undefined =>
  typeof v === 'string' ? v : Array.isArray(v) ? v[0] : undefined;
const isTicked = (v: PrefillValue | undefined, value: string): boolean =>
  v === true ? value === 'true' : typeof v === 'string' ? v === value : Array.isArray(v) && v.includes(value);

function controlAttrs(field: DeliveredField, ctx: FieldContext): Record<string, AttrValue> {
  const common = {
    id: ids.control(ctx.prefix, field.key),
    name: field.key,
    required: nativeRequired(field),
    // Required once shown: said to assistive technology without blocking a plain post (nativeRequired).
    'aria-required': isRequired(field) && !nativeRequired(field) ? 'true' : undefined,
    // A blank placeholder where a condition reads the control's emptiness and the field has none of its own.
    placeholder: field.placeholder ?? (ctx.needsPlaceholder === true ? ' ' : undefined),
    autocomplete: autocompleteFor(field),
    'aria-describedby': describedBy(field, ctx),
    'aria-invalid': ctx.error ? 'true' : undefined,
  };
  const length = { minlength: field.minLength, maxlength: field.maxLength ?? MAX_LENGTH[field.type] };
  switch (field.type) {
    case 'text':
      return { type: 'text', ...common, ...length };
    case 'email':
    case 'url':
      return { type: field.type, ...common };
    case 'tel':
      return { type: 'tel', ...common, pattern: TEL_PATTERN };
    case 'number':
      // No step means any number (field-checks.ts), unlike HTML's default step of 1.
      return { type: 'number', ...common, min: field.min, max: field.max, step: field.step ?? 'any' };
    case 'date':
      return { type: 'date', ...common, min: ctx.dateMin, max: ctx.dateMax };
    case 'time':
      return { type: 'time', ...common };
    default:
      return common;
  }
}

function inputField(field: DeliveredField, ctx: FieldContext): string {
  const id = ids.control(ctx.prefix, field.key);
  const control =
    field.type === 'textarea'
      ? el(
          'textarea',
          {
            ...controlAttrs(field, ctx),
            rows: 5,
            minlength: field.minLength,
            maxlength: field.maxLength ?? MAX_LENGTH.textarea,
          },
          // HTML drops a newline right after <textarea>: this one, so a value's own first newline survives.
          `\n${escapeHtml(scalarOf(ctx.value) ?? '')}`,
        )
      : `<input${attrs({ ...controlAttrs(field, ctx), value: scalarOf(ctx.value) })}>`;
  return labelledField(field, ctx, id, control);
}

function selectField(field: DeliveredField, ctx: FieldContext): string {
  const chosen = scalarOf(ctx.value);
  const options =
    el('option', { value: '' }, escapeHtml(text('choose', ctx.messages))) +
    (field.options ?? [])
      .map((o) => el('option', { value: o.value, selected: o.value === chosen }, escapeHtml(o.label)))
      .join('');
  const id = ids.control(ctx.prefix, field.key);
  return labelledField(field, ctx, id, el('select', controlAttrs(field, ctx), options));
}

/** radio and checkboxes: a fieldset whose legend is the label (WCAG 1.3.1); the description sits on the group. */
function groupField(field: DeliveredField, ctx: FieldContext): string {
  const type = field.type === 'radio' ? 'radio' : 'checkbox';
  const options = (field.options ?? [])
    .map((o, i) => {
      const id = ids.option(ctx.prefix, field.key, i);
      const input = `<input${attrs({
        type,
        id,
        name: field.key,
        value: o.value,
        // A checkbox group has no native "at least one"; radios share one required.
        required: type === 'radio' && nativeRequired(field),
        checked: isTicked(ctx.value, o.value),
        'aria-invalid': ctx.error ? 'true' : undefined,
      })}>`;
      return el('div', { class: 'folio-option' }, input + el('label', { for: id }, escapeHtml(o.label)));
    })
    .join('');
  return el(
    'fieldset',
    wrapperAttrs(field, { 'aria-describedby': describedBy(field, ctx) }),
    el('legend', { class: 'folio-label' }, labelText(field, ctx)) +
      helpHtml(field, ctx) +
      whenHtml(field, ctx) +
      el('div', { class: 'folio-options' }, options) +
      errorHtml(field, ctx),
  );
}

/** checkbox and consent: the box, then its label (and the consent link, outside the label so it stays a link). */
function boxField(field: DeliveredField, ctx: FieldContext): string {
  const id = ids.control(ctx.prefix, field.key);
  const input = `<input${attrs({ ...controlAttrs(field, ctx), type: 'checkbox', value: 'true', checked: isTicked(ctx.value, 'true') || ctx.value === 'on' })}>`;
  const href = field.link ? safeHttpUrl(field.link.url) : null;
  const link =
    field.link && href
      ? ' ' +
        el(
          'a',
          { class: 'folio-consent-link', href, target: '_blank', rel: 'noopener noreferrer' },
          escapeHtml(field.link.label),
        )
      : '';
  return el(
    'div',
    wrapperAttrs(field),
    el('div', { class: 'folio-option' }, input + el('label', { for: id }, labelText(field, ctx)) + link) +
      helpHtml(field, ctx) +
      whenHtml(field, ctx) +
      errorHtml(field, ctx),
  );
}

/**
 * File inputs have no `name`: without JavaScript a plain post would send the file's name as the value (spec 4.4:
 * "File fields need JavaScript (upload first, then submit the id)"); the enhancer uploads and sends the ids. So
 * without JavaScript the input is disabled and hidden, never a required input that cannot be sent, and a note
 * says why in its place; the enhancer removes the note and turns the input on.
 */
function fileField(field: DeliveredField, ctx: FieldContext): string {
  const id = ids.control(ctx.prefix, field.key);
  const input = `<input${attrs({
    type: 'file',
    id,
    disabled: true,
    hidden: true,
    [DATA.needsJs]: true,
    required: nativeRequired(field),
    multiple: maxFilesOf(field) > 1,
    accept: field.accept && field.accept.length > 0 ? field.accept.join(',') : undefined,
    'aria-describedby': describedBy(field, ctx),
    'aria-invalid': ctx.error ? 'true' : undefined,
  })}>`;
  const noScript = el(
    'p',
    { class: 'folio-help folio-nojs', [DATA.noJs]: true },
    escapeHtml(text('fileNoScript', ctx.messages)),
  );
  return labelledField(field, ctx, id, input + noScript);
}

export function renderField(field: DeliveredField, ctx: FieldContext): string {
  switch (field.type) {
    case 'text':
    case 'textarea':
    case 'email':
    case 'tel':
    case 'url':
    case 'number':
    case 'date':
    case 'time':
      return inputField(field, ctx);
    case 'select':
      return selectField(field, ctx);
    case 'radio':
    case 'checkboxes':
      return groupField(field, ctx);
    case 'checkbox':
    case 'consent':
      return boxField(field, ctx);
    case 'file':
      return fileField(field, ctx);
    case 'hidden':
      return `<input${attrs({ type: 'hidden', name: field.key, value: scalarOf(ctx.value) ?? field.defaultValue ?? '', [DATA.field]: field.key, [DATA.type]: 'hidden', [DATA.fromQuery]: field.fromQuery })}>`;
    case 'heading': {
      const tag = `h${ctx.headingLevel}`;
      return el(
        tag,
        { class: 'folio-heading', [DATA.field]: field.key, [DATA.type]: 'heading' },
        escapeHtml(field.label ?? ''),
      );
    }
    case 'paragraph':
      return el(
        'p',
        { class: 'folio-paragraph', [DATA.field]: field.key, [DATA.type]: 'paragraph' },
        escapeHtml(field.label ?? ''),
      );
    default:
      // sections become steps (render.ts)
      return '';
  }
}

/** A field with its own label: label, help, when it applies, the control, its error, in the field's wrapper. */
function labelledField(field: DeliveredField, ctx: FieldContext, id: string, control: string): string {
  return el(
    'div',
    wrapperAttrs(field),
    el('label', { for: id, class: 'folio-label' }, labelText(field, ctx)) +
      helpHtml(field, ctx) +
      whenHtml(field, ctx) +
      control +
      errorHtml(field, ctx),
  );
}

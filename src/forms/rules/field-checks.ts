// Format and bounds checks of one coerced field value (spec 2.10 settings, spec 7.4 codes). Each field
// gets at most one error: the first that applies in the order shape → format → bounds.

import { fieldError } from './codes.js';
import type { FieldError } from './codes.js';
import { isValidDate, isValidTime, resolveDateBound } from './dates.js';
import { hasBidiControl } from './email.js';
import { isUploadId, maxFilesOf } from './files.js';
import { isOnStep } from './step.js';
import type { FieldType, FormField, SubmittedValue } from './types.js';

/** spec 2.10 / 8: allowed maximum lengths, also applied when the field sets no maxLength. */
export const MAX_LENGTH: Partial<Record<FieldType, number>> = { text: 500, textarea: 5000 };

/** Context a check needs to resolve `today` (spec 2.10 minDate/maxDate). */
export interface CheckContext {
  now: Date;
  timeZone: string;
}

// A practical address check, not RFC 5322: one @, no spaces, a dot in the domain, no empty labels.
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const MAX_EMAIL_LENGTH = 254;

/**
 * Also refuses bidirectional controls: they make an address display as another one, and the
 * visitor's address becomes the Reply-To of owner emails. Other invisible characters pass and are ignored when
 * addresses are compared (`normalizeEmail`).
 */
export function isEmail(text: string): boolean {
  return text.length <= MAX_EMAIL_LENGTH && EMAIL.test(text) && !hasBidiControl(text);
}

// Lenient E.164-ish: optional leading +, then digits with spaces, dashes, dots and parentheses.
const TEL = /^\+?[0-9 ().-]+$/;

export function isTel(text: string): boolean {
  if (!TEL.test(text)) return false;
  const digits = text.replace(/\D/g, '').length;
  return digits >= 5 && digits <= 20;
}

/** An absolute http(s) link with a host (the URL global exists in Node and in browsers). */
export function isHttpUrl(text: string): boolean {
  if (!/^https?:\/\//i.test(text) || /\s/.test(text)) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Length in characters (code points), so an emoji counts once. */
export function textLength(text: string): number {
  return Array.from(text).length;
}

function checkLength(field: FormField, text: string): FieldError | null {
  const length = textLength(text);
  const min = field.minLength;
  const max = field.maxLength ?? MAX_LENGTH[field.type];
  if (min !== undefined && length < min) return fieldError('too_short', { min });
  if (max !== undefined && length > max) return fieldError('too_long', { max });
  return null;
}

function checkNumber(field: FormField, n: number): FieldError | null {
  if (field.min !== undefined && n < field.min) return fieldError('too_small', { min: field.min }, 'number');
  if (field.max !== undefined && n > field.max) return fieldError('too_large', { max: field.max }, 'number');
  // No step means any number (unlike HTML's default step 1); renderers should emit step="any".
  if (field.step !== undefined && !isOnStep(n, field.step, field.min ?? 0)) {
    return fieldError('invalid_step', { step: field.step });
  }
  return null;
}

function checkDate(field: FormField, text: string, ctx: CheckContext): FieldError | null {
  if (!isValidDate(text)) return fieldError('invalid_date');
  // ISO dates compare correctly as strings.
  if (field.minDate !== undefined) {
    const min = resolveDateBound(field.minDate, ctx.timeZone, ctx.now);
    if (text < min) return fieldError('too_small', { min }, 'date');
  }
  if (field.maxDate !== undefined) {
    const max = resolveDateBound(field.maxDate, ctx.timeZone, ctx.now);
    if (text > max) return fieldError('too_large', { max }, 'date');
  }
  return null;
}

function isOption(field: FormField, value: string): boolean {
  return (field.options ?? []).some((o) => o.value === value);
}

function checkTicks(field: FormField, ticks: readonly string[]): FieldError | null {
  if (!ticks.every((v) => isOption(field, v))) return fieldError('invalid_option');
  if (field.min !== undefined && ticks.length < field.min)
    return fieldError('too_few', { min: field.min }, 'choices');
  if (field.max !== undefined && ticks.length > field.max)
    return fieldError('too_many', { max: field.max }, 'choices');
  return null;
}

function checkFiles(field: FormField, ids: readonly string[]): FieldError | null {
  const max = maxFilesOf(field);
  if (ids.length > max) return fieldError('too_many', { max }, 'files');
  if (!ids.every(isUploadId)) return fieldError('invalid_file');
  return null;
}

/** Checks a present, coerced value; the value's runtime type matches the field type (see coerce.ts). */
export function checkValue(field: FormField, value: SubmittedValue, ctx: CheckContext): FieldError | null {
  switch (field.type) {
    case 'text':
    case 'textarea':
      return checkLength(field, String(value));
    case 'email':
      return isEmail(String(value)) ? null : fieldError('invalid_email');
    case 'tel':
      return isTel(String(value)) ? null : fieldError('invalid_tel');
    case 'url':
      return isHttpUrl(String(value)) ? null : fieldError('invalid_url');
    case 'number':
      return typeof value === 'number' ? checkNumber(field, value) : fieldError('invalid_number');
    case 'date':
      return checkDate(field, String(value), ctx);
    case 'time':
      return isValidTime(String(value)) ? null : fieldError('invalid_time');
    case 'select':
    case 'radio':
      return isOption(field, String(value)) ? null : fieldError('invalid_option');
    case 'checkboxes':
      return Array.isArray(value) ? checkTicks(field, value) : fieldError('invalid_type');
    case 'consent':
      return value === true ? null : fieldError('must_be_checked');
    case 'checkbox':
      // A required single checkbox means "must be ticked", as in HTML.
      return field.required === true && value !== true ? fieldError('must_be_checked') : null;
    case 'file':
      return Array.isArray(value) ? checkFiles(field, value) : fieldError('invalid_type');
    default:
      return null;
  }
}

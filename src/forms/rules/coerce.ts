// Turning a raw submitted value (JSON types, or strings from form data) into the field's value type
// (spec 2.10 "Value" column, spec 2.13). Coercion only decides the shape; format and bounds checks
// live in field-checks.ts. Condition evaluation uses the coerced value too, so "on" from a plain HTML
// checkbox and `true` from JSON behave the same in `showIf`.

import type { FieldType, FormField, SubmittedValue } from './types.js';

export type Coerced =
  | { kind: 'missing' }
  | { kind: 'value'; value: SubmittedValue }
  | { kind: 'error'; code: 'invalid_type' | 'invalid_number' };

const MISSING: Coerced = { kind: 'missing' };
const INVALID_TYPE: Coerced = { kind: 'error', code: 'invalid_type' };

// Form data carries checkbox state as text; these are the spellings we accept (case-insensitive).
const TRUE_WORDS = new Set(['on', 'true', '1', 'yes']);
const FALSE_WORDS = new Set(['', 'off', 'false', '0', 'no']);

// A plain decimal number as typed into <input type="number">; no hex, no commas, no Infinity.
const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Trims and normalizes line breaks (browsers post textarea breaks as CRLF; lengths count LF once). */
export function normalizeText(text: string): string {
  return text.replace(/\r\n?/g, '\n').trim();
}

/** A scalar that may stand for an option value: strings, and finite numbers from JSON (a select value `1`). */
function scalarText(raw: unknown): string | null {
  if (typeof raw === 'string') return normalizeText(raw);
  if (typeof raw === 'number' && Number.isFinite(raw)) return String(raw);
  return null;
}

/**
 * spec 2.10: text, textarea, email, tel, url, hidden, date and time take a string. A JSON number is
 * `invalid_type`, not its decimal text: `42` and `4.20e1` are one number but different texts, and a client
 * sending numbers to a text field has a bug worth reporting. Form data only ever carries strings.
 */
function coerceText(raw: unknown): Coerced {
  if (typeof raw !== 'string') return INVALID_TYPE;
  const text = normalizeText(raw);
  return text === '' ? MISSING : { kind: 'value', value: text };
}

/** select and radio: one option value, matched as text. */
function coerceChoice(raw: unknown): Coerced {
  const text = scalarText(raw);
  if (text === null) return INVALID_TYPE;
  return text === '' ? MISSING : { kind: 'value', value: text };
}

function coerceNumber(raw: unknown): Coerced {
  if (typeof raw === 'number')
    return Number.isFinite(raw) ? { kind: 'value', value: raw } : { kind: 'error', code: 'invalid_number' };
  if (typeof raw !== 'string') return INVALID_TYPE;
  const text = raw.trim();
  if (text === '') return MISSING;
  const n = Number(text);
  return NUMBER_TEXT.test(text) && Number.isFinite(n)
    ? { kind: 'value', value: n }
    : { kind: 'error', code: 'invalid_number' };
}

function coerceBoolean(raw: unknown): Coerced {
  if (typeof raw === 'boolean') return { kind: 'value', value: raw };
  if (raw === 1 || raw === 0) return { kind: 'value', value: raw === 1 };
  if (typeof raw !== 'string') return INVALID_TYPE;
  const word = raw.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return { kind: 'value', value: true };
  if (FALSE_WORDS.has(word)) return { kind: 'value', value: false };
  return INVALID_TYPE;
}

/** Lists (checkboxes, multi-file): a single scalar is a one-element list; blanks and repeats are dropped. */
function coerceList(raw: unknown): Coerced {
  const items = Array.isArray(raw) ? raw : [raw];
  const out: string[] = [];
  for (const item of items) {
    const text = scalarText(item);
    if (text === null) return INVALID_TYPE;
    if (text !== '' && !out.includes(text)) out.push(text);
  }
  return out.length === 0 ? MISSING : { kind: 'value', value: out };
}

/**
 * Coerces a raw value for a field type. `undefined` and `null` are missing; so is an empty string or
 * an empty list. Arrays and objects where a scalar is needed are `invalid_type`.
 */
export function coerceValue(type: FieldType, raw: unknown): Coerced {
  if (raw === undefined || raw === null) return MISSING;
  switch (type) {
    case 'number':
      return coerceNumber(raw);
    case 'checkbox':
    case 'consent':
      return coerceBoolean(raw);
    case 'checkboxes':
    case 'file':
      return coerceList(raw);
    case 'select':
    case 'radio':
      return coerceChoice(raw);
    case 'heading':
    case 'paragraph':
    case 'section':
      return MISSING;
    default:
      return coerceText(raw);
  }
}

/**
 * The value a condition sees for a field (spec 2.11): the coerced value, or undefined when missing or
 * not coercible. An unticked checkbox is `false` (HTML forms do not send unticked boxes).
 */
export function conditionValue(type: FieldType, raw: unknown): SubmittedValue | undefined {
  const c = coerceValue(type, raw);
  if (c.kind === 'value') return c.value;
  return type === 'checkbox' && c.kind === 'missing' ? false : undefined;
}

/** spec 2.10: a hidden field's value is as sent, else its defaultValue. Other fields: the raw value. */
export function withDefault(field: Pick<FormField, 'type' | 'defaultValue'>, raw: unknown): unknown {
  if (field.type !== 'hidden' || field.defaultValue === undefined) return raw;
  const absent = raw === undefined || raw === null || (typeof raw === 'string' && normalizeText(raw) === '');
  return absent ? field.defaultValue : raw;
}

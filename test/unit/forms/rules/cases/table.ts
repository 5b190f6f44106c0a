// Shapes and builders of the submission case table (see ../cases.ts). Kept as plain data so HTTP
// tests can replay every case as a JSON body, urlencoded form data and multipart form data.

import type { FieldErrorCode, FieldErrorParams } from '../../../../../src/forms/rules/codes.js';
import type { FormEntry } from '../../../../../src/forms/rules/form-data.js';
import type {
  FieldType,
  FormDefinition,
  FormField,
  FormOption,
  FormSettings,
  SubmittedValue,
} from '../../../../../src/forms/rules/types.js';

export type CaseExpectation =
  | { ok: true; values?: Record<string, SubmittedValue> }
  | { ok: false; errors: Record<string, { code: FieldErrorCode; params?: FieldErrorParams }> };

export interface SubmissionCase {
  name: string;
  fields: FormField[];
  settings: FormSettings;
  /** shared option lists the case's `list` fields use (resolve with resolveListOptions) */
  lists: Record<string, FormOption[]>;
  /** the submission as a JSON body */
  input: Record<string, unknown>;
  /** the same submission as form-data pairs; null when only JSON can express it (objects, booleans in text) */
  formData: FormEntry[] | null;
  /** the clock and space time zone the case assumes (`today` in minDate/maxDate) */
  now: string;
  timeZone: string;
  expect: CaseExpectation;
}

export const CASE_NOW = '2026-03-15T12:00:00.000Z';
export const CASE_TIME_ZONE = 'UTC';

// Cloudflare's documented always-passing test keys: file fields require Turnstile (spec 4.4 rule 4).
export const TURNSTILE_TEST_SETTINGS: FormSettings = {
  turnstileSiteKey: '1x00000000000000000000AA',
  turnstileSecret: '1x0000000000000000000000000000000AA',
};

/** A field with key `f` unless `extra` says otherwise. */
export function field(type: FieldType, extra: Partial<FormField> = {}): FormField {
  return { key: 'f', type, label: 'Field', ...extra };
}

export function ok(values?: Record<string, SubmittedValue>): CaseExpectation {
  return values === undefined ? { ok: true } : { ok: true, values };
}

export function fails(code: FieldErrorCode, params?: FieldErrorParams, key = 'f'): CaseExpectation {
  return { ok: false, errors: { [key]: params === undefined ? { code } : { code, params } } };
}

export function failsMany(errors: Record<string, FieldErrorCode>): CaseExpectation {
  const out: Record<string, { code: FieldErrorCode }> = {};
  for (const [key, code] of Object.entries(errors)) out[key] = { code };
  return { ok: false, errors: out };
}

/**
 * Form-data pairs for a JSON input: strings as they are, numbers as decimal text, `true` as "true",
 * `false` and null left out (an unticked box is not sent), arrays as repeated names. Objects and nested
 * lists have no form-data spelling: null.
 */
export function toFormEntries(input: Record<string, unknown>): FormEntry[] | null {
  const out: FormEntry[] = [];
  const scalar = (v: unknown): string | null =>
    typeof v === 'string' ? v : typeof v === 'number' ? String(v) : v === true ? 'true' : null;
  for (const [name, value] of Object.entries(input)) {
    if (value === false || value === null || value === undefined) continue;
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) {
      const text = scalar(item);
      if (text === null) return null;
      out.push([name, text]);
    }
  }
  return out;
}

interface CaseExtra {
  formData?: FormEntry[] | null;
  now?: string;
  timeZone?: string;
  lists?: Record<string, FormOption[]>;
  settings?: FormSettings;
}

/** Builds a case; form data is derived from the JSON input unless given. */
export function tc(
  name: string,
  fields: FormField | FormField[],
  input: Record<string, unknown>,
  expect: CaseExpectation,
  extra: CaseExtra = {},
): SubmissionCase {
  const list = Array.isArray(fields) ? fields : [fields];
  const needsTurnstile = list.some((f) => f.type === 'file');
  return {
    name,
    fields: list,
    settings: { ...(needsTurnstile ? TURNSTILE_TEST_SETTINGS : {}), ...extra.settings },
    lists: extra.lists ?? {},
    input,
    formData: extra.formData !== undefined ? extra.formData : toFormEntries(input),
    now: extra.now ?? CASE_NOW,
    timeZone: extra.timeZone ?? CASE_TIME_ZONE,
    expect,
  };
}

/** The authored definition a case runs against (lists not yet resolved). */
export function caseDefinition(c: SubmissionCase): FormDefinition {
  return { key: 'case', name: c.name, fields: c.fields, settings: c.settings };
}

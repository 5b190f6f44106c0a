// Submission validation (spec 2.11, 2.13, 4.4 submission rules 1–2, 7.4). The server and the browser
// renderer run this same code, so "server-side validation applies the same rules a renderer applies"
// (spec 7.4) holds by construction.

import { fieldError } from './codes.js';
import type { FieldError } from './codes.js';
import { coerceValue, conditionValue, withDefault } from './coerce.js';
import { walkVisibility } from './conditions.js';
import { checkValue } from './field-checks.js';
import type { CheckContext } from './field-checks.js';
import { maxFilesOf } from './files.js';
import { isSubmittedType } from './types.js';
import type { FormDefinition, FormField, FormOption, SubmittedValue } from './types.js';

export type ValidateOptions = CheckContext;

export type ValidationResult =
  { ok: true; values: Record<string, SubmittedValue> } | { ok: false; errors: Record<string, FieldError> };

/** One field's outcome; `value` is undefined for an optional field left empty. */
export type FieldResult = { ok: true; value: SubmittedValue | undefined } | { ok: false; error: FieldError };

function own(raw: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.hasOwn(raw, key) ? raw[key] : undefined;
}

/**
 * Validates one raw value against its field, ignoring visibility (a renderer calls this on blur).
 * Non-submitted types (heading, paragraph, section) always pass with no value.
 */
export function validateFieldValue(field: FormField, raw: unknown, ctx: CheckContext): FieldResult {
  if (!isSubmittedType(field.type)) return { ok: true, value: undefined };
  const coerced = coerceValue(field.type, withDefault(field, raw));
  if (coerced.kind === 'error') return { ok: false, error: fieldError(coerced.code) };

  let value: SubmittedValue | undefined = coerced.kind === 'value' ? coerced.value : undefined;
  // An unticked checkbox is not sent by HTML forms; it is stored as false.
  if (value === undefined && field.type === 'checkbox') value = false;
  if (value === undefined) {
    // spec 2.10: consent is always required, and its failure says what to do.
    if (field.type === 'consent') return { ok: false, error: fieldError('must_be_checked') };
    return field.required === true
      ? { ok: false, error: fieldError('required') }
      : { ok: true, value: undefined };
  }

  const error = checkValue(field, value, ctx);
  if (error) return { ok: false, error };
  // spec 4.4: "a list of ids for multi-file fields"; a single-file field stores the one id.
  if (field.type === 'file' && Array.isArray(value) && maxFilesOf(field) === 1) value = value[0] ?? '';
  return { ok: true, value };
}

/**
 * Validates a submission (the body's fields, control keys excluded or not: keys that are not fields
 * are dropped, spec 2.13). Fields are evaluated top to bottom; a field hidden by its showIf is not
 * required and its value is dropped before later conditions read it (spec 2.11, 4.4 rule 1).
 * Choice fields that use `list` must have been resolved with resolveListOptions first.
 *
 * Outputs are prototype-less objects, so no key (`__proto__`, `constructor`) can reach a prototype.
 */
export function validateSubmission(
  def: Pick<FormDefinition, 'fields'>,
  raw: Readonly<Record<string, unknown>>,
  opts: ValidateOptions,
): ValidationResult {
  const values = Object.create(null) as Record<string, SubmittedValue>;
  const errors = Object.create(null) as Record<string, FieldError>;
  let failed = false;

  walkVisibility(
    def.fields,
    (field) => conditionValue(field.type, withDefault(field, own(raw, field.key))),
    (field, visible) => {
      if (!visible || !isSubmittedType(field.type)) return;
      const result = validateFieldValue(field, own(raw, field.key), opts);
      if (!result.ok) {
        errors[field.key] = result.error;
        failed = true;
      } else if (result.value !== undefined) {
        values[field.key] = result.value;
      }
    },
  );
  return failed ? { ok: false, errors } : { ok: true, values };
}

/**
 * Returns a copy of the definition whose choice fields using `list` carry that list's options
 * (spec 2.9: "Shared option lists are resolved into options"). An unknown list resolves to no
 * options, so every submitted value is `invalid_option`.
 */
export function resolveListOptions<T extends Pick<FormDefinition, 'fields'>>(
  def: T,
  lists: Readonly<Record<string, readonly FormOption[]>>,
): T {
  const fields = def.fields.map((field): FormField => {
    if (field.list === undefined) return field;
    const options = Object.hasOwn(lists, field.list) ? (lists[field.list] ?? []) : [];
    return { ...field, options: options.map((o) => ({ value: o.value, label: o.label })) };
  });
  return { ...def, fields };
}

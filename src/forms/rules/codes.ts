// spec 7.4: field error codes (in `details.fields`) and form-level codes. One registry, so a test can
// compare it with the spec's table both ways (STYLE rule 4).

export const FIELD_ERROR_CODES = [
  'required',
  'must_be_checked',
  'invalid_email',
  'invalid_tel',
  'invalid_url',
  'invalid_number',
  'invalid_date',
  'invalid_time',
  'invalid_option',
  'invalid_type',
  'too_short',
  'too_few',
  'too_long',
  'too_many',
  'too_small',
  'too_large',
  'invalid_step',
  'file_type',
  'file_too_large',
  'invalid_file',
  // Beyond spec 7.4: a plain HTML post holds a value for a field its conditions hide (spec 2.11 would drop it
  // unseen); the visitor is told instead, and a second post sends the form without it (docs/api.md).
  'not_applicable',
] as const;

export type FieldErrorCode = (typeof FIELD_ERROR_CODES)[number];

// spec 7.4: "also usable as ?error=<code> in redirects"; the last three are raised by renderers only.
export const FORM_ERROR_CODES = [
  'form_closed',
  'form_not_open',
  'form_full',
  'already_submitted',
  'turnstile_required',
  'turnstile_failed',
  'uploading',
  'rate_limited',
  'network_error',
] as const;

export type FormErrorCode = (typeof FORM_ERROR_CODES)[number];

export type FieldErrorParams = Record<string, string | number>;

/** spec 7.1: one entry of `details.fields`. */
export interface FieldError {
  code: FieldErrorCode;
  message: string;
  params?: FieldErrorParams;
}

/** Which wording a code gets; the code is what clients branch on, the wording only helps humans. */
export type MessageVariant = 'choices' | 'files' | 'date' | 'number';

type MessageFn = (p: FieldErrorParams, variant: MessageVariant | undefined) => string;

// spec 7.4: "Validation messages are English and not localized; clients translate by code."
const MESSAGES: Record<FieldErrorCode, MessageFn> = {
  required: () => 'This field is required.',
  must_be_checked: () => 'This box must be checked.',
  invalid_email: () => 'Enter a valid email address.',
  invalid_tel: () => 'Enter a valid phone number.',
  invalid_url: () => 'Enter a valid link starting with http:// or https://.',
  invalid_number: () => 'Enter a number.',
  invalid_date: () => 'Enter a valid date (YYYY-MM-DD).',
  invalid_time: () => 'Enter a valid time (HH:MM).',
  invalid_option: () => 'Choose one of the offered options.',
  invalid_type: () => 'This value has the wrong type.',
  too_short: (p) => `Must be at least ${p['min']} characters.`,
  too_few: (p) => `Choose at least ${p['min']}.`,
  too_long: (p) => `Must be at most ${p['max']} characters.`,
  too_many: (p, v) => {
    if (v !== 'files') return `Choose at most ${p['max']}.`;
    return p['max'] === 1 ? 'Attach only one file.' : `Attach at most ${p['max']} files.`;
  },
  too_small: (p, v) => (v === 'date' ? `Must be on or after ${p['min']}.` : `Must be at least ${p['min']}.`),
  too_large: (p, v) => (v === 'date' ? `Must be on or before ${p['max']}.` : `Must be at most ${p['max']}.`),
  invalid_step: (p) => `Must be in steps of ${p['step']}.`,
  file_type: (p) =>
    p['accept']
      ? `This file type is not allowed (allowed: ${p['accept']}).`
      : 'This file type is not allowed.',
  file_too_large: (p) => `The file is too large (at most ${p['max']} bytes).`,
  invalid_file: () => 'This file upload is not valid.',
  not_applicable: () =>
    'This answer does not fit your other answers, so it will not be sent. Change them, or send the form again without it.',
};

/** Builds a field error with its English message; `params` is omitted when empty (spec 7.1: optional). */
export function fieldError(
  code: FieldErrorCode,
  params?: FieldErrorParams,
  variant?: MessageVariant,
): FieldError {
  const message = MESSAGES[code](params ?? {}, variant);
  return params && Object.keys(params).length > 0 ? { code, message, params } : { code, message };
}

export function isFieldErrorCode(code: string): code is FieldErrorCode {
  return (FIELD_ERROR_CODES as readonly string[]).includes(code);
}

export function isFormErrorCode(code: string): code is FormErrorCode {
  return (FORM_ERROR_CODES as readonly string[]).includes(code);
}

// What visitors read: a message per error code (spec 7.3, 7.4) and the few words of the form's own UI. English by
// default; a site translates by passing `messages` (spec 7.4: "Validation messages are English and not localized;
// clients translate by code"). Templates name their params in braces: "Must be at most {max} characters."

import { fieldError, isFieldErrorCode } from '../../../src/forms/rules/index.js';
import type { FieldErrorParams, FieldType, MessageVariant } from '../../../src/forms/rules/index.js';

/**
 * Form-level codes (spec 7.3 and the renderer codes of 7.4) and UI words. Field codes (`required`, `too_long`, …)
 * default to the server's own English wording (src/forms/rules/codes.ts), so the browser and the server's
 * `message` say the same; a site may override them here too, also per variant (`too_small.date`).
 */
export const DEFAULT_MESSAGES = {
  validation_failed: 'Some answers are missing or not valid. Please check them and send the form again.',
  submission_too_large: 'Your answers are too long to send. Please shorten them.',
  form_closed: 'This form is closed.',
  form_not_open: 'This form is not open yet.',
  form_full: 'This form has received all the submissions it can take.',
  already_submitted: 'We have already received a submission with this email address.',
  turnstile_required: 'This form cannot take files.',
  turnstile_failed: 'The spam check did not pass. Please try again.',
  uploading: 'Uploading files…',
  rate_limited: 'Too many attempts. Please wait a minute and try again.',
  'rate_limited.retry': 'Too many attempts. Please try again in {retryAfter} seconds.',
  network_error: 'The form could not be sent. Please check your connection and try again.',
  /** the form-level 413 `too_large` (spec 7.2); `too_large` itself is the field code of 7.4 */
  body_too_large: 'The form or one of its files is too large to send.',
  /** any other code (a misconfigured token, a server error): nothing the visitor can fix */
  error: 'The form could not be sent. Please try again later.',
  // UI words
  submit: 'Send',
  sending: 'Sending…',
  next: 'Next',
  back: 'Back',
  choose: 'Choose…',
  requiredMark: '*',
  step: 'Step {step} of {steps}',
  honeypot: 'Leave this field empty',
  turnstileNoScript: 'This form needs JavaScript for its spam check.',
  fileNoScript: 'Attaching files needs JavaScript.',
} as const;

export type MessageKey = keyof typeof DEFAULT_MESSAGES;

/** Overrides by code, `code.variant` or UI word; unknown keys are ignored. */
export type Messages = Readonly<Record<string, string>>;

export type MessageParams = Readonly<Record<string, string | number>>;

/** Replaces `{name}` with the param; a missing param leaves the braces' content out. */
export function formatTemplate(template: string, params: MessageParams = {}): string {
  return template.replace(/\{([A-Za-z]+)\}/g, (_m, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : '',
  );
}

function own(messages: Messages | undefined, key: string): string | undefined {
  return messages !== undefined && Object.hasOwn(messages, key) ? messages[key] : undefined;
}

/** Which wording a field code gets (codes.ts): the field type decides, as on the server. */
export function variantOf(type: FieldType | undefined): MessageVariant | undefined {
  switch (type) {
    case 'date':
      return 'date';
    case 'number':
      return 'number';
    case 'checkboxes':
      return 'choices';
    case 'file':
      return 'files';
    default:
      return undefined;
  }
}

function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(DEFAULT_MESSAGES, key);
}

/** A UI word or form message by key, overrides first. */
export function text(key: MessageKey, messages?: Messages, params?: MessageParams): string {
  return formatTemplate(own(messages, key) ?? DEFAULT_MESSAGES[key], params);
}

export interface MessageOptions {
  params?: FieldErrorParams | undefined;
  /** a field code's wording (variantOf) or `retry` for `rate_limited` with a known wait */
  variant?: string | undefined;
  messages?: Messages | undefined;
}

/**
 * The message for an error code: an override for `code.variant`, then for `code`; else the server's English for
 * field codes, the table's for form codes, and the generic `error` message for codes nobody knows.
 */
export function messageFor(code: string, opts: MessageOptions = {}): string {
  const { params = {}, variant, messages } = opts;
  const keys = variant === undefined ? [code] : [`${code}.${variant}`, code];
  for (const key of keys) {
    const override = own(messages, key);
    if (override !== undefined) return formatTemplate(override, params);
  }
  if (isFieldErrorCode(code)) {
    const v = variant === 'date' || variant === 'number' || variant === 'choices' || variant === 'files';
    return fieldError(code, params, v ? variant : undefined).message;
  }
  for (const key of keys) if (isMessageKey(key)) return text(key, messages, params);
  return text('error', messages);
}

/**
 * A form-level message. spec 3.1: "for not-open forms an error message is the form's closed message when it has
 * one"; `rate_limited` names the wait when the answer said how long (Retry-After, spec 8).
 */
export function formErrorMessage(
  form: { closedMessage: string | null },
  code: string,
  messages: Messages | undefined,
  retryAfter: number | null = null,
): string {
  if ((code === 'form_closed' || code === 'form_not_open' || code === 'form_full') && form.closedMessage)
    return form.closedMessage;
  if (code === 'rate_limited' && retryAfter !== null)
    return messageFor(code, { variant: 'retry', params: { retryAfter }, messages });
  return messageFor(code === 'too_large' ? 'body_too_large' : code, { messages });
}

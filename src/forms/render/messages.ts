// What visitors read: a message per error code (spec 7.3, 7.4) and the few words of the form's own UI, from the
// catalogs Folio ships (src/forms/rules/catalogs: en, de, fr, it, es), chosen by the form's locale along the
// space's fallback chain. A site overrides any of them by passing `messages` (spec 7.4: "clients translate by
// code"). Templates name their params in braces: "Must be at most {max} characters."

import {
  CATALOGS,
  catalogFor,
  fieldError,
  formatTemplate,
  isFieldErrorCode,
  isMessageCode,
  messageKeys,
  variantFor,
} from '../rules/index.js';
import type { Catalog, FieldErrorParams, FieldType, MessageCode, MessageVariant } from '../rules/index.js';

export { formatTemplate };

/** The English catalog: every code and UI word (the keys a site may override). */
export const DEFAULT_MESSAGES: Catalog = CATALOGS['en'] ?? catalogFor([]).catalog;

export type MessageKey = MessageCode;

/** Overrides by code, `code.variant` or UI word; unknown keys are ignored. */
export type Messages = Readonly<Record<string, string>>;

export type MessageParams = Readonly<Record<string, string | number>>;

/**
 * The messages a form speaks: the catalog of the first locale of `chain` Folio ships one for (else English), with
 * the site's overrides on top. An override of a code replaces its variants too (a site's `too_many` is not
 * undercut by the catalog's `too_many.files`).
 */
export function resolveMessages(chain: readonly string[], overrides: Messages = {}): Messages {
  const out: Record<string, string> = { ...catalogFor(chain).catalog };
  for (const key of Object.keys(overrides))
    for (const k of Object.keys(out)) if (k.startsWith(`${key}.`)) delete out[k];
  for (const [key, value] of Object.entries(overrides)) out[key] = value;
  return out;
}

function own(messages: Messages | undefined, key: string): string | undefined {
  return messages !== undefined && Object.hasOwn(messages, key) ? messages[key] : undefined;
}

/** Which wording a field code gets (codes.ts): the field type decides, as on the server. */
export function variantOf(type: FieldType | undefined): MessageVariant | undefined {
  return variantFor(type);
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
 * The message for an error code: the messages' entry for the most specific key (`code.variant`, one file, the
 * allowed types, then `code`); else the server's English for field codes, the English catalog's for form codes,
 * and the generic `error` message for codes nobody knows.
 */
export function messageFor(code: string, opts: MessageOptions = {}): string {
  const { params = {}, variant, messages } = opts;
  const keys = messageKeys(code, variant, params);
  for (const key of keys) {
    const override = own(messages, key);
    if (override !== undefined) return formatTemplate(override, params);
  }
  if (isFieldErrorCode(code)) {
    const v = variant === 'date' || variant === 'number' || variant === 'choices' || variant === 'files';
    return fieldError(code, params, v ? variant : undefined).message;
  }
  for (const key of keys) if (isMessageCode(key)) return text(key, messages, params);
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

// The visitor's address of a submission (spec 2.10: "notification mails reply to the first email field"). Pure.

import { isEmail } from '../rules/index.js';
import type { FormField } from '../rules/index.js';

/**
 * The form check (`isEmail`) is deliberately lenient; an address that becomes a mail header or an SMTP recipient
 * must also hold none of the characters that address lists and angle-bracket forms give meaning to, so one value
 * can never turn into two recipients or a display name.
 */
const PLAIN_MAILBOX = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+$/;

export function isPlainMailbox(address: string): boolean {
  return isEmail(address) && PLAIN_MAILBOX.test(address);
}

/**
 * The value of the first email field, in form order, that the stored submission has a value for (a field hidden
 * by its condition was not stored, so the next email field answers). Checked again here: the value comes from the
 * store, and it becomes a mail header.
 */
export function visitorAddress(
  fields: readonly Pick<FormField, 'key' | 'type'>[],
  values: Readonly<Record<string, unknown>>,
): string | null {
  for (const field of fields) {
    if (field.type !== 'email' || !Object.hasOwn(values, field.key)) continue;
    const value = values[field.key];
    const address = typeof value === 'string' ? value.trim() : '';
    if (address === '') continue;
    return isPlainMailbox(address) ? address : null;
  }
  return null;
}

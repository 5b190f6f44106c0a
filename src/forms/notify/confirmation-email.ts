// The confirmation email to the visitor (spec 4.4 rule 6): plain text in their language, never repeating their
// answers — only the authored subject and body, resolved along the visitor's locale chain (spec 2.12). Pure.

import { resolveText } from '../definition/index.js';
import type { FormSettings } from '../rules/index.js';

/** Null when the form has no confirmation email, or no locale of the chain has both texts. */
export function confirmationEmail(
  settings: Pick<FormSettings, 'confirmationEmail'>,
  chain: readonly string[],
): { subject: string; text: string } | null {
  const texts = settings.confirmationEmail;
  if (!texts) return null;
  const subject = resolveText(texts.subject, chain);
  const body = resolveText(texts.body, chain);
  if (subject === null || body === null) return null;
  return { subject: subject.replace(/[\r\n]+/g, ' ').trim(), text: body.endsWith('\n') ? body : `${body}\n` };
}

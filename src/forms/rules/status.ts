// spec 3.1: the delivered form status, evaluated when a response is produced.

import type { FormErrorCode } from './codes.js';
import type { FormSettings } from './types.js';

export type FormStatus = 'scheduled' | 'open' | 'closed' | 'full';

export interface StatusContext {
  now: Date;
  /** stored non-spam submissions (spec 2.12: spam is not counted toward capacity) */
  nonSpamCount: number;
}

function instant(value: string | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : t;
}

/**
 * spec 3.1, checked in this order: switched off → closed; before opensAt → scheduled; from closesAt
 * on → closed; stored non-spam submissions ≥ maxSubmissions → full; otherwise open. The form opens at
 * the opensAt instant and is closed at the closesAt instant itself (a half-open interval).
 */
export function formStatus(settings: FormSettings, ctx: StatusContext): FormStatus {
  if (settings.active === false) return 'closed';
  const now = ctx.now.getTime();
  const opensAt = instant(settings.opensAt);
  if (opensAt !== null && now < opensAt) return 'scheduled';
  const closesAt = instant(settings.closesAt);
  if (closesAt !== null && now >= closesAt) return 'closed';
  const max = settings.maxSubmissions;
  if (max !== null && max !== undefined && ctx.nonSpamCount >= max) return 'full';
  return 'open';
}

/** spec 3.1 / 7.3: the 409 code a submission gets in each status; null when submissions are accepted. */
export function statusErrorCode(
  status: FormStatus,
): Extract<FormErrorCode, 'form_not_open' | 'form_closed' | 'form_full'> | null {
  switch (status) {
    case 'scheduled':
      return 'form_not_open';
    case 'closed':
      return 'form_closed';
    case 'full':
      return 'form_full';
    default:
      return null;
  }
}

/**
 * spec 2.12, 4.4 rules 4 and 5: a form uses Turnstile when both its site key and its secret are set. The one
 * definition of it for delivery (`turnstile`), submissions, uploads and confirmation emails.
 */
export function usesTurnstile(settings: Pick<FormSettings, 'turnstileSiteKey' | 'turnstileSecret'>): boolean {
  return Boolean(settings.turnstileSiteKey) && Boolean(settings.turnstileSecret);
}

// The notification jobs of a submission (spec 4.4 rule 6): kinds, stable ids and payloads, parsed (never cast)
// when a handler picks one up.

import { createHash } from 'node:crypto';
import { PermanentJobError } from '../../jobs/runner.js';

export const NOTIFY_EMAIL = 'notify.email';
export const NOTIFY_CHAT = 'notify.chat';
export const NOTIFY_CONFIRMATION = 'notify.confirmation';

/** What `notification_sends.channel` records per kind. */
export type NotifyChannel = 'email' | 'chat' | 'confirmation';

/** What every notification job carries: enough to find the submission and the form as it was submitted. */
export interface NotifyJob {
  submissionId: string;
  formKey: string;
  /** The cv the submission was made at: the form definition of that version labels the answers. */
  cv: number;
}

/** The owner's address travels in the payload (decided at submission time by the routing rules). */
export interface EmailJob extends NotifyJob {
  to: string;
}

/** The chat incoming-webhook URL at submission time. */
export interface ChatJob extends NotifyJob {
  url: string;
}

/**
 * Stable ids (one per message): at-least-once fan-out enqueues each at most once, and the id is the message's
 * `notification_sends` row and its Message-ID. An address is hashed so job ids and Message-IDs do not spell it.
 */
export const emailJobId = (submissionId: string, address: string): string =>
  `${submissionId}.mail.${createHash('sha256').update(address.toLowerCase()).digest('hex').slice(0, 16)}`;
export const chatJobId = (submissionId: string): string => `${submissionId}.chat`;
export const confirmationJobId = (submissionId: string): string => `${submissionId}.confirmation`;

// ---- parsing ----------------------------------------------------------------------------------------------

function malformed(kind: string, problem: string): PermanentJobError {
  // A payload that does not parse will not parse on a retry either.
  return new PermanentJobError(`malformed ${kind} payload: ${problem}`);
}

function record(kind: string, payload: unknown): Readonly<Record<string, unknown>> {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    throw malformed(kind, 'not an object');
  return payload as Readonly<Record<string, unknown>>;
}

function text(kind: string, p: Readonly<Record<string, unknown>>, key: string): string {
  const v = p[key];
  if (typeof v !== 'string' || v === '') throw malformed(kind, `${key} must be a non-empty string`);
  return v;
}

function base(kind: string, p: Readonly<Record<string, unknown>>): NotifyJob {
  const cv = p['cv'];
  if (typeof cv !== 'number' || !Number.isSafeInteger(cv) || cv < 0)
    throw malformed(kind, 'cv must be a whole number');
  return { submissionId: text(kind, p, 'submissionId'), formKey: text(kind, p, 'formKey'), cv };
}

export function parseEmailJob(payload: unknown): EmailJob {
  const p = record(NOTIFY_EMAIL, payload);
  return { ...base(NOTIFY_EMAIL, p), to: text(NOTIFY_EMAIL, p, 'to') };
}

export function parseChatJob(payload: unknown): ChatJob {
  const p = record(NOTIFY_CHAT, payload);
  return { ...base(NOTIFY_CHAT, p), url: text(NOTIFY_CHAT, p, 'url') };
}

export function parseConfirmationJob(payload: unknown): NotifyJob {
  return base(NOTIFY_CONFIRMATION, record(NOTIFY_CONFIRMATION, payload));
}

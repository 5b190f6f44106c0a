// Notifications of a valid submission are jobs written in the submission's own transaction (spec 3.2, 4.4 rule 6):
// they exist exactly when the submission does, and the job runner sends them after the commit.

import { type FormDefinition, usesTurnstile } from '../rules/index.js';
import { type NewJob, enqueueJobs } from '../../jobs/outbox-repo.js';
import type { Queryable } from '../../store/spaces-repo.js';
import {
  type ChatJob,
  chatJobId,
  confirmationJobId,
  type EmailJob,
  emailJobId,
  NOTIFY_CHAT,
  NOTIFY_CONFIRMATION,
  NOTIFY_EMAIL,
  type NotifyJob,
} from './jobs.js';
import { notificationRecipients } from './recipients.js';
import { visitorAddress } from './visitor-address.js';

export interface SubmissionNotice {
  spaceId: string;
  submissionId: string;
  form: FormDefinition;
  /** The validated values as stored. */
  values: Readonly<Record<string, unknown>>;
  /** The visitor's language (spec 4.4 `_locale`); the confirmation handler reads it from the stored row. */
  locale: string;
  cv: number;
}

/**
 * Enqueues one job per message: `notify.email` per owner recipient, `notify.chat` when the form has a chat
 * webhook, `notify.confirmation` when the form has a confirmation email, uses Turnstile and the visitor gave an
 * address (spec 4.4 rules 4 and 6). Ids are stable, so enqueueing twice never duplicates a message. The
 * confirmation payload names neither the visitor's address nor any answer: its handler reads them from the
 * stored submission, so an erased submission sends nothing. Returns the ids of the jobs enqueued.
 */
export async function enqueueNotifications(tx: Queryable, n: SubmissionNotice): Promise<string[]> {
  const jobs: NewJob[] = [];
  const job = (kind: string, id: string, payload: NotifyJob | EmailJob | ChatJob): void => {
    jobs.push({ spaceId: n.spaceId, kind, payload, id, ignoreDuplicate: true, submissionId: n.submissionId });
  };
  const common: NotifyJob = { submissionId: n.submissionId, formKey: n.form.key, cv: n.cv };
  const settings = n.form.settings;

  for (const to of notificationRecipients(n.form, n.values)) {
    job(NOTIFY_EMAIL, emailJobId(n.submissionId, to), { ...common, to } satisfies EmailJob);
  }
  const chatUrl = settings.chatWebhookUrl;
  if (typeof chatUrl === 'string' && chatUrl !== '') {
    job(NOTIFY_CHAT, chatJobId(n.submissionId), { ...common, url: chatUrl } satisfies ChatJob);
  }
  // spec 4.4 rule 4: only Turnstile forms confirm , so a script
  // cannot use the form to mail arbitrary addresses.
  if (
    settings.confirmationEmail &&
    usesTurnstile(settings) &&
    visitorAddress(n.form.fields, n.values) !== null
  ) {
    job(NOTIFY_CONFIRMATION, confirmationJobId(n.submissionId), common);
  }
  // One statement for all of them: a submission that notifies five ways costs one round trip, not five.
  return jobs.length === 0 ? [] : enqueueJobs(tx, jobs);
}

// A `form.submitted` event carries ids in the outbox: the visitor's answers join it only when a
// webhook is sent, read from the stored submission, so an erased or expired submission leaves nothing behind.

import { readSubmittedAnswers } from '../forms/submission/submissions-repo.js';
import type { EventPayload } from '../jobs/outbox-repo.js';
import type { Store } from '../store/open-store.js';

/**
 * The event as it is sent: `form.submitted` with the submission's `values`, `locale` and `page` (docs/api.md
 * "Webhooks": the members it always had); other events as they are. Null when the submission is gone or moved to
 * spam: nothing is sent.
 */
export async function eventAsSent(store: Store, event: EventPayload): Promise<EventPayload | null> {
  if (event.type !== 'form.submitted') return event;
  const { form, submissionId, ...rest } = event.data;
  if (typeof submissionId !== 'string') return null;
  const answers = await readSubmittedAnswers(store, event.spaceId, submissionId);
  if (answers === null || answers.formKey !== form) return null;
  const { values, locale, page } = answers;
  // Older rows may still hold answers of their own (written before migration 0019): the stored submission wins.
  const { values: _values, locale: _locale, page: _page, ...others } = rest;
  return { ...event, data: { form, submissionId, values, locale, page, ...others } };
}

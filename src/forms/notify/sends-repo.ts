// `notification_sends` (migration 0008): one row per message, keyed by its outbox job id, so a retried or
// re-claimed job never sends again what a receiver already accepted (docs/operations.md "Notifications").

import type { Queryable } from '../../store/spaces-repo.js';
import type { NotifyChannel } from './jobs.js';

export interface SendKey {
  /** The outbox job id. */
  id: string;
  spaceId: string;
  submissionId: string;
  channel: NotifyChannel;
  /** The Message-ID of an email; null for chat posts. */
  messageId: string | null;
}

/**
 * Records the message as `sending` unless a row exists; answers whether it still has to go out (`send`: new, or
 * left `sending` by an attempt that failed or died) or was accepted before (`sent`).
 */
export async function beginSend(db: Queryable, key: SendKey, now: Date): Promise<'send' | 'sent'> {
  const inserted = await db
    .insertInto('notification_sends')
    .values({
      id: key.id,
      space_id: key.spaceId,
      submission_id: key.submissionId,
      channel: key.channel,
      state: 'sending',
      message_id: key.messageId,
      updated_at: now.toISOString(),
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  // A new row: the first attempt, nothing to look up (one statement per message under a burst, not two).
  if (inserted) return 'send';
  const row = await db
    .selectFrom('notification_sends')
    .select('state')
    .where('id', '=', key.id)
    .executeTakeFirst();
  return row?.state === 'sent' ? 'sent' : 'send';
}

/** The receiver accepted the message: recorded at once, before anything else can fail. */
export async function markSent(db: Queryable, id: string, now: Date): Promise<void> {
  await db
    .updateTable('notification_sends')
    .set({ state: 'sent', updated_at: now.toISOString() })
    .where('id', '=', id)
    .execute();
}

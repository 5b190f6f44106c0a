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

/** Rows per statement: 7 parameters each, well under SQLite's and PostgreSQL's bound. */
const CHUNK = 200;

/**
 * Records each message as `sending` unless a row exists; answers, per key and in order, whether it still has to go
 * out (`send`: new, or left `sending` by an attempt that failed or died) or was accepted before (`sent`). The
 * messages finishing together are one insert (one statement per burst of messages, not one per message).
 */
export async function beginSends(
  db: Queryable,
  keys: readonly SendKey[],
  now: Date,
): Promise<('send' | 'sent')[]> {
  const fresh = new Set<string>();
  for (let i = 0; i < keys.length; i += CHUNK) {
    const rows = await db
      .insertInto('notification_sends')
      .values(
        keys.slice(i, i + CHUNK).map((key) => ({
          id: key.id,
          space_id: key.spaceId,
          submission_id: key.submissionId,
          channel: key.channel,
          state: 'sending' as const,
          message_id: key.messageId,
          updated_at: now.toISOString(),
        })),
      )
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .execute();
    for (const r of rows) fresh.add(r.id);
  }
  // New rows are first attempts: only the others are looked up.
  const known = [...new Set(keys.map((k) => k.id).filter((id) => !fresh.has(id)))];
  const sent = new Set<string>();
  for (let i = 0; i < known.length; i += CHUNK) {
    const rows = await db
      .selectFrom('notification_sends')
      .select('id')
      .where('id', 'in', known.slice(i, i + CHUNK))
      .where('state', '=', 'sent')
      .execute();
    for (const r of rows) sent.add(r.id);
  }
  return keys.map((k) => (sent.has(k.id) ? 'sent' : 'send'));
}

/** The receivers accepted the messages: recorded before their jobs count as done. */
export async function markSent(db: Queryable, ids: readonly string[], now: Date): Promise<void> {
  for (let i = 0; i < ids.length; i += CHUNK) {
    await db
      .updateTable('notification_sends')
      .set({ state: 'sent', updated_at: now.toISOString() })
      .where('id', 'in', ids.slice(i, i + CHUNK))
      .execute();
  }
}

// At-most-once on top of the outbox's at-least-once (docs/operations.md "Notifications"): a message the receiver
// accepted is recorded `sent` at once, and no later run of its job sends it again.

import type { Store } from '../../store/open-store.js';
import { beginSend, markSent, type SendKey } from './sends-repo.js';

/**
 * Sends unless the message is recorded `sent`. The one window left is between the receiver's "accepted" and the
 * `sent` record (a crash, or the store unreachable right then): the job runs again and sends again — for email
 * with the same Message-ID, which receivers deduplicate on. Returns whether it sent.
 */
export async function sendOnce(store: Store, key: SendKey, send: () => Promise<void>): Promise<boolean> {
  if ((await beginSend(store.db, key, new Date())) === 'sent') return false;
  await send();
  await markSent(store.db, key.id, new Date());
  return true;
}

// At-most-once on top of the outbox's at-least-once (docs/operations.md "Notifications"): a message the receiver
// accepted is recorded `sent` before its job is done, and no later run of its job sends it again.

import { Coalescer } from '../../jobs/coalesce.js';
import type { Store } from '../../store/open-store.js';
import { beginSends, markSent, type SendKey } from './sends-repo.js';

/** How long a message's record waits for those of other messages (one statement for all of them). */
const GATHER_MS = 2;

interface SendRecords {
  begin: Coalescer<SendKey, 'send' | 'sent'>;
  sent: Coalescer<string>;
}

const perStore = new WeakMap<Store, SendRecords>();

function recordsOf(store: Store): SendRecords {
  const known = perStore.get(store);
  if (known) return known;
  const records: SendRecords = {
    begin: new Coalescer((keys) => beginSends(store.db, keys, new Date()), { delayMs: GATHER_MS, max: 200 }),
    sent: new Coalescer<string>(
      async (ids) => {
        await markSent(store.db, ids, new Date());
        return [];
      },
      { delayMs: GATHER_MS, max: 200 },
    ),
  };
  perStore.set(store, records);
  return records;
}

/**
 * Sends unless the message is recorded `sent`. The one window left is between the receiver's "accepted" and the
 * `sent` record (a crash, or the store unreachable right then; a few ms longer since records are gathered): the
 * job runs again and sends again — for email with the same Message-ID, which receivers deduplicate on. Returns
 * whether it sent.
 */
export async function sendOnce(store: Store, key: SendKey, send: () => Promise<void>): Promise<boolean> {
  const records = recordsOf(store);
  if ((await records.begin.add(key)) === 'sent') return false;
  await send();
  await records.sent.add(key.id);
  return true;
}

import { createHmac, randomBytes } from 'node:crypto';
import type { Store } from './open-store.js';

/**
 * The installation's master key: `FOLIO_SECRET` when configured, else a random key created once in the store,
 * so every instance on one database shares it without configuration.
 */
export async function loadMasterKey(store: Store, configured: string | null): Promise<Buffer> {
  if (configured !== null) return Buffer.from(configured, 'utf8');
  const read = () =>
    store.db.selectFrom('secrets').select('value').where('name', '=', 'master').executeTakeFirst();
  let row = await read();
  if (!row) {
    await store.db
      .insertInto('secrets')
      .values({ name: 'master', value: randomBytes(32).toString('base64') })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    row = await read();
  }
  if (!row) throw new Error('could not create the master key');
  return Buffer.from(row.value, 'base64');
}

/** A key for one purpose derived from the master key, so purposes never share a key. */
export function deriveKey(master: Buffer, purpose: string): Buffer {
  return createHmac('sha256', master).update(`folio:${purpose}`).digest();
}

import { sql } from 'kysely';
import type { Store } from './open-store.js';

/** The newest migration applied to the store (a backup's manifest names it), or null before any. */
export async function newestMigration(store: Store): Promise<string | null> {
  const r = await sql<{ name: string }>`select name from folio_migration order by name desc limit 1`.execute(
    store.db,
  );
  return r.rows[0]?.name ?? null;
}

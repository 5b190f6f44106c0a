import type { Kysely } from 'kysely';
import { StoreNewerError, unknownMigrations } from './migrations/index.js';
import type { Store } from './open-store.js';

/**
 * A running instance that finds its store migrated by a newer Folio stops taking writes: what it would write lacks
 * what the newer code derives (normalized addresses, indexes), and the newer instances already serve. Asked at
 * every cv poll (src/cluster/cv-fanout.ts), one small query. Returns the reason when it changed this time (the
 * caller logs it once), else null. Once refused, refused until this process stops: an upgrade is not undone.
 */
export async function refuseWritesIfStoreNewer(store: Store): Promise<string | null> {
  if (store.writesRefused !== null) return null;
  const unknown = await unknownMigrations(store.db as Kysely<unknown>);
  if (unknown.length === 0) return null;
  store.writesRefused = `${new StoreNewerError(unknown).message} Writes are refused (503) until this instance is replaced.`;
  return store.writesRefused;
}

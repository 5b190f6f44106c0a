import type { Kysely, Transaction } from 'kysely';
import type { SpaceSettings } from '../content/model.js';
import type { Store } from './open-store.js';
import type { Database } from './schema.js';

export type Queryable = Kysely<Database> | Transaction<Database>;

export interface SpaceRow {
  id: string;
  name: string;
  settings: SpaceSettings;
  cv: number;
  minCv: number;
  createdAt: string;
}

export async function getSpace(store: Store, id: string, db: Queryable = store.db): Promise<SpaceRow | null> {
  const row = await db.selectFrom('spaces').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    name: row.name,
    settings: store.dialect.parseJson<SpaceSettings>(row.settings),
    cv: Number(row.cv),
    minCv: Number(row.min_cv),
    createdAt: row.created_at,
  };
}

export async function listSpaceIds(store: Store): Promise<string[]> {
  const rows = await store.db.selectFrom('spaces').select('id').orderBy('id').execute();
  return rows.map((r) => r.id);
}

/** Current cv of every space, for the in-memory cv table. */
export async function readAllCvs(store: Store): Promise<Map<string, number>> {
  const rows = await store.db.selectFrom('spaces').select(['id', 'cv']).execute();
  return new Map(rows.map((r) => [r.id, Number(r.cv)]));
}

/**
 * Increments the space's cv inside a transaction and returns the new value. The UPDATE takes the space row's lock,
 * so publishes to one space are serialised on both engines (`withPublish`, src/content/publish-log.ts).
 */
export async function bumpCv(tx: Transaction<Database>, spaceId: string): Promise<number> {
  const row = await tx
    .updateTable('spaces')
    .set((eb) => ({ cv: eb('cv', '+', 1) }))
    .where('id', '=', spaceId)
    .returning('cv')
    .executeTakeFirst();
  if (!row) throw new Error(`space ${spaceId} does not exist`);
  return Number(row.cv);
}

/** The space's oldest cv kept (`min_cv`), read in a publish's transaction; undefined when the space is gone. */
export async function readMinCv(db: Queryable, spaceId: string): Promise<number | undefined> {
  const row = await db.selectFrom('spaces').select('min_cv').where('id', '=', spaceId).executeTakeFirst();
  return row ? Number(row.min_cv) : undefined;
}

/** The space's raw settings (JSON text or object, as the engine returns it), read in the caller's transaction. */
export async function readRawSettings(db: Queryable, spaceId: string): Promise<unknown> {
  const row = await db.selectFrom('spaces').select('settings').where('id', '=', spaceId).executeTakeFirst();
  return row?.settings;
}

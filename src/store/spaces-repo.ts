import { enqueueEvent } from '../jobs/outbox-repo.js';
import type { Kysely, Transaction } from 'kysely';
import type { SpaceSettings } from '../content/model.js';
import { pruneBefore } from './log-repo.js';
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
 * Runs `work` in one transaction with the space's cv incremented first (DESIGN.md "published log", step 1).
 * The UPDATE takes the space row's lock, so publishes to one space are serialised on both engines.
 */
export async function withPublish<T>(
  store: Store,
  spaceId: string,
  work: (tx: Transaction<Database>, cv: number) => Promise<T>,
): Promise<{ cv: number; result: T }> {
  const out = await store.db.transaction().execute(async (tx) => {
    const cv = await bumpCv(tx, spaceId);
    const result = await work(tx, cv);
    // Every publish, whatever it changed: webhooks get the CDN tags to purge (issue 16, src/webhooks/event-keys.ts).
    await enqueueEvent(tx, spaceId, 'content.published', { cv });
    await pruneIfDue(tx, store, spaceId, cv);
    return { cv, result };
  });
  store.published.emit(spaceId, out.cv);
  return out;
}

/** Increments the space's cv inside a transaction and returns the new value. */
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

/**
 * Keeps `store.keepVersions` cache versions of history (DESIGN.md: old versions are pruned after a retention
 * window; older pinned cvs answer 410). Checked every few publishes, not each: a prune scans the space's closed
 * versions.
 */
async function pruneIfDue(
  tx: Transaction<Database>,
  store: Store,
  spaceId: string,
  cv: number,
): Promise<void> {
  const keep = store.keepVersions;
  if (cv % Math.min(50, keep) !== 0) return;
  const oldest = cv - keep;
  if (oldest <= 0) return;
  const row = await tx.selectFrom('spaces').select('min_cv').where('id', '=', spaceId).executeTakeFirst();
  if (row && oldest > Number(row.min_cv)) await pruneBefore(tx, spaceId, oldest);
}

import type { SpaceSettings } from '../content/model.js';
import type { Store } from '../store/open-store.js';
import type { Queryable } from '../store/spaces-repo.js';

/** The queries of an import (import-bundle.ts) on the space's row, its assets and the tokens of other spaces. */

export async function spaceExists(store: Store, spaceId: string): Promise<boolean> {
  return spaceRowExists(store.db, spaceId);
}

/** Whether the space's row exists, read in the import's transaction. */
export async function spaceRowExists(db: Queryable, spaceId: string): Promise<boolean> {
  return (
    (await db.selectFrom('spaces').select('id').where('id', '=', spaceId).executeTakeFirst()) !== undefined
  );
}

/** The blob keys of the space's assets (deleted once a replacing import has committed). */
export async function assetBlobKeys(db: Queryable, spaceId: string): Promise<string[]> {
  return (await db.selectFrom('assets').select('blob_key').where('space_id', '=', spaceId).execute()).map(
    (r) => r.blob_key,
  );
}

/**
 * The replaced space's name and settings, in a new token generation: every instance drops its cached lookups of
 * the replaced tokens (migration 0010).
 */
export async function renameSpaceNewTokenGeneration(
  db: Queryable,
  spaceId: string,
  name: string,
  settings: SpaceSettings,
): Promise<void> {
  await db
    .updateTable('spaces')
    .set((eb) => ({ name, settings: JSON.stringify(settings), token_gen: eb('token_gen', '+', 1) }))
    .where('id', '=', spaceId)
    .execute();
}

export async function insertSpaceRow(
  db: Queryable,
  spaceId: string,
  name: string,
  settings: SpaceSettings,
  createdAt: string,
): Promise<void> {
  await db
    .insertInto('spaces')
    .values({
      id: spaceId,
      name,
      settings: JSON.stringify(settings),
      cv: 0,
      min_cv: 0,
      created_at: createdAt,
    })
    .execute();
}

/** An imported space keeps no history before the import's cv. */
export async function setMinCv(db: Queryable, spaceId: string, cv: number): Promise<void> {
  await db.updateTable('spaces').set({ min_cv: cv }).where('id', '=', spaceId).execute();
}

/** Indexes of `hashes` that are tokens of another space (hashes are unique across the store). */
export async function tokenConflicts(db: Queryable, spaceId: string, hashes: string[]): Promise<number[]> {
  const taken = new Set<string>();
  // Chunked: SQLite caps bound parameters per statement.
  for (let i = 0; i < hashes.length; i += 500) {
    const rows = await db
      .selectFrom('tokens')
      .select('hash')
      .where('hash', 'in', hashes.slice(i, i + 500))
      .where('space_id', '!=', spaceId)
      .execute();
    for (const r of rows) taken.add(r.hash);
  }
  return hashes.flatMap((h, i) => (taken.has(h) ? [i] : []));
}

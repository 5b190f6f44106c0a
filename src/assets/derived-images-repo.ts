// The index of derived images kept in the blob store (table `derived_images`, migration 0018).

import { sql } from 'kysely';
import type { Queryable } from '../store/spaces-repo.js';

export interface DerivedRow {
  blobKey: string;
  spaceId: string;
  assetId: string;
  /** The original's blob key: the variant is an orphan once its asset has another (or none). */
  sourceKey: string;
  size: number;
  usedAt: string;
}

/** A variant chosen for eviction: its key, size, and the use it was chosen at (a later use spares it). */
export interface DerivedVictim {
  blobKey: string;
  size: number;
  usedAt: string;
}

/** Records a variant just stored (or stored again): its size, and now as its last use. */
export async function upsertDerived(db: Queryable, row: DerivedRow): Promise<void> {
  await db
    .insertInto('derived_images')
    .values({
      blob_key: row.blobKey,
      space_id: row.spaceId,
      asset_id: row.assetId,
      source_key: row.sourceKey,
      size: row.size,
      used_at: row.usedAt,
    })
    .onConflict((oc) =>
      oc.column('blob_key').doUpdateSet({ size: row.size, source_key: row.sourceKey, used_at: row.usedAt }),
    )
    .execute();
}

/** Moves the last use of these variants to `usedAt` (keys not recorded are ignored). */
export async function touchDerived(db: Queryable, keys: readonly string[], usedAt: string): Promise<void> {
  if (keys.length === 0) return;
  await db
    .updateTable('derived_images')
    .set({ used_at: usedAt })
    .where('blob_key', 'in', keys)
    .where('used_at', '<', usedAt)
    .execute();
}

const victim = (r: { blob_key: string; size: number; used_at: string }): DerivedVictim => ({
  blobKey: r.blob_key,
  size: Number(r.size),
  usedAt: r.used_at,
});

/** An asset's variants past its `keep` most recently used, least recently used last (at most `limit`). */
export async function derivedBeyond(
  db: Queryable,
  spaceId: string,
  assetId: string,
  keep: number,
  limit: number,
): Promise<DerivedVictim[]> {
  const rows = await db
    .selectFrom('derived_images')
    .select(['blob_key', 'size', 'used_at'])
    .where('space_id', '=', spaceId)
    .where('asset_id', '=', assetId)
    .orderBy('used_at', 'desc')
    .orderBy('blob_key', 'desc')
    .limit(limit)
    .offset(keep)
    .execute();
  return rows.map(victim);
}

/** The bytes of every variant recorded. */
export async function derivedBytes(db: Queryable): Promise<number> {
  const row = await db
    .selectFrom('derived_images')
    .select(sql<number | string | null>`sum(size)`.as('total'))
    .executeTakeFirst();
  // PostgreSQL answers a bigint sum as text.
  return Number(row?.total ?? 0);
}

/** The least recently used variants, oldest first. */
export async function oldestDerived(db: Queryable, limit: number): Promise<DerivedVictim[]> {
  const rows = await db
    .selectFrom('derived_images')
    .select(['blob_key', 'size', 'used_at'])
    .orderBy('used_at')
    .orderBy('blob_key')
    .limit(limit)
    .execute();
  return rows.map(victim);
}

/** Variants whose asset is gone, or whose asset's original is another file now (re-imported). */
export async function orphanedDerived(db: Queryable, limit: number): Promise<DerivedVictim[]> {
  const rows = await db
    .selectFrom('derived_images as d')
    .select(['d.blob_key', 'd.size', 'd.used_at'])
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('assets as a')
            .select('a.id')
            .whereRef('a.space_id', '=', 'd.space_id')
            .whereRef('a.id', '=', 'd.asset_id')
            .whereRef('a.blob_key', '=', 'd.source_key'),
        ),
      ),
    )
    .orderBy('d.blob_key')
    .limit(limit)
    .execute();
  return rows.map(victim);
}

/**
 * Forgets evicted variants, except one used again since it was chosen (its `used_at` is later: another request
 * stored or served it meanwhile, and its row must stay with its file).
 */
export async function deleteDerived(db: Queryable, victims: readonly DerivedVictim[]): Promise<void> {
  if (victims.length === 0) return;
  const chosenAt = victims.reduce((latest, v) => (v.usedAt > latest ? v.usedAt : latest), '');
  await db
    .deleteFrom('derived_images')
    .where(
      'blob_key',
      'in',
      victims.map((v) => v.blobKey),
    )
    .where('used_at', '<=', chosenAt)
    .execute();
}

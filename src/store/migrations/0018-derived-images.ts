import type { Kysely } from 'kysely';

/**
 * Derived images kept in the blob store: one row per variant file, so the store can hold them
 * to a byte budget (IMAGE_CACHE_MAX_MB) and a number per asset, evicting the least recently used, and can sweep
 * those of deleted assets. `source_key` is the original's blob key: a variant whose asset no longer has that key
 * is an orphan. `used_at` is ISO text (ordered as text on both engines); `size` in bytes.
 *
 * Frozen: spells out its own schema, the same on both engines, and never calls repository code.
 */
export async function up0018DerivedImages(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('derived_images')
    .addColumn('blob_key', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('asset_id', 'text', (c) => c.notNull())
    .addColumn('source_key', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('used_at', 'text', (c) => c.notNull())
    .execute();
  // Eviction walks the least recently used first, across the store and per asset.
  await db.schema
    .createIndex('derived_images_used')
    .on('derived_images')
    .columns(['used_at', 'blob_key'])
    .execute();
  await db.schema
    .createIndex('derived_images_asset')
    .on('derived_images')
    .columns(['space_id', 'asset_id', 'used_at', 'blob_key'])
    .execute();
}

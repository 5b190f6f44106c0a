import type { Kysely } from 'kysely';
import type { Engine } from '../dialect/dialect.js';

/**
 * `form_drafts`: what a visitor typed into a plain HTML form whose post failed validation, kept
 * so the page it is sent back to can show it again without putting the values in the URL. A row lives at most ten
 * minutes and is deleted by its first read (with the form's public token); file fields are never kept. `values` is
 * JSON text on both engines (read once, never queried into).
 *
 * Frozen: spells out its own schema and never calls repository code.
 */
export async function up0023FormDrafts(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema
    .createTable('form_drafts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('form_key', 'text', (c) => c.notNull())
    .addColumn('values', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('form_drafts_expiry').on('form_drafts').column('expires_at').execute();
}

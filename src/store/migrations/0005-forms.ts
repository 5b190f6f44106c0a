import { type Kysely, sql } from 'kysely';
import type { Engine } from '../dialect/dialect.js';

/**
 * Form submissions (spec 2.13, 3.2) and the per-form counter that enforces capacity without races (spec 3.1):
 * a submission increments its form's counter with `count < max` in the same transaction as the insert, so the
 * row lock serialises concurrent submissions on PostgreSQL (SQLite serialises every write anyway).
 */
export async function up0005Forms(db: Kysely<unknown>, engine: Engine): Promise<void> {
  // Frozen: the JSON column type as it was (StoreDialect.jsonType may change; this migration may not).
  const json = sql.raw(engine === 'postgres' ? 'jsonb' : 'text');
  await db.schema
    .createTable('submissions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('form_key', 'text', (c) => c.notNull())
    .addColumn('folder', 'text', (c) => c.notNull())
    .addColumn('values', json, (c) => c.notNull())
    .addColumn('page', 'text')
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text')
    .addColumn('consent', json, (c) => c.notNull())
    // The lower-cased address of the form's uniqueField; null for spam and forms without one.
    .addColumn('unique_key', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('delete_after', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('submissions_list')
    .on('submissions')
    .columns(['space_id', 'form_key', 'folder', 'created_at'])
    .execute();
  // spec 2.12 uniqueField: NULLs are distinct on both engines, so only forms with a uniqueField are constrained.
  await db.schema
    .createIndex('submissions_unique')
    .on('submissions')
    .columns(['space_id', 'form_key', 'unique_key'])
    .unique()
    .execute();
  await db.schema.createIndex('submissions_retention').on('submissions').columns(['delete_after']).execute();
  await db.schema
    .createTable('form_counters')
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('form_key', 'text', (c) => c.notNull())
    // Stored non-spam submissions (spec 3.1 "full").
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('form_counters_pk', ['space_id', 'form_key'])
    .execute();
}

import { type Kysely, sql } from 'kysely';
import type { Engine } from '../dialect/dialect.js';

/**
 * Redirects (spec 2.6) as a versioned table of the published log, and webhook endpoints with their delivery
 * attempts (spec 6). A redirect row is visible at cv when cv_from <= cv < cv_to, like every published row;
 * automatic redirects point at an entry id and are resolved to its path at read time (no chains).
 */
export async function up0004RedirectsWebhooks(db: Kysely<unknown>, engine: Engine): Promise<void> {
  // Frozen: the JSON column type as it was (StoreDialect.jsonType may change; this migration may not).
  const json = sql.raw(engine === 'postgres' ? 'jsonb' : 'text');
  await db.schema
    .createTable('redirects')
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('cv_from', 'integer', (c) => c.notNull())
    .addColumn('cv_to', 'integer')
    .addColumn('locale', 'text')
    .addColumn('from_path', 'text', (c) => c.notNull())
    .addColumn('from_key', 'text', (c) => c.notNull())
    .addColumn('to_entry', 'text')
    .addColumn('to_url', 'text')
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('redirects_pk', ['space_id', 'id', 'cv_from'])
    .execute();
  await db.schema
    .createIndex('redirects_from')
    .on('redirects')
    .columns(['space_id', 'from_key', 'cv_from'])
    .execute();
  await db.schema
    .createIndex('redirects_target')
    .on('redirects')
    .columns(['space_id', 'to_entry', 'cv_to'])
    .execute();

  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', json, (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('disabled_reason', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhooks_space').on('webhooks').columns(['space_id', 'position']).execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('webhook_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('ok', 'integer', (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_webhook')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'at'])
    .execute();
  // Attempts are forgotten after 30 days (src/jobs/worker.ts).
  await db.schema.createIndex('webhook_deliveries_at').on('webhook_deliveries').column('at').execute();
}

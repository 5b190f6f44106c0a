import { type Kysely, sql } from 'kysely';
import type { Engine } from '../dialect/dialect.js';

/**
 * The transactional outbox: jobs written in the same transaction as the change that causes them (a publish, a
 * submission), run later by workers with retries. `run_at` orders and delays; `locked_until` is a lease so a
 * crashed worker's job runs again (at-least-once).
 */
export async function up0002Outbox(db: Kysely<unknown>, engine: Engine): Promise<void> {
  // Frozen: the JSON column type as it was (StoreDialect.jsonType may change; this migration may not).
  const json = sql.raw(engine === 'postgres' ? 'jsonb' : 'text');
  await db.schema
    .createTable('outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', json, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('run_at', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'text')
    .addColumn('locked_by', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('outbox_due').on('outbox').columns(['status', 'run_at']).execute();
  // Keys generated once per installation and shared by every instance through the store (cursor and URL
  // signing, visitor hashing); FOLIO_SECRET overrides.
  await db.schema
    .createTable('secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

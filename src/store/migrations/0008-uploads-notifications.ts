import { type Kysely, sql } from 'kysely';
import type { Engine } from '../dialect/dialect.js';

/**
 * Form uploads (spec 2.14, 3.3) and the per-recipient record of notifications sent (spec 4.4 rule 6).
 *
 * `uploads`: one row per stored file. `submission_id` is null until a submission claims it (in the submission's
 * transaction); unclaimed rows expire at `expires_at` (one day) and are swept with their blob. Claimed rows go
 * when their submission goes (retention or erase).
 *
 * `notification_sends`: one row per message of a submission and recipient (`id` is the outbox job id), written
 * `sending` before the message leaves and `sent` as soon as the receiver accepted it, so a retried job never
 * sends again what was accepted (docs/operations.md "Notifications"). Deleted with the submission.
 *
 * Frozen: spells out its own schema and never calls repository code.
 */
export async function up0008UploadsNotifications(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema
    .createTable('uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('form_key', 'text', (c) => c.notNull())
    .addColumn('field_key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('submission_id', 'text')
    .execute();
  await db.schema.createIndex('uploads_submission').on('uploads').columns(['submission_id']).execute();
  await sql`create index uploads_unclaimed on uploads (expires_at) where submission_id is null`.execute(db);

  await db.schema
    .createTable('notification_sends')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('submission_id', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('notification_sends_submission')
    .on('notification_sends')
    .columns(['submission_id'])
    .execute();
}

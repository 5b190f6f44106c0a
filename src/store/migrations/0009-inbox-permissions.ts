import { type Kysely, sql } from 'kysely';
import type { Engine } from '../dialect/dialect.js';

/**
 * The forms inbox and permissions (spec 3.2, 4.5).
 *
 * - `tokens.scopes`: a JSON array of scopes of a management token (`forms.read`, …); NULL is every scope, which is
 *   what tokens created before this migration keep (docs/operations.md "Token scopes").
 * - `submissions.status` (`new`, `read`, `done`, `archived`; every existing row starts `new`), `assignee` (a name
 *   the caller gives) and `updated_at` (the last inbox change; NULL until the first).
 * - `submission_notes`: notes on a submission, deleted with it.
 * - `activity_log`: who did what to forms, submissions and tokens, with counts, never submission data.
 *
 * Frozen: spells out its own schema and never calls repository code.
 */
export async function up0009InboxPermissions(db: Kysely<unknown>, engine: Engine): Promise<void> {
  // Frozen: the JSON column type as it was (StoreDialect.jsonType may change; this migration may not).
  const json = sql.raw(engine === 'postgres' ? 'jsonb' : 'text');
  await db.schema.alterTable('tokens').addColumn('scopes', json).execute();
  await db.schema
    .alterTable('submissions')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('new'))
    .execute();
  await db.schema.alterTable('submissions').addColumn('assignee', 'text').execute();
  await db.schema.alterTable('submissions').addColumn('updated_at', 'text').execute();
  await db.schema
    .createIndex('submissions_inbox')
    .on('submissions')
    .columns(['space_id', 'form_key', 'folder', 'status', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('submission_notes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('submission_id', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('submission_notes_submission')
    .on('submission_notes')
    .columns(['submission_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('activity_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    // The management token that acted (its id, never its value); 'cli' for the command line.
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    // What it acted on: a form key, a token id; null for space-wide actions (erase).
    .addColumn('subject', 'text')
    .addColumn('details', json, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('activity_log_space')
    .on('activity_log')
    .columns(['space_id', 'at', 'id'])
    .execute();
}

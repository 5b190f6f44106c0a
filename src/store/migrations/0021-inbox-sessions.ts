import type { Kysely } from 'kysely';

/**
 * The inbox in the browser.
 *
 * - `inbox_sessions`: a browser's sign-in with a management token at `POST /inbox/session`. The row holds the
 *   sha256 of the session id (the cookie's value is never stored) and the token's id and hash, never the token:
 *   the session's authority is the token's own, read again on every request. The foreign key deletes a token's
 *   sessions with it (a revocation ends them on every instance at once), the space's with the space.
 *   `expires_at` is the idle limit (`last_seen_at` + 12 h), moved on as the session is used.
 * - `submissions.form_cv`: the space's cv when the submission was accepted, so the inbox can show the labels of
 *   the form version it was submitted to (the published log keeps that version at that cv). NULL for submissions
 *   stored before this migration.
 *
 * Frozen: spells out its own schema and never calls repository code.
 */
export async function up0021InboxSessions(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('inbox_sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('token_id', 'text', (c) => c.notNull().references('tokens.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('inbox_sessions_token').on('inbox_sessions').column('token_id').execute();
  await db.schema.createIndex('inbox_sessions_expiry').on('inbox_sessions').column('expires_at').execute();
  await db.schema.alterTable('submissions').addColumn('form_cv', 'integer').execute();
}

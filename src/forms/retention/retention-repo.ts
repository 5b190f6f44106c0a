import { sql, type Transaction } from 'kysely';
import type { StoreDialect } from '../../store/dialect/dialect.js';
import type { Store } from '../../store/open-store.js';
import type { Database } from '../../store/schema.js';

/** One sweep batch's transaction, with what the lock clauses depend on. */
export interface SweepTx {
  readonly tx: Transaction<Database>;
  readonly dialect: StoreDialect;
}

/** A submission past its `delete_after`, locked by this batch. */
export interface ExpiredSubmission {
  id: string;
  spaceId: string;
  formKey: string;
  folder: 'inbox' | 'spam';
}

/** An upload row and the blob holding its bytes. */
export interface StoredFile {
  id: string;
  blobKey: string;
}

/**
 * Runs one sweep batch in its own transaction. PostgreSQL: the batch's rows are claimed with
 * `FOR UPDATE SKIP LOCKED` (below), so concurrent sweepers take disjoint batches. SQLite has no row locks; a
 * no-op write first takes the database's write lock (`dialect.lockForWrite`, what `BEGIN IMMEDIATE` does), so a sweep in another
 * process (`folio sweep` from cron beside `folio serve`) waits for it (busy_timeout) instead of reading a
 * snapshot that goes stale and failing with SQLITE_BUSY_SNAPSHOT at its first write.
 */
export async function inSweepTransaction<T>(store: Store, work: (s: SweepTx) => Promise<T>): Promise<T> {
  return store.db.transaction().execute(async (tx) => {
    await store.dialect.lockForWrite(tx);
    return work({ tx, dialect: store.dialect });
  });
}

/** PostgreSQL passes over rows another sweeper holds; SQLite already runs this transaction alone. */
const skipLocked = (s: SweepTx) => s.dialect.rowLocks;

/** Locks up to `limit` submissions whose retention ended at `now` (inbox and spam alike; spec 3.2, 8). */
export async function lockExpiredSubmissions(
  s: SweepTx,
  now: string,
  limit: number,
): Promise<ExpiredSubmission[]> {
  const rows = await s.tx
    .selectFrom('submissions')
    .select(['id', 'space_id', 'form_key', 'folder'])
    .where('delete_after', '<=', now)
    .orderBy('delete_after')
    .orderBy('id')
    .limit(limit)
    .$if(skipLocked(s), (qb) => qb.forUpdate().skipLocked())
    .execute();
  return rows.map((r) => ({ id: r.id, spaceId: r.space_id, formKey: r.form_key, folder: r.folder }));
}

/** The uploads the submissions claimed (spec 3.3: deleted with their submission). */
export async function filesOfSubmissions(s: SweepTx, ids: readonly string[]): Promise<StoredFile[]> {
  if (ids.length === 0) return [];
  const rows = await s.tx
    .selectFrom('uploads')
    .select(['id', 'blob_key'])
    .where('submission_id', 'in', [...ids])
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: r.id, blobKey: r.blob_key }));
}

/**
 * Gives back capacity (spec 3.1: "full" counts stored non-spam submissions): lowers each form's counter by its
 * deleted inbox submissions. Forms without a capacity have no counter row, and the UPDATE changes nothing.
 * Counters are taken in one order, so two sweepers never wait on each other's counters (no deadlock).
 */
export async function releaseCapacity(
  s: SweepTx,
  released: readonly { spaceId: string; formKey: string; count: number }[],
): Promise<void> {
  const ordered = [...released].sort((a, b) =>
    a.spaceId === b.spaceId ? compare(a.formKey, b.formKey) : compare(a.spaceId, b.spaceId),
  );
  for (const r of ordered) {
    await s.tx
      .updateTable('form_counters')
      // Never below zero, should the counter have drifted (it is re-counted on the form's next save).
      .set({ count: sql<number>`case when count > ${r.count} then count - ${r.count} else 0 end` })
      .where('space_id', '=', r.spaceId)
      .where('form_key', '=', r.formKey)
      .execute();
  }
}

/**
 * Deletes submissions with everything stored for them: notification records, outbox rows (the `form.submitted`
 * event, its webhook deliveries and the notification jobs, pending or done), uploads (their blobs are the
 * caller's), notes and addresses. Returns how many submissions were deleted.
 */
export async function deleteSubmissions(s: SweepTx, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const list = [...ids];
  await s.tx.deleteFrom('notification_sends').where('submission_id', 'in', list).execute();
  // Nothing of the submission is sent, nor kept, once it is gone.
  await s.tx.deleteFrom('outbox').where('submission_id', 'in', list).execute();
  await s.tx.deleteFrom('uploads').where('submission_id', 'in', list).execute();
  // spec 3.2 "submission, its notes and files deleted".
  await s.tx.deleteFrom('submission_notes').where('submission_id', 'in', list).execute();
  await s.tx.deleteFrom('submission_addresses').where('submission_id', 'in', list).execute();
  const r = await s.tx.deleteFrom('submissions').where('id', 'in', list).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Locks up to `limit` uploads no submission claimed before they expired at `now` (spec 3.3). */
export async function lockUnclaimedUploads(s: SweepTx, now: string, limit: number): Promise<StoredFile[]> {
  const rows = await s.tx
    .selectFrom('uploads')
    .select(['id', 'blob_key'])
    .where('submission_id', 'is', null)
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .orderBy('id')
    .limit(limit)
    .$if(skipLocked(s), (qb) => qb.forUpdate().skipLocked())
    .execute();
  return rows.map((r) => ({ id: r.id, blobKey: r.blob_key }));
}

/** Deletes unclaimed upload rows; returns how many. */
export async function deleteUnclaimedUploads(s: SweepTx, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const r = await s.tx
    .deleteFrom('uploads')
    .where('id', 'in', [...ids])
    // Locked (or alone on SQLite) since they were read; re-checked so no claimed upload can ever go here.
    .where('submission_id', 'is', null)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Locks the named submissions of a space for deletion (the inbox's delete, erase): unlike the sweep's batches it
 * waits for rows another transaction holds (PostgreSQL `FOR UPDATE`), since these ids must go now. Ids that do not
 * exist (any more) are simply not returned.
 */
export async function lockSubmissionsById(
  s: SweepTx,
  spaceId: string,
  ids: readonly string[],
): Promise<ExpiredSubmission[]> {
  if (ids.length === 0) return [];
  const rows = await s.tx
    .selectFrom('submissions')
    .select(['id', 'space_id', 'form_key', 'folder'])
    .where('space_id', '=', spaceId)
    .where('id', 'in', [...ids])
    .orderBy('id')
    .$if(s.dialect.rowLocks, (qb) => qb.forUpdate())
    .execute();
  return rows.map((r) => ({ id: r.id, spaceId: r.space_id, formKey: r.form_key, folder: r.folder }));
}

/** Which of these submissions still exist (any space): the sweep of mail files keeps theirs. */
export async function existingSubmissionIds(store: Store, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await store.db
    .selectFrom('submissions')
    .select('id')
    .where('id', 'in', [...ids])
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** The tables a visitor's data is deleted from (submissions and what is stored for them). */
const VISITOR_TABLES = [
  'submissions',
  'submission_notes',
  'submission_addresses',
  'uploads',
  'notification_sends',
  'outbox',
] as const;

/**
 * After an erase or a sweep: deleted rows no longer readable from the store's files where the
 * engine can do it cheaply (`dialect.purgeDeleted`: SQLite's WAL checkpointed and truncated; PostgreSQL's tables
 * vacuumed). Outside any transaction.
 */
export async function purgeDeletedSubmissions(store: Store): Promise<void> {
  await store.dialect.purgeDeleted(store.db, VISITOR_TABLES);
}

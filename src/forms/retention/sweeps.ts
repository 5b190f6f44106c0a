// Retention (spec 3.2, 3.3, 8): expired submissions go with their notes, files, mail files and outbox rows, unclaimed
// uploads after one day. Run about hourly by the job runner (src/wiring/jobs.ts) and once by `folio sweep` (cron).

import type { BlobStore } from '../../blobs/blob-store.js';
import { deleteMailFiles, mailFilesBySubmission, removeMailFiles } from '../notify/mail-files.js';
import type { Store } from '../../store/open-store.js';
import {
  type ExpiredSubmission,
  deleteSubmissions,
  deleteUnclaimedUploads,
  existingSubmissionIds,
  filesOfSubmissions,
  type SweepTx,
  inSweepTransaction,
  lockExpiredSubmissions,
  lockUnclaimedUploads,
  purgeDeletedSubmissions,
  releaseCapacity,
} from './retention-repo.js';

/** Where submissions keep files besides the store's rows: both go with the submission. */
export interface SubmissionFiles {
  /** Uploads' bytes. */
  blobs: BlobStore;
  /** `MailConfig.outboxDir`: notification email written as `.eml` files without SMTP_URL. */
  mailDir: string;
}

/** What a sweep deleted. */
export interface SweepCounts {
  /** Submissions past their `delete_after` (inbox and spam). */
  submissions: number;
  /** Uploads no submission claimed within a day (spec 3.3); a deleted submission's uploads are not counted here. */
  uploads: number;
  /** Files deleted from the blob store: those of the deleted submissions and of the unclaimed uploads. */
  files: number;
  /** `.eml` files deleted: those of the deleted submissions, and any whose submission was already gone. */
  mailFiles: number;
}

export interface SweepOptions {
  /** Rows per transaction (default 200): short transactions, bounded memory, locks held briefly. */
  batchSize?: number;
}

export const DEFAULT_SWEEP_BATCH = 200;

/** Blob deletions in flight at once: a batch on S3 takes a few round trips, not 200. */
const PARALLEL_DELETES = 8;

/** Submission ids looked up at once by the sweep of mail files. */
const LOOKUP = 500;

/**
 * Deletes submissions whose `delete_after` has passed at `now` (spec 3.2: `retentionDays` for the inbox, 30 days
 * for spam), with their uploads, notification records and notes, and gives their capacity back (spec 3.1).
 *
 * Each batch is one transaction: lock the batch (other sweepers skip it), lower the counters, delete the files,
 * delete the rows, commit. Files go before the rows commit, so a crash in between leaves rows whose files are
 * gone, and the next run deletes them again (deleting a missing blob is no error): idempotent, nothing orphaned.
 */
export async function sweepExpiredSubmissions(
  store: Store,
  files: SubmissionFiles,
  now: Date,
  opts: SweepOptions = {},
): Promise<SweepCounts> {
  const limit = opts.batchSize ?? DEFAULT_SWEEP_BATCH;
  return inBatches(() =>
    inSweepTransaction(store, async (s) => {
      const expired = await lockExpiredSubmissions(s, now.toISOString(), limit);
      if (expired.length === 0) return null;
      return { ...(await deleteSubmissionsWithFiles(s, files, expired)), uploads: 0 };
    }),
  );
}

/**
 * Deletes locked submissions with everything stored for them (files, `.eml` files, notes, notification records,
 * outbox rows) and gives their capacity back, in the caller's sweep transaction: the one way submissions are deleted
 * (retention, the inbox's delete, erase). Files go before the rows commit; a crash between is repaired by running
 * it again.
 */
export async function deleteSubmissionsWithFiles(
  s: SweepTx,
  stores: SubmissionFiles,
  submissions: readonly ExpiredSubmission[],
): Promise<{ submissions: number; files: number; mailFiles: number }> {
  const ids = submissions.map((e) => e.id);
  const files = await filesOfSubmissions(s, ids);
  await releaseCapacity(s, inboxCounts(submissions));
  await deleteBlobs(
    stores.blobs,
    files.map((f) => f.blobKey),
  );
  const mailFiles = await deleteMailFiles(stores.mailDir, ids);
  return { submissions: await deleteSubmissions(s, ids), files: files.length, mailFiles };
}

/**
 * Deletes the `.eml` files whose submission is gone: one written while its submission was being deleted (the
 * handler had read it just before), or in this machine's directory for a submission another machine erased. Names
 * Folio did not write are left alone.
 */
export async function sweepMailFiles(store: Store, mailDir: string): Promise<number> {
  const files = await mailFilesBySubmission(mailDir);
  const ids = [...files.keys()];
  let removed = 0;
  for (let i = 0; i < ids.length; i += LOOKUP) {
    const chunk = ids.slice(i, i + LOOKUP);
    const kept = await existingSubmissionIds(store, chunk);
    const gone = chunk.filter((id) => !kept.has(id)).flatMap((id) => files.get(id) ?? []);
    removed += await removeMailFiles(mailDir, gone);
  }
  return removed;
}

/** Deletes uploads no submission claimed before they expired (spec 3.3: one day): file first, then row. */
export async function sweepUnclaimedUploads(
  store: Store,
  blobs: BlobStore,
  now: Date,
  opts: SweepOptions = {},
): Promise<SweepCounts> {
  const limit = opts.batchSize ?? DEFAULT_SWEEP_BATCH;
  return inBatches(() =>
    inSweepTransaction(store, async (s) => {
      const expired = await lockUnclaimedUploads(s, now.toISOString(), limit);
      if (expired.length === 0) return null;
      await deleteBlobs(
        blobs,
        expired.map((f) => f.blobKey),
      );
      const uploads = await deleteUnclaimedUploads(
        s,
        expired.map((f) => f.id),
      );
      return { submissions: 0, uploads, files: expired.length, mailFiles: 0 };
    }),
  );
}

/**
 * Every sweep, as the job runner and `folio sweep` run them, then the purge of deleted rows from the store's
 * files. The purge runs whatever this run deleted: it also bounds how long rows deleted otherwise (the
 * inbox's delete, a note deleted, finished jobs) stay readable in the SQLite WAL, to the next sweep (about hourly).
 */
export async function sweepRetention(
  store: Store,
  files: SubmissionFiles,
  now: Date,
  opts: SweepOptions = {},
): Promise<SweepCounts> {
  const submissions = await sweepExpiredSubmissions(store, files, now, opts);
  const uploads = await sweepUnclaimedUploads(store, files.blobs, now, opts);
  const orphans = await sweepMailFiles(store, files.mailDir);
  await purgeDeletedSubmissions(store);
  return {
    submissions: submissions.submissions,
    uploads: uploads.uploads,
    files: submissions.files + uploads.files,
    mailFiles: submissions.mailFiles + orphans,
  };
}

/** Runs batches until one finds nothing (rows another sweeper holds are its to delete), adding up the counts. */
async function inBatches(batch: () => Promise<SweepCounts | null>): Promise<SweepCounts> {
  const total: SweepCounts = { submissions: 0, uploads: 0, files: 0, mailFiles: 0 };
  for (;;) {
    const counts = await batch();
    if (counts === null) return total;
    total.submissions += counts.submissions;
    total.uploads += counts.uploads;
    total.files += counts.files;
    total.mailFiles += counts.mailFiles;
  }
}

/** Deleted inbox submissions per form: the capacity they held (spam never counted). */
function inboxCounts(
  expired: readonly ExpiredSubmission[],
): { spaceId: string; formKey: string; count: number }[] {
  const byForm = new Map<string, { spaceId: string; formKey: string; count: number }>();
  for (const e of expired) {
    if (e.folder !== 'inbox') continue;
    const key = `${e.spaceId}\n${e.formKey}`;
    const entry = byForm.get(key) ?? { spaceId: e.spaceId, formKey: e.formKey, count: 0 };
    entry.count += 1;
    byForm.set(key, entry);
  }
  return [...byForm.values()];
}

async function deleteBlobs(blobs: BlobStore, keys: readonly string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += PARALLEL_DELETES) {
    await Promise.all(keys.slice(i, i + PARALLEL_DELETES).map((key) => blobs.delete(key)));
  }
}

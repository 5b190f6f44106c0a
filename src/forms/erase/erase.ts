// spec 4.5 "POST /forms/erase": a visitor asks to be forgotten. The address, normalized as uniqueField compares it
// (case, fullwidth forms and invisible characters make no other person), is looked up among the
// addresses of every submission's email fields (every form, deleted forms and the spam folder included); `dryRun`
// only counts; otherwise the matching submissions go with their notes, files, mail files, notification records and
// outbox rows, and the store's files are purged of them. The activity log records who, when and the counts, never
// the address.

import { recordActivity } from '../../activity/activity-repo.js';
import { invalidBody } from '../../errors/errors.js';
import type { Log } from '../../observability/log.js';
import type { Store } from '../../store/open-store.js';
import { submissionsWithAddress } from '../submission/addresses-repo.js';
import { isEmail, normalizeEmail } from '../rules/index.js';
import {
  inSweepTransaction,
  lockSubmissionsById,
  purgeDeletedSubmissions,
} from '../retention/retention-repo.js';
import { deleteSubmissionsWithFiles, type SubmissionFiles } from '../retention/sweeps.js';
import { countFilesOf } from './erase-repo.js';

/** Submissions read per page, and deleted per transaction. */
const PAGE = 500;
/** A dry run names at most this many of the submissions it would delete (the counts cover every one). */
export const MAX_DRY_RUN_ITEMS = 100;

/** A submission a dry run found: enough to open it in the inbox. */
export interface ErasableSubmission {
  id: string;
  form: string;
  folder: 'inbox' | 'spam';
  createdAt: string;
}

export interface EraseRequest {
  spaceId: string;
  email: unknown;
  dryRun: boolean;
  /** The management token id that asked (the activity log's actor). */
  actor: string;
}

export interface EraseResult {
  dryRun: boolean;
  /** Submissions that hold the address (deleted unless dryRun). */
  submissions: number;
  /** Their files (deleted unless dryRun: counted as deleted). */
  files: number;
  /** Per form key, inbox and spam counts, in form key order. */
  forms: { form: string; inbox: number; spam: number }[];
  /** Dry run: the submissions it would delete, newest first, at most MAX_DRY_RUN_ITEMS; empty otherwise. */
  items: ErasableSubmission[];
}

/**
 * The address as compared (`normalizeEmail`, as submissions' addresses were stored). The request may hold what a
 * submission could not (a bidi control, pasted along): it is removed, not refused.
 */
export function normaliseAddress(value: unknown): string {
  const address = typeof value === 'string' ? normalizeEmail(value) : '';
  if (!isEmail(address))
    throw invalidBody('Send { "email": "<address>" } with a valid email address.', {
      details: { fields: { email: { code: 'invalid_email', message: 'Enter a valid email address.' } } },
    });
  return address;
}

export async function eraseAddress(
  deps: { store: Store; log?: Log } & SubmissionFiles,
  req: EraseRequest,
): Promise<EraseResult> {
  const address = normaliseAddress(req.email);
  const { store } = deps;
  const byForm = new Map<string, { inbox: number; spam: number }>();
  let submissions = 0;
  let files = 0;
  let after: string | null = null;
  const found: ErasableSubmission[] = [];
  for (;;) {
    const page = await submissionsWithAddress(store, req.spaceId, address, after, PAGE);
    if (page.length === 0) break;
    after = page[page.length - 1]?.id ?? null;
    if (req.dryRun) {
      files += await countFilesOf(
        store,
        page.map((m) => m.id),
      );
      for (const m of page) {
        tally(byForm, m.formKey, m.folder);
        found.push({ id: m.id, form: m.formKey, folder: m.folder, createdAt: m.createdAt });
      }
      // Newest first, and only as many as are answered: memory stays bounded however many match.
      found.sort((a, b) =>
        a.createdAt > b.createdAt ? -1 : a.createdAt < b.createdAt ? 1 : a.id < b.id ? -1 : 1,
      );
      found.splice(MAX_DRY_RUN_ITEMS);
      submissions += page.length;
      continue;
    }
    // One transaction per batch: what one batch deleted stays deleted if a later one fails.
    const done = await inSweepTransaction(store, async (s) => {
      const locked = await lockSubmissionsById(
        s,
        req.spaceId,
        page.map((m) => m.id),
      );
      return { locked, ...(await deleteSubmissionsWithFiles(s, deps, locked)) };
    });
    for (const l of done.locked) tally(byForm, l.formKey, l.folder);
    submissions += done.submissions;
    files += done.files;
  }
  const forms = [...byForm].sort(([a], [b]) => (a < b ? -1 : 1)).map(([form, n]) => ({ form, ...n }));
  await recordActivity(store.db, {
    spaceId: req.spaceId,
    actor: req.actor,
    action: 'forms.erased',
    subject: null,
    details: { dryRun: req.dryRun, submissions, files, forms: forms.length },
  });
  // The erased rows out of the store's files too (SQLite's WAL; PostgreSQL's dead tuples pruned).
  // The rows are deleted whatever happens here: a failure is logged, and the next sweep purges again.
  if (!req.dryRun && submissions > 0)
    await purgeDeletedSubmissions(store).catch((err: unknown) =>
      deps.log?.warn({ err }, 'erase: purging the deleted rows from the store files failed'),
    );
  return { dryRun: req.dryRun, submissions, files, forms, items: found };
}

function tally(byForm: Map<string, { inbox: number; spam: number }>, form: string, folder: 'inbox' | 'spam') {
  const n = byForm.get(form) ?? { inbox: 0, spam: 0 };
  n[folder] += 1;
  byForm.set(form, n);
}

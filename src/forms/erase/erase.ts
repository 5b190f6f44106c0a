// spec 4.5 "POST /forms/erase": a visitor asks to be forgotten. Every email field of every form (deleted forms and
// the spam folder included) is searched for the address, case-insensitively; `dryRun` only counts; otherwise the
// matching submissions go with their notes, files, notification records and outbox rows.
// The activity log records who, when and the counts, never the address.

import { recordActivity } from '../../activity/activity-repo.js';
import { invalidBody } from '../../errors/errors.js';
import type { Store } from '../../store/open-store.js';
import { isEmail } from '../rules/index.js';
import type { Log } from '../../observability/log.js';
import {
  inSweepTransaction,
  lockSubmissionsById,
  purgeDeletedSubmissions,
} from '../retention/retention-repo.js';
import { deleteSubmissionsWithFiles, type SubmissionFiles } from '../retention/sweeps.js';
import { type EraseCandidate, emailFieldsByForm, eraseCandidates } from './erase-repo.js';

/** Candidates read per page, and submissions deleted per transaction. */
const PAGE = 500;

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
}

/** The address as compared: trimmed, lower-cased (addresses are compared case-insensitively, as uniqueField is). */
export function normaliseAddress(value: unknown): string {
  if (typeof value !== 'string' || value.trim().length > 254 || !isEmail(value.trim()))
    throw invalidBody('Send { "email": "<address>" } with a valid email address.', {
      details: { fields: { email: { code: 'invalid_email', message: 'Enter a valid email address.' } } },
    });
  return value.trim().toLowerCase();
}

const sameAddress = (value: unknown, address: string): boolean =>
  typeof value === 'string'
    ? value.trim().toLowerCase() === address
    : Array.isArray(value) && value.some((v) => sameAddress(v, address));

/**
 * Whether a submission holds the address in an email field: the form's email fields over its whole history; for a
 * form of which no definition is known any more, any value that is exactly the address. The uniqueField copy counts
 * too.
 */
export function holdsAddress(
  c: EraseCandidate,
  emailFields: ReadonlySet<string> | undefined,
  address: string,
) {
  if (c.uniqueKey === address) return true;
  if (typeof c.values !== 'object' || c.values === null || Array.isArray(c.values)) return false;
  const values = c.values as Record<string, unknown>;
  const keys = emailFields && emailFields.size > 0 ? [...emailFields] : Object.keys(values);
  return keys.some((k) => Object.hasOwn(values, k) && sameAddress(values[k], address));
}

export async function eraseAddress(
  deps: { store: Store; log?: Log } & SubmissionFiles,
  req: EraseRequest,
): Promise<EraseResult> {
  const address = normaliseAddress(req.email);
  const { store } = deps;
  const emailFields = await emailFieldsByForm(store, req.spaceId);
  const byForm = new Map<string, { inbox: number; spam: number }>();
  let submissions = 0;
  let files = 0;
  let after: string | null = null;
  for (;;) {
    const page = await eraseCandidates(store, req.spaceId, address, after, PAGE);
    if (page.length === 0) break;
    after = page[page.length - 1]?.id ?? null;
    const matched = page.filter((c) => holdsAddress(c, emailFields.get(c.formKey), address));
    if (matched.length === 0) continue;
    if (req.dryRun) {
      files += await countFiles(
        store,
        matched.map((m) => m.id),
      );
      for (const m of matched) tally(byForm, m.formKey, m.folder);
      submissions += matched.length;
      continue;
    }
    // One transaction per batch (issue 11): what one batch deleted stays deleted if a later one fails.
    const done = await inSweepTransaction(store, async (s) => {
      const locked = await lockSubmissionsById(
        s,
        req.spaceId,
        matched.map((m) => m.id),
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
  // issue 28 item 3: the erased rows out of the store's files too (SQLite's WAL; PostgreSQL's dead tuples pruned).
  // The rows are deleted whatever happens here: a failure is logged, and the next sweep purges again.
  if (!req.dryRun && submissions > 0)
    await purgeDeletedSubmissions(store).catch((err: unknown) =>
      deps.log?.warn({ err }, 'erase: purging the deleted rows from the store files failed'),
    );
  return { dryRun: req.dryRun, submissions, files, forms };
}

function tally(byForm: Map<string, { inbox: number; spam: number }>, form: string, folder: 'inbox' | 'spam') {
  const n = byForm.get(form) ?? { inbox: 0, spam: 0 };
  n[folder] += 1;
  byForm.set(form, n);
}

async function countFiles(store: Store, ids: readonly string[]): Promise<number> {
  const row = await store.db
    .selectFrom('uploads')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('submission_id', 'in', [...ids])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

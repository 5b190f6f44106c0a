// Bulk actions on one form's submissions: status, assignment, delete, spam moves. One call is one
// transaction: every targeted row is locked first, then changed in batches, then the activity entry is written;
// an error anywhere rolls the whole call back (files of a bulk delete excepted: see deleteSubmissionsWithFiles).

import { recordActivity } from '../../activity/activity-repo.js';
import { formFull, invalidBody } from '../../errors/errors.js';
import type { Store } from '../../store/open-store.js';
import { inSweepTransaction, type SweepTx } from '../retention/retention-repo.js';
import { deleteSubmissionsWithFiles, type SubmissionFiles } from '../retention/sweeps.js';
import type { BulkInput } from './bodies.js';
import { type Caller, formChoiceKeys, requirePerson } from './inbox.js';
import {
  type FormScope,
  type TargetRow,
  inBatches,
  lockByIds,
  lockMatching,
  markRead,
  updateSubmissions,
} from './inbox-repo.js';
import { moveFromSpam, moveToSpamFolder } from './spam-moves.js';

/**
 * A filter may touch at most this many submissions in one call (400 above it): one transaction holds every row's
 * lock, and a bound keeps that transaction short. Narrow the filter (`from`/`to`) to go through more.
 */
export const MAX_FILTER_MATCHES = 10_000;

export interface BulkResult {
  /** Submissions changed (moved, deleted). */
  count: number;
  /** Spam moves only: submissions not moved to the inbox because the form is full (spec 3.1). */
  skipped?: number;
}

export async function runBulk(
  deps: { store: Store } & SubmissionFiles,
  scope: FormScope,
  input: BulkInput,
  caller: Caller,
): Promise<BulkResult> {
  const choiceKeys =
    input.target.kind === 'filter' ? await formChoiceKeys(deps.store, scope) : new Set<string>();
  return inSweepTransaction(deps.store, async (s) => {
    if (input.action.kind === 'assign') await requirePerson(s.tx, scope.spaceId, input.action.assignee);
    const rows = await lockTargets(s, scope, input, choiceKeys);
    const { result, details } = await apply(deps, s, scope, input, rows, caller);
    // A call that changed nothing is no change to record; read marks are the caller's own, not a change.
    const marks = input.action.kind === 'read' || input.action.kind === 'unread';
    if (result.count > 0 && !marks) {
      await recordActivity(s.tx, {
        spaceId: scope.spaceId,
        actor: caller.actor,
        action: input.action.kind === 'delete' ? 'submissions.deleted' : 'submissions.updated',
        subject: scope.formKey,
        details: { count: result.count, ...details },
        at: caller.now,
      });
    }
    return result;
  });
}

async function lockTargets(
  s: SweepTx,
  scope: FormScope,
  input: BulkInput,
  choiceKeys: ReadonlySet<string>,
): Promise<TargetRow[]> {
  const target = input.target;
  if (target.kind === 'ids') return lockByIds(s, scope, target.ids);
  const rows = await lockMatching(s, scope, target.filter, MAX_FILTER_MATCHES + 1, choiceKeys);
  if (rows.length > MAX_FILTER_MATCHES)
    throw invalidBody(
      `The filter matches more than ${MAX_FILTER_MATCHES} submissions; narrow it (for example with from and to).`,
      { details: { member: 'filter', max: MAX_FILTER_MATCHES } },
    );
  return rows;
}

type Details = Record<string, string | number | boolean | null>;

async function apply(
  { store, ...files }: { store: Store } & SubmissionFiles,
  s: SweepTx,
  scope: FormScope,
  input: BulkInput,
  rows: readonly TargetRow[],
  caller: Caller,
): Promise<{ result: BulkResult; details: Details }> {
  const ids = rows.map((r) => r.id);
  const now = caller.now.toISOString();
  const action = input.action;
  switch (action.kind) {
    case 'status':
      return {
        result: { count: await updateSubmissions(s.tx, scope, ids, { status: action.status }, now) },
        details: { status: action.status },
      };
    case 'assign':
      return {
        result: { count: await updateSubmissions(s.tx, scope, ids, { assignee: action.assignee }, now) },
        details: { assignee: action.assignee },
      };
    case 'delete': {
      let count = 0;
      for (const batch of inBatches(rows))
        count += (await deleteSubmissionsWithFiles(s, files, batch)).submissions;
      return { result: { count }, details: {} };
    }
    case 'spam': {
      const count = await moveToSpamFolder(s, scope, rows, caller.now);
      return { result: { count, skipped: 0 }, details: { folder: 'spam', skipped: 0 } };
    }
    case 'read':
    case 'unread':
      return {
        result: { count: await markRead(s, scope, ids, caller.actor, action.kind === 'read', now) },
        details: {},
      };
    case 'not_spam': {
      const moved = await moveFromSpam(store, s, scope, rows, caller.now);
      // A single named submission that cannot move answers like a submission to a full form (spec 7.3).
      if (input.target.kind === 'ids' && input.target.ids.length === 1 && moved.skipped > 0)
        throw formFull('The form is full: this submission cannot move back to the inbox.');
      return { result: moved, details: { folder: 'inbox', skipped: moved.skipped } };
    }
  }
}

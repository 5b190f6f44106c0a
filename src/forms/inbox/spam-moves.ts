// Moving submissions between the inbox and the spam folder (spec 3.1, 3.2, 8), on rows the caller locked:
// - inbox → spam: gives the form's capacity back; kept 30 days from the move, or less if its retention ends sooner.
// - spam → inbox: counts toward capacity again; a full form refuses the rows that do not fit (oldest move first);
//   retention becomes `retentionDays` from the submission's creation. Values are moved as stored: a spam row's raw
//   values are not validated again, and it does not take part in `uniqueField` (spam never holds an address).

import type { Store } from '../../store/open-store.js';
import { getAuthoredForm } from '../authoring/forms-repo.js';
import { releaseCapacity, type SweepTx } from '../retention/retention-repo.js';
import {
  type FormScope,
  type TargetRow,
  addToCounter,
  moveToInbox,
  moveToSpam,
  takeCapacity,
} from './inbox-repo.js';
import { DAY_MS } from '../../lib/time.js';
import { DEFAULT_RETENTION_DAYS, SPAM_RETENTION_DAYS } from '../retention/periods.js';

export async function moveToSpamFolder(
  s: SweepTx,
  scope: FormScope,
  rows: readonly TargetRow[],
  now: Date,
): Promise<number> {
  const moving = rows.filter((r) => r.folder === 'inbox');
  if (moving.length === 0) return 0;
  const spamUntil = new Date(now.getTime() + SPAM_RETENTION_DAYS * DAY_MS).toISOString();
  await moveToSpam(
    s.tx,
    moving.map((r) => r.id),
    spamUntil,
    now.toISOString(),
  );
  await releaseCapacity(s, [{ spaceId: scope.spaceId, formKey: scope.formKey, count: moving.length }]);
  return moving.length;
}

export async function moveFromSpam(
  store: Store,
  s: SweepTx,
  scope: FormScope,
  rows: readonly TargetRow[],
  now: Date,
): Promise<{ count: number; skipped: number }> {
  const candidates = rows.filter((r) => r.folder === 'spam');
  if (candidates.length === 0) return { count: 0, skipped: 0 };
  const settings = await formSettings(store, s, scope);
  let granted = candidates.length;
  if (settings.maxSubmissions !== null)
    granted = await takeCapacity(s, scope, settings.maxSubmissions, candidates.length);
  // A form without a capacity keeps any counter it has (from an earlier capacity) equal to its inbox rows.
  else await addToCounter(s, scope, candidates.length);
  // Rows come oldest first: the earliest submissions take the places left.
  const moving = candidates.slice(0, granted);
  for (const r of moving) {
    const deleteAfter = new Date(Date.parse(r.createdAt) + settings.retentionDays * DAY_MS).toISOString();
    await moveToInbox(s.tx, r.id, deleteAfter, now.toISOString());
  }
  return { count: moving.length, skipped: candidates.length - moving.length };
}

/** The settings a move needs, from the authored form (none for a deleted form), checked rather than trusted. */
async function formSettings(
  store: Store,
  s: SweepTx,
  scope: FormScope,
): Promise<{ maxSubmissions: number | null; retentionDays: number }> {
  const form = await getAuthoredForm(store, scope.spaceId, scope.formKey, s.tx);
  // The stored document is read by a cast in forms-repo: its numbers are checked here before they count.
  const max: unknown = form?.settings.maxSubmissions;
  const days: unknown = form?.settings.retentionDays;
  return {
    maxSubmissions: typeof max === 'number' && Number.isInteger(max) && max >= 0 ? max : null,
    retentionDays: typeof days === 'number' && days > 0 ? days : DEFAULT_RETENTION_DAYS,
  };
}

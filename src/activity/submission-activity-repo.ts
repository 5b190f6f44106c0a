// One submission's entries in the activity log: the changes, notes and downloads that name it.
// Bulk changes are recorded once per call with a count (docs/api.md "Inbox"), so they name no submission and are
// not among them.

import type { Store } from '../store/open-store.js';
import { ACTIVITY_ACTIONS, type ActivityAction } from './activity-repo.js';

export interface SubmissionActivity {
  id: string;
  at: string;
  actor: string;
  action: ActivityAction;
  details: Record<string, string | number | boolean | null>;
}

const isAction = (value: string): value is ActivityAction =>
  (ACTIVITY_ACTIONS as readonly string[]).includes(value);
const isScalar = (v: unknown): v is string | number | boolean | null =>
  v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/**
 * Oldest first, at most `limit`. Entries about a submission are written after it was created, so the range starts
 * there (the space's activity index) and only the form's entries naming it in `details.submission` are kept.
 */
export async function listSubmissionActivity(
  store: Store,
  q: { spaceId: string; formKey: string; submissionId: string; since: string; limit: number },
): Promise<SubmissionActivity[]> {
  const rows = await store.db
    .selectFrom('activity_log')
    .select(['id', 'at', 'actor', 'action', 'details'])
    .where('space_id', '=', q.spaceId)
    .where('at', '>=', q.since)
    .where('subject', '=', q.formKey)
    .where(store.dialect.jsonFieldHas('details', 'submission', q.submissionId))
    .orderBy('at')
    .orderBy('id')
    .limit(q.limit)
    .execute();
  return rows.flatMap((r): SubmissionActivity[] => {
    if (!isAction(r.action)) return [];
    const value = store.dialect.parseJson<unknown>(r.details);
    const details: SubmissionActivity['details'] = {};
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      for (const [k, v] of Object.entries(value)) if (isScalar(v)) details[k] = v;
    return [{ id: r.id, at: r.at, actor: r.actor, action: r.action, details }];
  });
}

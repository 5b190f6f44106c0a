// The SQL of the inbox overview (issue 32): counts per form, folder and status, the last submission, and
// submissions per quarter hour of a window (each read from an index: submissions_inbox covers the counts,
// submissions_list the last submission and the window of one form and folder).

import { sql } from 'kysely';
import type { Store } from '../../store/open-store.js';
import type { InboxFolder, SubmissionStatus } from '../inbox/statuses.js';

export interface CountRow {
  formKey: string;
  folder: string;
  status: string;
  count: number;
}

export async function countByFormFolderStatus(store: Store, spaceId: string): Promise<CountRow[]> {
  const rows = await store.db
    .selectFrom('submissions')
    .select(['form_key', 'folder', 'status', (eb) => eb.fn.countAll().as('n')])
    .where('space_id', '=', spaceId)
    .groupBy(['form_key', 'folder', 'status'])
    .orderBy('form_key')
    .orderBy('folder')
    .orderBy('status')
    .execute();
  return rows.map((r) => ({ formKey: r.form_key, folder: r.folder, status: r.status, count: Number(r.n) }));
}

/** The newest `created_at` of the form's submissions in a folder; null when it has none. */
export async function lastSubmissionAt(
  store: Store,
  spaceId: string,
  formKey: string,
  folder: InboxFolder,
): Promise<string | null> {
  const row = await store.db
    .selectFrom('submissions')
    .select('created_at')
    .where('space_id', '=', spaceId)
    .where('form_key', '=', formKey)
    .where('folder', '=', folder)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.created_at ?? null;
}

/**
 * Submissions of one form and folder in [from, to), per quarter hour (UTC): time zones are offset by multiples of
 * 15 minutes, so each quarter lies within one local day of any zone and the caller sums them per day. Answers the
 * quarter's start (ms) and its count.
 */
export async function countPerQuarterHour(
  store: Store,
  q: { spaceId: string; formKey: string; folder: InboxFolder; from: string; to: string },
): Promise<{ start: number; count: number }[]> {
  // `2026-03-01T10:` and the quarter (0–3): text of the stored ISO timestamp, the same on both engines.
  const quarter = sql<string>`substr(created_at, 1, 14) || cast(cast(substr(created_at, 15, 2) as integer) / 15 as text)`;
  const rows = await store.db
    .selectFrom('submissions')
    .select([quarter.as('q'), (eb) => eb.fn.countAll().as('n')])
    .where('space_id', '=', q.spaceId)
    .where('form_key', '=', q.formKey)
    .where('folder', '=', q.folder)
    .where('created_at', '>=', q.from)
    .where('created_at', '<', q.to)
    .groupBy(quarter)
    .orderBy(quarter)
    .execute();
  return rows.map((r) => ({
    start: Date.parse(`${r.q.slice(0, 13)}:00:00.000Z`) + Number(r.q.slice(14)) * 15 * 60_000,
    count: Number(r.n),
  }));
}

export type { SubmissionStatus };

// The SQL of the inbox overview: counts per form, folder and status and per quarter hour, read from the
// counters the store keeps beside `submissions` (migration 0022's triggers), and the last submission (an index).

import type { Store } from '../../store/open-store.js';
import type { InboxFolder } from '../inbox/statuses.js';

export interface CountRow {
  formKey: string;
  folder: string;
  status: string;
  count: number;
}

export async function countByFormFolderStatus(store: Store, spaceId: string): Promise<CountRow[]> {
  const rows = await store.db
    .selectFrom('submission_tallies')
    .select(['form_key', 'folder', 'status', 'n'])
    .where('space_id', '=', spaceId)
    .where('n', '<>', 0)
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

/** The counters' key of the quarter hour an instant is in: `2026-03-01T10:2` for 10:30–10:44 UTC. */
export function quarterKey(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 14)}${Math.floor(Number(iso.slice(14, 16)) / 15)}`;
}

/**
 * Submissions of one form and folder per quarter hour (UTC) in [from, to) (quarter-aligned instants: local days
 * start on quarter hours), ascending: each quarter's start (ms) and count.
 */
export async function countPerQuarterHour(
  store: Store,
  q: { spaceId: string; formKey: string; folder: InboxFolder; from: number; to: number },
): Promise<{ start: number; count: number }[]> {
  const rows = await store.db
    .selectFrom('submission_quarters')
    .select(['quarter', 'n'])
    .where('space_id', '=', q.spaceId)
    .where('form_key', '=', q.formKey)
    .where('folder', '=', q.folder)
    .where('quarter', '>=', quarterKey(q.from))
    .where('quarter', '<', quarterKey(q.to))
    .where('n', '<>', 0)
    .orderBy('quarter')
    .execute();
  return rows.map((r) => ({
    start: Date.parse(`${r.quarter.slice(0, 13)}:00:00.000Z`) + Number(r.quarter.slice(14)) * 15 * 60_000,
    count: Number(r.n),
  }));
}

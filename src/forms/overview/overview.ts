// The inbox overview: every form of the space with its status, counts, last submission
// and submissions per day (inbox and spam) in the space's time zone. Forms deleted while submissions remain are
// listed too (their submissions stay until retention, spec 3.2).

import { notFound } from '../../errors/errors.js';
import { lastLocalDays } from '../../lib/zoned-days.js';
import type { Store } from '../../store/open-store.js';
import { getSpace } from '../../store/spaces-repo.js';
import { listAuthoredForms } from '../authoring/forms-repo.js';
import { isFolder, isSubmissionStatus, SUBMISSION_STATUSES, type InboxFolder } from '../inbox/statuses.js';
import { formStatus, type FormStatus } from '../rules/status.js';
import { countByFormFolderStatus, countPerQuarterHour, lastSubmissionAt } from './overview-repo.js';
import { readCountsByForm } from '../inbox/list-repo.js';

/** The windows the overview answers (30 and 90 days). */
export const OVERVIEW_DAYS = [30, 90] as const;
export type OverviewDays = (typeof OVERVIEW_DAYS)[number];

export interface FormOverview {
  key: string;
  name: string;
  /** Deleted forms whose submissions remain have no status. */
  deleted: boolean;
  status: FormStatus | null;
  /** Inbox per status, per folder, and `unread`: the inbox submissions the calling person has not opened. */
  counts: Record<'new' | 'read' | 'done' | 'archived' | 'inbox' | 'spam' | 'unread', number>;
  lastSubmissionAt: string | null;
  /** Per day of `dates`, oldest first. */
  daily: { inbox: number[]; spam: number[] };
}

export interface Overview {
  timeZone: string;
  dates: string[];
  forms: FormOverview[];
}

const emptyCounts = (): FormOverview['counts'] => ({
  new: 0,
  read: 0,
  done: 0,
  archived: 0,
  inbox: 0,
  spam: 0,
  unread: 0,
});

export async function readOverview(
  store: Store,
  spaceId: string,
  days: OverviewDays,
  now: Date,
  reader: string | null = null,
): Promise<Overview> {
  const space = await getSpace(store, spaceId);
  if (!space) throw notFound(`Space "${spaceId}" not found.`);
  const timeZone = space.settings.timeZone;
  const window = lastLocalDays(timeZone, now.getTime(), days);
  const forms = new Map<string, FormOverview>();
  const blank = (key: string, name: string, deleted: boolean): FormOverview => ({
    key,
    name,
    deleted,
    status: null,
    counts: emptyCounts(),
    lastSubmissionAt: null,
    daily: { inbox: Array<number>(days).fill(0), spam: Array<number>(days).fill(0) },
  });
  const authored = await listAuthoredForms(store, spaceId);
  for (const form of authored) forms.set(form.key, blank(form.key, form.name, false));
  for (const row of await countByFormFolderStatus(store, spaceId)) {
    let form = forms.get(row.formKey);
    if (!form) forms.set(row.formKey, (form = blank(row.formKey, row.formKey, true)));
    if (!isFolder(row.folder)) continue;
    form.counts[row.folder] += row.count;
    if (row.folder === 'inbox' && isSubmissionStatus(row.status)) form.counts[row.status] += row.count;
  }
  const read = reader === null ? new Map<string, number>() : await readCountsByForm(store, spaceId, reader);
  for (const form of forms.values())
    form.counts.unread = Math.max(0, form.counts.inbox - (read.get(form.key) ?? 0));
  for (const def of authored) {
    const form = forms.get(def.key);
    // spec 3.1: the status a submission would meet now; capacity counts stored non-spam submissions.
    if (form) form.status = formStatus(def.settings, { now, nonSpamCount: form.counts.inbox });
  }
  const from = window.days[0]?.start ?? window.end;
  const to = window.end;
  for (const form of forms.values()) {
    if (form.counts.inbox + form.counts.spam === 0) continue;
    form.lastSubmissionAt = await lastSubmissionAt(store, spaceId, form.key, 'inbox');
    for (const folder of ['inbox', 'spam'] as const satisfies readonly InboxFolder[]) {
      if (form.counts[folder] === 0) continue;
      const quarters = await countPerQuarterHour(store, { spaceId, formKey: form.key, folder, from, to });
      addPerDay(form.daily[folder], quarters, window.days);
    }
  }
  return { timeZone, dates: window.days.map((d) => d.date), forms: [...forms.values()] };
}

/** Sums quarter hours (ascending) into the days (ascending) they start in. */
function addPerDay(
  out: number[],
  quarters: readonly { start: number; count: number }[],
  days: readonly { start: number }[],
): void {
  let day = 0;
  for (const q of quarters) {
    while (day + 1 < days.length && (days[day + 1]?.start ?? Infinity) <= q.start) day++;
    out[day] = (out[day] ?? 0) + q.count;
  }
}

export { SUBMISSION_STATUSES };

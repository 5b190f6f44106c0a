// The inbox's SQL (issue 11): one Kysely store for both engines; the JSON conditions come from the store's dialect.

import { sql } from 'kysely';
import type { Store } from '../../store/open-store.js';
import type { Queryable } from '../../store/spaces-repo.js';
import { syncCounter } from '../authoring/forms-repo.js';
import type { ExpiredSubmission, SweepTx } from '../retention/retention-repo.js';
import type { ListPosition } from './cursor.js';
import { type InboxFilter, applyInboxFilter } from './filter.js';
import { type InboxItem, type InboxNote, toItem, toNote } from './items.js';
import type { SubmissionStatus } from './statuses.js';

/** One form of one space: every query here is scoped to it. */
export interface FormScope {
  spaceId: string;
  formKey: string;
}

/** A submission a bulk action or a single change holds locked (the retention repo's shape, plus its dates). */
export interface TargetRow extends ExpiredSubmission {
  createdAt: string;
  deleteAfter: string;
}

/** Rows per statement when a call names many ids: bounded IN lists on both engines. */
const BATCH = 500;

export function inBatches<T>(items: readonly T[], size = BATCH): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function itemQuery(db: Queryable, scope: FormScope) {
  return db
    .selectFrom('submissions')
    .selectAll('submissions')
    .select((eb) =>
      eb
        .selectFrom('submission_notes')
        .select((e) => e.fn.countAll().as('n'))
        .whereRef('submission_notes.submission_id', '=', 'submissions.id')
        .as('note_count'),
    )
    .where('submissions.space_id', '=', scope.spaceId)
    .where('submissions.form_key', '=', scope.formKey);
}

/** Newest first; the keyset (created_at, id) keeps pages stable while submissions arrive. */
export async function listItems(
  store: Store,
  scope: FormScope,
  filter: InboxFilter,
  page: { limit: number; after: ListPosition | null },
): Promise<{ items: InboxItem[]; last: ListPosition | null }> {
  let q = applyInboxFilter(itemQuery(store.db, scope), filter, store.dialect);
  const after = page.after;
  if (after !== null) {
    // `created_at <= a AND (created_at < a OR id < b)` rather than one OR: both engines seek the inbox index.
    q = q
      .where('submissions.created_at', '<=', after.createdAt)
      .where((eb) =>
        eb.or([eb('submissions.created_at', '<', after.createdAt), eb('submissions.id', '<', after.id)]),
      );
  }
  const rows = await q
    .orderBy('submissions.created_at', 'desc')
    .orderBy('submissions.id', 'desc')
    .limit(page.limit + 1)
    .execute();
  const items = rows.slice(0, page.limit).map((r) => toItem(r, (v) => store.dialect.parseJson<unknown>(v)));
  const lastItem = items[items.length - 1];
  return {
    items,
    last: rows.length > page.limit && lastItem ? { createdAt: lastItem.createdAt, id: lastItem.id } : null,
  };
}

export async function getItem(
  store: Store,
  scope: FormScope,
  id: string,
  db: Queryable = store.db,
): Promise<InboxItem | null> {
  const row = await itemQuery(db, scope).where('submissions.id', '=', id).executeTakeFirst();
  return row ? toItem(row, (v) => store.dialect.parseJson<unknown>(v)) : null;
}

/** Oldest first, as a thread reads. */
export async function listNotes(db: Queryable, submissionId: string): Promise<InboxNote[]> {
  const rows = await db
    .selectFrom('submission_notes')
    .select(['id', 'text', 'author', 'created_at'])
    .where('submission_id', '=', submissionId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toNote);
}

/**
 * Sets `updated_at` (and the given columns) of the named submissions of the form; returns how many it changed. On
 * PostgreSQL the UPDATE also locks them until commit (a note cannot be added to a submission being deleted).
 */
export async function updateSubmissions(
  db: Queryable,
  scope: FormScope,
  ids: readonly string[],
  change: { status?: SubmissionStatus; assignee?: string | null },
  now: string,
): Promise<number> {
  let count = 0;
  for (const batch of inBatches(ids)) {
    const r = await db
      .updateTable('submissions')
      .set({
        updated_at: now,
        ...(change.status === undefined ? {} : { status: change.status }),
        ...(change.assignee === undefined ? {} : { assignee: change.assignee }),
      })
      .where('space_id', '=', scope.spaceId)
      .where('form_key', '=', scope.formKey)
      .where('id', 'in', batch)
      .executeTakeFirst();
    count += Number(r.numUpdatedRows);
  }
  return count;
}

export async function insertNote(
  db: Queryable,
  note: InboxNote & { spaceId: string; submissionId: string },
): Promise<void> {
  await db
    .insertInto('submission_notes')
    .values({
      id: note.id,
      space_id: note.spaceId,
      submission_id: note.submissionId,
      text: note.text,
      author: note.author,
      created_at: note.createdAt,
    })
    .execute();
}

export async function deleteNote(db: Queryable, submissionId: string, noteId: string): Promise<boolean> {
  const r = await db
    .deleteFrom('submission_notes')
    .where('submission_id', '=', submissionId)
    .where('id', '=', noteId)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

const targetColumns = ['id', 'space_id', 'form_key', 'folder', 'created_at', 'delete_after'] as const;

function toTarget(r: {
  id: string;
  space_id: string;
  form_key: string;
  folder: 'inbox' | 'spam';
  created_at: string;
  delete_after: string;
}): TargetRow {
  return {
    id: r.id,
    spaceId: r.space_id,
    formKey: r.form_key,
    folder: r.folder,
    createdAt: r.created_at,
    deleteAfter: r.delete_after,
  };
}

/**
 * Locks the form's submissions a call names (ids that are not the form's are left out); answers them oldest first.
 * PostgreSQL waits for rows another transaction holds (`FOR UPDATE`), taking them in id order as lockMatching and
 * erase do, so calls over the same rows queue (a deadlock that slips through ends one call whole, with a 500).
 * SQLite's transaction writes alone.
 */
export async function lockByIds(s: SweepTx, scope: FormScope, ids: readonly string[]): Promise<TargetRow[]> {
  const out: TargetRow[] = [];
  for (const batch of inBatches([...new Set(ids)].sort())) {
    const rows = await s.tx
      .selectFrom('submissions')
      .select(targetColumns)
      .where('space_id', '=', scope.spaceId)
      .where('form_key', '=', scope.formKey)
      .where('id', 'in', batch)
      .orderBy('id')
      .$if(s.dialect.rowLocks, (qb) => qb.forUpdate())
      .execute();
    out.push(...rows.map(toTarget));
  }
  return out.sort(oldestFirst);
}

/** Locks up to `limit` of the form's submissions matching the filter (in id order, as lockByIds); oldest first. */
export async function lockMatching(
  s: SweepTx,
  scope: FormScope,
  filter: InboxFilter,
  limit: number,
): Promise<TargetRow[]> {
  const base = s.tx
    .selectFrom('submissions')
    .select(targetColumns)
    .where('submissions.space_id', '=', scope.spaceId)
    .where('submissions.form_key', '=', scope.formKey);
  const rows = await applyInboxFilter(base, filter, s.dialect)
    .orderBy('submissions.id')
    .limit(limit)
    .$if(s.dialect.rowLocks, (qb) => qb.forUpdate())
    .execute();
  return rows.map(toTarget).sort(oldestFirst);
}

function oldestFirst(a: TargetRow, b: TargetRow): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Inbox → spam: `delete_after` becomes the earlier of the one it had and `spamUntil` (spec 3.2, 8: spam is kept
 * 30 days; a shorter retention still applies), and the uniqueField copy goes (spam never holds an address, as
 * submit stores it), so the visitor may submit again.
 */
export async function moveToSpam(
  tx: Queryable,
  ids: readonly string[],
  spamUntil: string,
  now: string,
): Promise<void> {
  for (const batch of inBatches(ids)) {
    await tx
      .updateTable('submissions')
      .set({ delete_after: spamUntil })
      .where('id', 'in', batch)
      .where('delete_after', '>', spamUntil)
      .execute();
    await tx
      .updateTable('submissions')
      .set({ folder: 'spam', unique_key: null, updated_at: now })
      .where('id', 'in', batch)
      .execute();
  }
}

/** Spam → inbox with the inbox retention computed from its creation. */
export async function moveToInbox(
  tx: Queryable,
  id: string,
  deleteAfter: string,
  now: string,
): Promise<void> {
  await tx
    .updateTable('submissions')
    .set({ folder: 'inbox', delete_after: deleteAfter, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/**
 * Takes up to `wanted` places of a form's capacity (spec 3.1) in one step and returns how many it got. The first
 * UPDATE locks the counter row (as claimCapacity's does) before it is read, so concurrent submissions wait and the
 * count never passes `max`. A form stored without a counter gets one, counted first.
 */
export async function takeCapacity(
  s: SweepTx,
  scope: FormScope,
  max: number,
  wanted: number,
): Promise<number> {
  const lockAndRead = () =>
    s.tx
      .updateTable('form_counters')
      .set((eb) => ({ count: eb.ref('count') }))
      .where('space_id', '=', scope.spaceId)
      .where('form_key', '=', scope.formKey)
      .returning('count')
      .executeTakeFirst();
  let row = await lockAndRead();
  if (!row) {
    await syncCounter(s.tx, scope.spaceId, scope.formKey);
    row = await lockAndRead();
  }
  const granted = Math.max(0, Math.min(wanted, max - Number(row?.count ?? max)));
  if (granted > 0) await addToCounter(s, scope, granted);
  return granted;
}

/** Counts moved inbox submissions on the form's counter, when it has one (a form with a capacity once). */
export async function addToCounter(s: SweepTx, scope: FormScope, n: number): Promise<void> {
  await s.tx
    .updateTable('form_counters')
    .set({ count: sql<number>`count + ${n}` })
    .where('space_id', '=', scope.spaceId)
    .where('form_key', '=', scope.formKey)
    .execute();
}

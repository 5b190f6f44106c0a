// The inbox's SQL: one Kysely store for both engines; the JSON conditions come from the store's dialect.

import { sql } from 'kysely';
import type { Store } from '../../store/open-store.js';
import type { Queryable } from '../../store/spaces-repo.js';
import { syncCounter } from '../authoring/forms-repo.js';
import type { ExpiredSubmission, SweepTx } from '../retention/retention-repo.js';
import { type InboxFilter, applyInboxFilter } from './filter.js';
import { type InboxItem, type InboxNote, toItem, toNote } from './items.js';
import { listPeople } from '../../store/tokens-repo.js';
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

/**
 * The form's submissions with their note count and, for a reader (a management token id), whether they opened it.
 * Used by the list (list-repo.ts) and the single reads below.
 */
export function itemQuery(db: Queryable, scope: FormScope, reader: string | null) {
  return itemsWithExtras(db, reader)
    .where('submissions.space_id', '=', scope.spaceId)
    .where('submissions.form_key', '=', scope.formKey);
}

/**
 * Submissions by id, with the same columns as itemQuery but no condition on space and form: with them, SQLite
 * took the (space, form) index and read every submission of the form instead of looking the ids up (110 ms for 51
 * ids of 100k). The caller checks the rows' space and form.
 */
export function itemsByIds(db: Queryable, ids: readonly string[], reader: string | null) {
  return itemsWithExtras(db, reader).where('submissions.id', 'in', ids.length === 0 ? [''] : [...ids]);
}

function itemsWithExtras(db: Queryable, reader: string | null) {
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
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('submission_reads')
            .select(eb.lit(1).as('one'))
            .whereRef('submission_reads.submission_id', '=', 'submissions.id')
            .where('submission_reads.reader_id', '=', reader ?? ''),
        )
        .as('is_read'),
    );
}

/** The names of the space's people by id (for `assigneeName`). */
export async function peopleNames(db: Queryable, spaceId: string): Promise<Map<string, string>> {
  return new Map((await listPeople(db, spaceId)).map((p) => [p.id, p.name]));
}

export async function getItem(
  store: Store,
  scope: FormScope,
  id: string,
  db: Queryable = store.db,
  reader: string | null = null,
): Promise<InboxItem | null> {
  const row = await itemQuery(db, scope, reader).where('submissions.id', '=', id).executeTakeFirst();
  if (!row) return null;
  const people = await peopleNames(db, scope.spaceId);
  return toItem(row, (v) => store.dialect.parseJson<unknown>(v), people);
}

/**
 * Marks the form's named submissions read by `reader` (`read_at` now; a mark already there stays as it was) or
 * unread; returns how many of the ids are the form's. The submissions are locked first (PostgreSQL): a delete
 * running at the same time either waits for the mark or is seen here, so no mark outlives its submission.
 */
export async function markRead(
  s: SweepTx,
  scope: FormScope,
  ids: readonly string[],
  reader: string,
  read: boolean,
  now: string,
): Promise<number> {
  let count = 0;
  for (const batch of inBatches([...new Set(ids)].sort())) {
    const rows = await s.tx
      .selectFrom('submissions')
      .select(['id', 'folder'])
      .where('space_id', '=', scope.spaceId)
      .where('form_key', '=', scope.formKey)
      .where('id', 'in', batch)
      .orderBy('id')
      .$if(s.dialect.rowLocks, (qb) => qb.forUpdate())
      .execute();
    count += rows.length;
    if (rows.length === 0) continue;
    if (read)
      await s.tx
        .insertInto('submission_reads')
        .values(
          rows.map((r) => ({
            submission_id: r.id,
            reader_id: reader,
            space_id: scope.spaceId,
            form_key: scope.formKey,
            folder: r.folder,
            read_at: now,
          })),
        )
        .onConflict((oc) => oc.columns(['submission_id', 'reader_id']).doNothing())
        .execute();
    else
      await s.tx
        .deleteFrom('submission_reads')
        .where('reader_id', '=', reader)
        .where(
          'submission_id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
  }
  return count;
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
        // A person replaces any name given before people existed.
        ...(change.assignee === undefined ? {} : { assignee_id: change.assignee, assignee: null }),
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
  choiceKeys: ReadonlySet<string> = new Set(),
): Promise<TargetRow[]> {
  const base = s.tx
    .selectFrom('submissions')
    .select(targetColumns)
    .where('submissions.space_id', '=', scope.spaceId)
    .where('submissions.form_key', '=', scope.formKey);
  const rows = await applyInboxFilter(base, filter, s.dialect, choiceKeys)
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

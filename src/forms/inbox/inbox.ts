// The inbox's operations on one form's submissions (issue 11; spec 3.2, 4.5): list, read, change, notes, delete.
// No HTTP here (routes.ts parses and answers); every change is one transaction with its activity entry.

import { recordActivity } from '../../activity/activity-repo.js';
import { newId } from '../../lib/ids.js';
import { notFound } from '../../errors/errors.js';
import type { Store } from '../../store/open-store.js';
import { hasFormOrSubmissions } from '../authoring/management.js';
import { inSweepTransaction } from '../retention/retention-repo.js';
import { deleteSubmissionsWithFiles, type SubmissionFiles } from '../retention/sweeps.js';
import type { NoteInput, SubmissionChange } from './bodies.js';
import { type ListPosition, encodeCursor } from './cursor.js';
import type { InboxFilter } from './filter.js';
import {
  type FormScope,
  deleteNote,
  getItem,
  insertNote,
  listItems,
  listNotes,
  lockByIds,
  updateSubmissions,
} from './inbox-repo.js';
import type { InboxItem, InboxNote } from './items.js';

/** Who acts and when: the management token's id (the activity log's actor) and the service's clock. */
export interface Caller {
  actor: string;
  now: Date;
}

export type SubmissionDetail = InboxItem & { notes: InboxNote[] };

const submissionNotFound = (id: string) => notFound(`Submission "${id}" not found in this form.`);

/** A key with neither a form nor a stored submission is 404; a deleted form's submissions stay (spec 3.2). */
export async function requireForm(store: Store, scope: FormScope): Promise<void> {
  if (!(await hasFormOrSubmissions(store, scope.spaceId, scope.formKey)))
    throw notFound(`Form "${scope.formKey}" not found.`);
}

export async function listInbox(
  store: Store,
  scope: FormScope,
  filter: InboxFilter,
  page: { limit: number; after: ListPosition | null },
): Promise<{ items: InboxItem[]; nextCursor: string | null }> {
  await requireForm(store, scope);
  const { items, last } = await listItems(store, scope, filter, page);
  return { items, nextCursor: last === null ? null : encodeCursor(last) };
}

/** Reading does not change the status: `read` is set by the caller (a screen may preview without opening). */
export async function readSubmission(store: Store, scope: FormScope, id: string): Promise<SubmissionDetail> {
  const item = await getItem(store, scope, id);
  if (!item) throw submissionNotFound(id);
  return { ...item, notes: await listNotes(store.db, id) };
}

export async function changeSubmission(
  store: Store,
  scope: FormScope,
  id: string,
  change: SubmissionChange,
  caller: Caller,
): Promise<SubmissionDetail> {
  return inSweepTransaction(store, async ({ tx }) => {
    if ((await updateSubmissions(tx, scope, [id], change, caller.now.toISOString())) === 0)
      throw submissionNotFound(id);
    await recordActivity(tx, {
      spaceId: scope.spaceId,
      actor: caller.actor,
      action: 'submissions.updated',
      subject: scope.formKey,
      details: { count: 1, submission: id, ...change },
      at: caller.now,
    });
    const item = await getItem(store, scope, id, tx);
    if (!item) throw submissionNotFound(id);
    return { ...item, notes: await listNotes(tx, id) };
  });
}

/** A note's author is the person the caller names (tokens belong to tools, not people). */
export async function addNote(
  store: Store,
  scope: FormScope,
  id: string,
  input: NoteInput,
  caller: Caller,
): Promise<InboxNote> {
  const note: InboxNote = {
    id: newId('nte'),
    text: input.text,
    author: input.author,
    createdAt: caller.now.toISOString(),
  };
  return inSweepTransaction(store, async ({ tx }) => {
    // Touching the submission first locks it: a concurrent delete either waits for this note or is seen here.
    if ((await updateSubmissions(tx, scope, [id], {}, note.createdAt)) === 0) throw submissionNotFound(id);
    await insertNote(tx, { ...note, spaceId: scope.spaceId, submissionId: id });
    await recordActivity(tx, {
      spaceId: scope.spaceId,
      actor: caller.actor,
      action: 'submission.note_added',
      subject: scope.formKey,
      details: { submission: id, note: note.id },
      at: caller.now,
    });
    return note;
  });
}

export async function removeNote(
  store: Store,
  scope: FormScope,
  id: string,
  noteId: string,
  caller: Caller,
): Promise<{ id: string; deleted: true }> {
  return inSweepTransaction(store, async ({ tx }) => {
    if ((await updateSubmissions(tx, scope, [id], {}, caller.now.toISOString())) === 0)
      throw submissionNotFound(id);
    if (!(await deleteNote(tx, id, noteId))) throw notFound(`Note "${noteId}" not found on this submission.`);
    await recordActivity(tx, {
      spaceId: scope.spaceId,
      actor: caller.actor,
      action: 'submission.note_deleted',
      subject: scope.formKey,
      details: { submission: id, note: noteId },
      at: caller.now,
    });
    return { id: noteId, deleted: true };
  });
}

/** Deletes one submission as retention would: notes, uploads and files, notification records, capacity back. */
export async function deleteOne(
  deps: { store: Store } & SubmissionFiles,
  scope: FormScope,
  id: string,
  caller: Caller,
): Promise<{ id: string; deleted: true; files: number }> {
  return inSweepTransaction(deps.store, async (s) => {
    const locked = await lockByIds(s, scope, [id]);
    if (locked.length === 0) throw submissionNotFound(id);
    const done = await deleteSubmissionsWithFiles(s, deps, locked);
    await recordActivity(s.tx, {
      spaceId: scope.spaceId,
      actor: caller.actor,
      action: 'submissions.deleted',
      subject: scope.formKey,
      details: { count: done.submissions, submission: id },
      at: caller.now,
    });
    return { id, deleted: true, files: done.files };
  });
}

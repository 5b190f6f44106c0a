// The inbox's operations on one form's submissions (spec 3.2, 4.5): list, read, change, notes, delete.
// No HTTP here (routes.ts parses and answers); every change is one transaction with its activity entry.

import { recordActivity } from '../../activity/activity-repo.js';
import { newId } from '../../lib/ids.js';
import { invalidBody, notFound } from '../../errors/errors.js';
import type { Store } from '../../store/open-store.js';
import { listPeople, type TokenPerson } from '../../store/tokens-repo.js';
import type { Queryable } from '../../store/spaces-repo.js';
import { getAuthoredForm } from '../authoring/forms-repo.js';
import { hasFormOrSubmissions } from '../authoring/management.js';
import { readPublishedForm } from '../delivery/published-forms-repo.js';
import { choiceKeys } from '../submission/chosen-options.js';
import { inSweepTransaction } from '../retention/retention-repo.js';
import { deleteSubmissionsWithFiles, type SubmissionFiles } from '../retention/sweeps.js';
import type { NoteInput, SubmissionChange } from './bodies.js';
import { type ListOrder, type ListPosition, encodeCursor } from './cursor.js';
import type { InboxFilter } from './filter.js';
import {
  type FormScope,
  deleteNote,
  getItem,
  insertNote,
  listNotes,
  lockByIds,
  markRead,
  updateSubmissions,
} from './inbox-repo.js';
import type { InboxItem, InboxNote } from './items.js';
import { listPage, unreadCount } from './list-repo.js';

/**
 * Who acts and when: the management token's id (the activity log's actor, and the person: read marks and
 * assignments name it), the person it stands for (null for a tool's token) and the service's clock.
 */
export interface Caller {
  actor: string;
  person: TokenPerson | null;
  now: Date;
}

export type SubmissionDetail = InboxItem & { notes: InboxNote[] };

const submissionNotFound = (id: string) => notFound(`Submission "${id}" not found in this form.`);

/** A key with neither a form nor a stored submission is 404; a deleted form's submissions stay (spec 3.2). */
export async function requireForm(store: Store, scope: FormScope): Promise<void> {
  if (!(await hasFormOrSubmissions(store, scope.spaceId, scope.formKey)))
    throw notFound(`Form "${scope.formKey}" not found.`);
}

/**
 * The keys of the form's choice fields (select, radio, checkboxes, checkbox) as authored now, or as last published
 * for a deleted form: a `field[<key>]` filter on one of them is read from the options submissions chose.
 */
export async function formChoiceKeys(store: Store, scope: FormScope): Promise<Set<string>> {
  return (await formChoices(store, scope)).keys;
}

/** The choice keys, and whether the form is authored (then it exists: no need to look for its submissions). */
async function formChoices(
  store: Store,
  scope: FormScope,
): Promise<{ authored: boolean; keys: Set<string> }> {
  const authored = await getAuthoredForm(store, scope.spaceId, scope.formKey);
  const fields =
    authored?.fields ??
    (await readPublishedForm(store, scope.spaceId, scope.formKey, null))?.definition.fields;
  return { authored: authored !== null, keys: new Set(choiceKeys(fields ?? [])) };
}

export interface InboxPage {
  items: InboxItem[];
  nextCursor: string | null;
  /** Submissions the filter matches, every page together; a lower bound when `totalExact` is false. */
  total: number;
  /** False when counting stopped at TOTAL_COUNT_LIMIT (list-repo.ts): more than `total` submissions match. */
  totalExact: boolean;
  /** The caller's unread submissions in the form's inbox folder (whatever the filter). */
  unread: number;
}

export async function listInbox(
  store: Store,
  scope: FormScope,
  filter: InboxFilter,
  page: { limit: number; after: ListPosition | null; order: ListOrder },
  caller: Caller,
): Promise<InboxPage> {
  const choices = await formChoices(store, scope);
  // An authored form exists; otherwise the key needs stored submissions (a deleted form's stay listable).
  if (!choices.authored) await requireForm(store, scope);
  const { items, last, total, totalExact } = await listPage(store, scope, {
    filter,
    choiceKeys: choices.keys,
    order: page.order,
    limit: page.limit,
    after: page.after,
    reader: caller.actor,
  });
  return {
    items,
    nextCursor: last === null ? null : encodeCursor(last, page.order),
    total,
    totalExact,
    unread: await unreadCount(store, scope, caller.actor),
  };
}

/** Reading does not mark it read: the caller does (`PUT …/read`), so a screen may preview without opening. */
export async function readSubmission(
  store: Store,
  scope: FormScope,
  id: string,
  reader: string | null = null,
): Promise<SubmissionDetail> {
  const item = await getItem(store, scope, id, store.db, reader);
  if (!item) throw submissionNotFound(id);
  return { ...item, notes: await listNotes(store.db, id) };
}

/** Marks one submission read or unread for the calling person (marks are the person's own: no activity entry). */
export async function setRead(
  store: Store,
  scope: FormScope,
  id: string,
  caller: Caller,
  read: boolean,
): Promise<{ id: string; read: boolean }> {
  return inSweepTransaction(store, async (s) => {
    if ((await markRead(s, scope, [id], caller.actor, read, caller.now.toISOString())) === 0)
      throw submissionNotFound(id);
    return { id, read };
  });
}

/** 400 unless `assignee` is null or a person of the space (a management token carrying one). */
export async function requirePerson(db: Queryable, spaceId: string, assignee: string | null): Promise<void> {
  if (assignee === null) return;
  if (!(await listPeople(db, spaceId)).some((p) => p.id === assignee))
    throw invalidBody(`"assignee" is not a person of this space (GET /people lists them).`, {
      details: { member: 'assignee' },
    });
}

export async function changeSubmission(
  store: Store,
  scope: FormScope,
  id: string,
  change: SubmissionChange,
  caller: Caller,
): Promise<SubmissionDetail> {
  return inSweepTransaction(store, async ({ tx }) => {
    if (change.assignee !== undefined) await requirePerson(tx, scope.spaceId, change.assignee);
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
    const item = await getItem(store, scope, id, tx, caller.actor);
    if (!item) throw submissionNotFound(id);
    return { ...item, notes: await listNotes(tx, id) };
  });
}

/**
 * A note's author is the person the caller names, or else the person of the calling token (400 when a tool's token
 * names nobody).
 */
export async function addNote(
  store: Store,
  scope: FormScope,
  id: string,
  input: NoteInput,
  caller: Caller,
): Promise<InboxNote> {
  const author = input.author ?? caller.person?.name;
  if (author === undefined)
    throw invalidBody('"author" is needed: this token stands for no person.', {
      details: { member: 'author' },
    });
  const note: InboxNote = {
    id: newId('nte'),
    text: input.text,
    author,
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

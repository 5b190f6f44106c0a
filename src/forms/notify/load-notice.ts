// What a notification handler reads when it runs: the stored submission (the only source of the visitor's values,
// so an erased submission sends nothing), the form as it was when submitted, and the submission's files.

import { LRUCache } from 'lru-cache';
import type { ListOption } from '../definition/index.js';
import { readFormsAt, readListsAt } from '../authoring/forms-repo.js';
import type { FormDefinition } from '../rules/index.js';
import { PermanentJobError } from '../../jobs/runner.js';
import type { Store } from '../../store/open-store.js';
import { getSpace, type SpaceRow } from '../../store/spaces-repo.js';
import type { NotifyJob } from './jobs.js';
import { readFiles, readSubmissionRow } from './notice-repo.js';

export interface NoticeSubmission {
  id: string;
  formKey: string;
  values: Readonly<Record<string, unknown>>;
  page: string | null;
  locale: string;
  createdAt: string;
}

export interface NoticeFile {
  name: string;
  size: number;
}

export interface Notice {
  space: SpaceRow;
  submission: NoticeSubmission;
  /** The form at the submission's cv, else the current one; null when the form was deleted since. */
  form: FormDefinition | null;
  /** Shared option lists the form's choice fields use, at the same cv. */
  lists: Record<string, ListOption[]>;
  /** The uploads the submission claimed, by id. */
  files: ReadonlyMap<string, NoticeFile>;
}

/** Loads in flight per store, by submission and form version: see `loadNotice`. */
const inFlight = new WeakMap<Store, Map<string, Promise<Notice | null>>>();

/**
 * Null when there is nothing to notify about: the submission is gone (erased, expired) or not in the inbox. The
 * messages of one submission are claimed together and start together, so the jobs asking while a load is under
 * way share it (one read and one parse of the submission for all its messages), and the notice is read afresh
 * for any job that starts after it: nothing is kept once the load is done.
 */
export function loadNotice(store: Store, spaceId: string, job: NotifyJob): Promise<Notice | null> {
  let loads = inFlight.get(store);
  if (!loads) inFlight.set(store, (loads = new Map()));
  const key = `${spaceId}\u0000${job.submissionId}\u0000${job.formKey}\u0000${job.cv}`;
  const shared = loads.get(key);
  if (shared) return shared;
  const load = readNotice(store, spaceId, job).finally(() => loads.delete(key));
  loads.set(key, load);
  return load;
}

async function readNotice(store: Store, spaceId: string, job: NotifyJob): Promise<Notice | null> {
  const submission = await readSubmission(store, spaceId, job);
  if (!submission) return null;
  const space = await getSpace(store, spaceId);
  if (!space) return null;
  const { form, cv } = await formAsSubmitted(store, space, job);
  const listKeys = form
    ? [...new Set(form.fields.flatMap((f) => (f.list === undefined ? [] : [f.list])))]
    : [];
  const lists = cv === null ? {} : await readListsAt(store, spaceId, listKeys, cv);
  // A form without file fields has no uploads to name: no query (a burst runs this for every message).
  const hasFiles = form === null || form.fields.some((f) => f.type === 'file');
  const files = hasFiles ? await readFiles(store, spaceId, submission.id) : new Map<string, NoticeFile>();
  return { space, submission, form, lists, files };
}

/**
 * The published definition at the job's cv (the version the visitor filled in); when that version was pruned, the
 * current one; null when the form no longer exists. Published definitions were validated when they were saved.
 */
async function formAsSubmitted(
  store: Store,
  space: SpaceRow,
  job: NotifyJob,
): Promise<{ form: FormDefinition | null; cv: number | null }> {
  for (const cv of job.cv === space.cv ? [job.cv] : [job.cv, space.cv]) {
    const form = await formAt(store, space.id, job.formKey, cv);
    if (form) return { form, cv };
  }
  return { form: null, cv: null };
}

/**
 * A form as published at a cv never changes (a later publish closes the version, it does not rewrite it), so the
 * definitions found are kept per store: every message of a burst would otherwise read and parse the same one.
 */
const formCaches = new WeakMap<Store, LRUCache<string, FormDefinition>>();

async function formAt(
  store: Store,
  spaceId: string,
  formKey: string,
  cv: number,
): Promise<FormDefinition | undefined> {
  let cache = formCaches.get(store);
  if (!cache) formCaches.set(store, (cache = new LRUCache({ max: 200 })));
  const key = JSON.stringify([spaceId, formKey, cv]);
  const hit = cache.get(key);
  if (hit) return hit;
  const form = (await readFormsAt(store, spaceId, [formKey], cv)).get(formKey);
  if (form) cache.set(key, form);
  return form;
}

async function readSubmission(
  store: Store,
  spaceId: string,
  job: NotifyJob,
): Promise<NoticeSubmission | null> {
  const row = await readSubmissionRow(store, spaceId, job.submissionId);
  // Spam is never notified; a submission of another form under this id is not the one the job was made for.
  if (!row || row.folder !== 'inbox' || row.form_key !== job.formKey) return null;
  const values: unknown = store.dialect.parseJson<unknown>(row.values);
  if (typeof values !== 'object' || values === null || Array.isArray(values))
    throw new PermanentJobError(`submission ${row.id} has values that are not an object`);
  return {
    id: row.id,
    formKey: row.form_key,
    values: values as Readonly<Record<string, unknown>>,
    page: row.page,
    locale: row.locale,
    createdAt: row.created_at,
  };
}

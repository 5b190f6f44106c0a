import type { Transaction } from 'kysely';
import type { Store } from '../../store/open-store.js';
import type { Database } from '../../store/schema.js';
import type { Queryable } from '../../store/spaces-repo.js';
import { syncCounter } from '../authoring/forms-repo.js';
import { searchTextOf } from '../../lib/search-fold.js';
import { chosenOptions, type TypedKey } from './chosen-options.js';

export type Folder = 'inbox' | 'spam';

export interface ConsentRecord {
  label: string;
  link?: { label: string; url: string };
}

/** A stored submission (spec 2.13); the visitor's IP address is not part of it. */
export interface SubmissionRecord {
  id: string;
  spaceId: string;
  form: string;
  folder: Folder;
  /** Validated values of the visible fields; for spam, the raw values under field keys. */
  values: Record<string, unknown>;
  page: string | null;
  locale: string;
  userAgent: string | null;
  /** The consent wording agreed to, by consent field key, in the visitor's language (spec 2.10). */
  consent: Record<string, ConsentRecord>;
  /** The uniqueField address as compared (`normalizeEmail`); null for spam and forms without a uniqueField. */
  uniqueKey: string | null;
  createdAt: string;
  deleteAfter: string;
  /** The space's cv the form was read at: the form version it was submitted to (inbox labels). */
  formCv?: number | null;
}

/**
 * Takes one place of the form's capacity (spec 3.1): increments the counter only while it is below `max`, in the
 * caller's transaction. The UPDATE locks the counter row until commit, so concurrent submissions are serialised on
 * PostgreSQL and the count never passes `max`; SQLite serialises writes anyway. False when the form is full.
 * Only forms with a capacity have a counter to lock: others take no lock at all.
 */
export async function claimCapacity(
  tx: Transaction<Database>,
  spaceId: string,
  formKey: string,
  max: number,
): Promise<boolean> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const row = await tx
      .updateTable('form_counters')
      .set((eb) => ({ count: eb('count', '+', 1) }))
      .where('space_id', '=', spaceId)
      .where('form_key', '=', formKey)
      .where('count', '<', max)
      .returning('count')
      .executeTakeFirst();
    if (row) return true;
    // No row updated: the form is full, or its counter does not exist yet (a form stored without one).
    const exists = await tx
      .selectFrom('form_counters')
      .select('count')
      .where('space_id', '=', spaceId)
      .where('form_key', '=', formKey)
      .executeTakeFirst();
    if (exists) return false;
    await syncCounter(tx, spaceId, formKey);
  }
  return false;
}

/**
 * Stores a submission with its folded search copy and, given the fields of the definition it was made to, the
 * options it chose (`submission_options`): every writer of submissions goes through here.
 */
export async function insertSubmission(
  db: Queryable,
  s: SubmissionRecord,
  fields: readonly TypedKey[] = [],
): Promise<void> {
  await db
    .insertInto('submissions')
    .values({
      id: s.id,
      space_id: s.spaceId,
      form_key: s.form,
      folder: s.folder,
      values: JSON.stringify(s.values),
      page: s.page,
      locale: s.locale,
      user_agent: s.userAgent,
      consent: JSON.stringify(s.consent),
      unique_key: s.uniqueKey,
      created_at: s.createdAt,
      delete_after: s.deleteAfter,
      form_cv: s.formCv ?? null,
      search_text: searchTextOf(s.values),
      // Both callers write its addresses in this transaction; a row left null is one an older binary stored.
      addresses_indexed: 1,
    })
    .execute();
  await insertChosenOptions(db, s, fields);
}

/** The options a stored submission chose, for the fields given (the backfill passes the form's current ones). */
export async function insertChosenOptions(
  db: Queryable,
  s: Pick<SubmissionRecord, 'id' | 'spaceId' | 'form' | 'folder' | 'values' | 'createdAt'> & {
    status?: string;
  },
  fields: readonly TypedKey[],
): Promise<void> {
  const options = chosenOptions(fields, s.values);
  if (options.length === 0) return;
  await db
    .insertInto('submission_options')
    .values(
      options.map((o) => ({
        submission_id: s.id,
        space_id: s.spaceId,
        form_key: s.form,
        field_key: o.fieldKey,
        value: o.value,
        folder: s.folder,
        status: s.status ?? 'new',
        created_at: s.createdAt,
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** What a `form.submitted` webhook sends of a stored submission (read when it is sent). */
export interface SubmittedAnswers {
  formKey: string;
  values: Record<string, unknown>;
  locale: string;
  page: string | null;
}

/**
 * The answers of an inbox submission, or null when it is gone (erased, expired, deleted) or was moved to spam:
 * then nothing of it is sent. Values that are not an object (never written so) count as gone.
 */
export async function readSubmittedAnswers(
  store: Store,
  spaceId: string,
  id: string,
): Promise<SubmittedAnswers | null> {
  const row = await store.db
    .selectFrom('submissions')
    .select(['form_key', 'folder', 'values', 'locale', 'page'])
    .where('space_id', '=', spaceId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row || row.folder !== 'inbox') return null;
  const values: unknown = store.dialect.parseJson<unknown>(row.values);
  if (typeof values !== 'object' || values === null || Array.isArray(values)) return null;
  return { formKey: row.form_key, values: { ...values }, locale: row.locale, page: row.page };
}

/**
 * A unique-index violation, on either engine (SQLite's extended result code, PostgreSQL's SQLSTATE 23505): the
 * one place where a driver error becomes `already_submitted`.
 */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

export interface SubmissionPage {
  items: SubmissionRecord[];
  nextCursor: string | null;
}

/** Newest first; the cursor is the last item's `createdAt` and id, so pages stay stable while new ones arrive. */
export async function listSubmissions(
  store: Store,
  spaceId: string,
  formKey: string,
  opts: { folder: Folder; limit: number; after: { createdAt: string; id: string } | null },
): Promise<SubmissionPage> {
  let query = store.db
    .selectFrom('submissions')
    .selectAll()
    .where('space_id', '=', spaceId)
    .where('form_key', '=', formKey)
    .where('folder', '=', opts.folder);
  const after = opts.after;
  if (after !== null) {
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '<', after.createdAt),
        eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)]),
      ]),
    );
  }
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(opts.limit + 1)
    .execute();
  const json = store.dialect.parseJson;
  const items = rows.slice(0, opts.limit).map((r): SubmissionRecord => ({
    id: r.id,
    spaceId: r.space_id,
    form: r.form_key,
    folder: r.folder,
    values: json<Record<string, unknown>>(r.values),
    page: r.page,
    locale: r.locale,
    userAgent: r.user_agent,
    consent: json<Record<string, ConsentRecord>>(r.consent),
    uniqueKey: r.unique_key,
    createdAt: r.created_at,
    deleteAfter: r.delete_after,
  }));
  const last = items[items.length - 1];
  return {
    items,
    nextCursor: rows.length > opts.limit && last ? `${last.createdAt}|${last.id}` : null,
  };
}

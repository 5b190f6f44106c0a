// The store side of exports: a form's published definitions, and its submissions in keyset pages. The same
// Kysely queries run on SQLite and PostgreSQL.

import type { SelectQueryBuilder } from 'kysely';
import type { Store } from '../../store/open-store.js';
import type { Database } from '../../store/schema.js';
import { submittedFieldKeys } from './columns.js';
import type { ExportRow } from './formats.js';

/** The published log's kind for form definitions (src/forms/forms-repo.ts). */
const PUBLISHED_FORM = 'form';

type SubmissionsQuery = SelectQueryBuilder<Database, 'submissions', object>;

/** What an export reads: one form's submissions, narrowed by the inbox filters (src/forms/inbox/filter.ts). */
export interface ExportScope {
  spaceId: string;
  formKey: string;
  narrow: (qb: SubmissionsQuery) => SubmissionsQuery;
}

/** A row's place in the export's order: oldest first, id as the tiebreaker. */
export interface RowKey {
  createdAt: string;
  id: string;
}

/**
 * The submitted field keys of every published version of the form still in the log (open or closed), newest
 * first: `putDocVersion` closes the old version and opens a new one on each save, and `unpublishForm` closes the
 * last one, so a deleted form keeps its history until the log is pruned (KEEP_VERSIONS).
 */
export async function readPublishedFieldKeys(
  store: Store,
  spaceId: string,
  formKey: string,
): Promise<string[][]> {
  return (await readPublishedDefinitions(store, spaceId, formKey)).flatMap((doc) => {
    const keys = submittedFieldKeys(doc);
    return keys === null ? [] : [keys];
  });
}

/** Every published version of the form still in the log, newest first, as stored (unchecked JSON). */
export async function readPublishedDefinitions(
  store: Store,
  spaceId: string,
  formKey: string,
): Promise<unknown[]> {
  const rows = await store.db
    .selectFrom('doc_versions')
    .select('doc')
    .where('space_id', '=', spaceId)
    .where('kind', '=', PUBLISHED_FORM)
    .where('key', '=', formKey)
    .orderBy('cv_from', 'desc')
    .execute();
  return rows.map((r) => store.dialect.parseJson<unknown>(r.doc));
}

function scoped(store: Store, scope: ExportScope): SubmissionsQuery {
  const base: SubmissionsQuery = store.db
    .selectFrom('submissions')
    .where('space_id', '=', scope.spaceId)
    .where('form_key', '=', scope.formKey);
  return scope.narrow(base);
}

/**
 * How many rows match now, and the last one in export order. The export stops at that row, so it is the rows
 * that matched when it began: the count recorded in the activity log is what was sent (less any deleted in
 * between), and a form receiving submissions during the download does not make it endless.
 */
export async function measureExport(
  store: Store,
  scope: ExportScope,
): Promise<{ count: number; last: RowKey | null }> {
  const counted = await scoped(store, scope)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
  const last = await scoped(store, scope)
    .select(['created_at', 'id'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return {
    count: Number(counted?.n ?? 0),
    last: last ? { createdAt: last.created_at, id: last.id } : null,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The scope's rows up to and including `upTo` in export order. */
function scopedUpTo(store: Store, scope: ExportScope, upTo: RowKey): SubmissionsQuery {
  return scoped(store, scope)
    .where('created_at', '<=', upTo.createdAt)
    .where((eb) => eb.or([eb('created_at', '<', upTo.createdAt), eb('id', '<=', upTo.id)]));
}

/**
 * Every row up to `upTo`, oldest first, in batches of `batch`, from one query read through a server-side cursor
 * (engines with `streamsRows` only). One query sorts once, where pages would each search the index again; and
 * node-postgres reads a cursor's rows `batch` at a time, where a page's rows arrive as one result whose garbage
 * outlives young-generation collections and grew the heap by 70–90 MB over a 100k-row export. Stopping early
 * (the client went away) closes the cursor and gives the connection back.
 */
export async function* streamExportRows(
  store: Store,
  scope: ExportScope,
  upTo: RowKey,
  batch: number,
): AsyncGenerator<ExportRow[]> {
  const query = scopedUpTo(store, scope, upTo).select(COLUMNS).orderBy('created_at').orderBy('id');
  let rows: ExportRow[] = [];
  for await (const r of query.stream(batch)) {
    rows.push(exportRow(store, r));
    if (rows.length === batch) {
      yield rows;
      rows = [];
    }
  }
  if (rows.length > 0) yield rows;
}

/**
 * Where the next page starts: after every row up to `createdAt` (`id` null), or among the rows sharing the
 * timestamp `createdAt`, after `id`. Null: from the start.
 */
export type PagePosition = { createdAt: string; id: string | null } | null;

const COLUMNS = [
  'id',
  'created_at',
  'folder',
  'status',
  'assignee',
  'assignee_id',
  'page',
  'locale',
  'values',
  'consent',
] as const;

const byKey = (a: ExportRow, b: ExportRow): number =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/**
 * The next page from `from`, up to and including `upTo`, oldest first, and where the page after it starts
 * (`end`: none). Pages are ordered by `created_at` alone, which the (space_id, form_key, folder, created_at)
 * index yields without sorting: an `ORDER BY created_at, id` made PostgreSQL without fresh statistics (a table
 * just filled) sort the whole remaining range for every page, quadratic over an export. Rows sharing the page's
 * last timestamp may go on past the limit (the one row read beyond it says): then they are left to pages of their
 * own, keyset-paged by id (rare: timestamps have milliseconds). Every other timestamp of a page is complete, so a
 * page sorted by (created_at, id) here is in the order the database would give.
 */
export async function readExportPage(
  store: Store,
  scope: ExportScope,
  range: { from: PagePosition; upTo: RowKey; limit: number },
): Promise<{ rows: ExportRow[]; next: PagePosition | 'end' }> {
  const { from, upTo, limit } = range;
  const upToHere = scopedUpTo(store, scope, upTo);
  if (from !== null && from.id !== null) {
    const tied = await upToHere
      .where('created_at', '=', from.createdAt)
      .where('id', '>', from.id)
      .select(COLUMNS)
      .orderBy('id')
      .limit(limit)
      .execute();
    const rows = tied.map((r) => exportRow(store, r));
    const last = rows[rows.length - 1];
    const next = rows.length === limit && last ? last.id : null;
    return { rows, next: { createdAt: from.createdAt, id: next } };
  }
  const query = from === null ? upToHere : upToHere.where('created_at', '>', from.createdAt);
  // One row more than the page: when it is later than the page's last, that timestamp is complete.
  const found = await query
    .select(COLUMNS)
    .orderBy('created_at')
    .limit(limit + 1)
    .execute();
  const rows = found.slice(0, limit).map((r) => exportRow(store, r));
  const edge = rows[rows.length - 1]?.createdAt;
  const beyond = found[limit]?.created_at;
  if (beyond === undefined || edge === undefined) return { rows: rows.sort(byKey), next: 'end' };
  if (beyond !== edge) return { rows: rows.sort(byKey), next: { createdAt: edge, id: null } };
  return { rows: rows.filter((r) => r.createdAt !== edge).sort(byKey), next: { createdAt: edge, id: '' } };
}

interface SelectedRow {
  id: string;
  created_at: string;
  folder: string;
  status: string;
  assignee: string | null;
  assignee_id: string | null;
  page: string | null;
  locale: string;
  values: unknown;
  consent: unknown;
}

function exportRow(store: Store, r: SelectedRow): ExportRow {
  // JSON columns are objects when written by this service; anything else exports as empty, never as a cast.
  const values = store.dialect.parseJson<unknown>(r.values);
  const consent = store.dialect.parseJson<unknown>(r.consent);
  return {
    id: r.id,
    createdAt: r.created_at,
    folder: r.folder,
    status: r.status,
    assignee: r.assignee,
    assigneeId: r.assignee_id,
    page: r.page,
    locale: r.locale,
    values: isRecord(values) ? values : {},
    consent: isRecord(consent) ? consent : {},
  };
}

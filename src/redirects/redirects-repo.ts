import { type Expression, type SqlBool, sql, type Transaction } from 'kysely';
import { randomBase62 } from '../lib/ids.js';
import type { Store } from '../store/open-store.js';
import type { Database, RedirectsTable } from '../store/schema.js';
import type { Queryable } from '../store/spaces-repo.js';

/** One version of a redirect as stored (table `redirects`, versioned like the published log). */
export interface RedirectRow {
  id: string;
  locale: string | null;
  fromPath: string;
  fromKey: string;
  toEntry: string | null;
  toUrl: string | null;
  status: number;
  source: 'manual' | 'auto';
  position: number;
  createdAt: string;
}

export const newRedirectId = (): string => `rdr_${randomBase62(20)}`;

const CHUNK = 500;
const chunks = <T>(items: readonly T[]): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
};

/** The published log's visibility rule (cv_from <= cv < cv_to) on a table alias, for joins. */
function visibleIn(alias: 'r' | 'p', cv: number): Expression<SqlBool> {
  const from = sql.ref(`${alias}.cv_from`);
  const to = sql.ref(`${alias}.cv_to`);
  return sql<SqlBool>`(${from} <= ${cv} and (${to} is null or ${to} > ${cv}))`;
}

type Row = Pick<
  RedirectsTable,
  | 'id'
  | 'locale'
  | 'from_path'
  | 'from_key'
  | 'to_entry'
  | 'to_url'
  | 'status'
  | 'source'
  | 'position'
  | 'created_at'
>;

const toRow = (r: Row): RedirectRow => ({
  id: r.id,
  locale: r.locale,
  fromPath: r.from_path,
  fromKey: r.from_key,
  toEntry: r.to_entry,
  toUrl: r.to_url,
  status: Number(r.status),
  source: r.source,
  position: Number(r.position),
  createdAt: r.created_at,
});

const COLUMNS = [
  'r.id',
  'r.locale',
  'r.from_path',
  'r.from_key',
  'r.to_entry',
  'r.to_url',
  'r.status',
  'r.source',
  'r.position',
  'r.created_at',
] as const;

// Locale-specific redirects before shared ones for the same path; then authored order.
const localeFirst = sql`case when r.locale is null then 1 else 0 end`;

// ---- reads at a cv (delivery) ---------------------------------------------------------------------------

/** The redirects of a space visible at cv that apply in a locale (its own and the shared ones). */
const redirectsAt = (store: Store, spaceId: string, locale: string, cv: number) =>
  store.db
    .selectFrom('redirects as r')
    .select(COLUMNS)
    .where('r.space_id', '=', spaceId)
    .where((eb) => eb.or([eb('r.locale', '=', locale), eb('r.locale', 'is', null)]))
    .where(visibleIn('r', cv));

/** Redirects from one path key visible at cv, for a locale (its own first, then shared ones). */
export async function findRedirectRowsAt(
  store: Store,
  spaceId: string,
  locale: string,
  fromKey: string,
  cv: number,
): Promise<RedirectRow[]> {
  const rows = await redirectsAt(store, spaceId, locale, cv)
    .where('r.from_key', '=', fromKey)
    .orderBy(localeFirst)
    .orderBy('r.position')
    .orderBy('r.id')
    .execute();
  return rows.map(toRow);
}

/**
 * Every redirect visible at cv from these path keys, in any locale, ordered by key, the locale's own before shared
 * ones, then authored order: what `/sync` compares to name the `/redirects` answers that changed.
 */
export async function redirectRowsForKeysAt(
  store: Store,
  spaceId: string,
  fromKeys: readonly string[],
  cv: number,
): Promise<RedirectRow[]> {
  const out: RedirectRow[] = [];
  if (cv === 0) return out;
  for (const keys of chunks([...new Set(fromKeys)])) {
    const rows = await store.db
      .selectFrom('redirects as r')
      .select(COLUMNS)
      .where('r.space_id', '=', spaceId)
      .where('r.from_key', 'in', keys)
      .where(visibleIn('r', cv))
      .orderBy('r.from_key')
      .orderBy(localeFirst)
      .orderBy('r.position')
      .orderBy('r.id')
      .execute();
    out.push(...rows.map(toRow));
  }
  return out;
}

/** Every redirect visible at cv whose target is one of these entries, in any locale. */
export async function redirectRowsToEntriesAt(
  store: Store,
  spaceId: string,
  entryIds: readonly string[],
  cv: number,
): Promise<RedirectRow[]> {
  const out: RedirectRow[] = [];
  if (cv === 0) return out;
  for (const ids of chunks([...new Set(entryIds)])) {
    const rows = await store.db
      .selectFrom('redirects as r')
      .select(COLUMNS)
      .where('r.space_id', '=', spaceId)
      .where('r.to_entry', 'in', ids)
      .where(visibleIn('r', cv))
      .execute();
    out.push(...rows.map(toRow));
  }
  return out;
}

/** The `locale path_key` pairs among `fromKeys` that a published page occupies at cv (spec 2.6 rule 3). */
export async function occupiedPathsAt(
  store: Store,
  spaceId: string,
  fromKeys: readonly string[],
  cv: number,
): Promise<Set<string>> {
  const out = new Set<string>();
  if (cv === 0) return out;
  for (const keys of chunks([...new Set(fromKeys)])) {
    const rows = await store.db
      .selectFrom('entry_paths as p')
      .select(['p.locale', 'p.path_key'])
      .where('p.space_id', '=', spaceId)
      .where('p.path_key', 'in', keys)
      .where(visibleIn('p', cv))
      .execute();
    for (const r of rows) out.add(`${r.locale} ${r.path_key}`);
  }
  return out;
}

/**
 * Every redirect visible at cv for a locale whose path no published page occupies in that locale
 * (spec 2.6 rule 3: a page occupying a path wins over a redirect from it).
 */
export async function listRedirectRowsAt(
  store: Store,
  spaceId: string,
  locale: string,
  cv: number,
): Promise<RedirectRow[]> {
  const rows = await redirectsAt(store, spaceId, locale, cv)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('entry_paths as p')
            .select(sql.lit(1).as('one'))
            .whereRef('p.space_id', '=', 'r.space_id')
            .whereRef('p.path_key', '=', 'r.from_key')
            .where('p.locale', '=', locale)
            .where(visibleIn('p', cv)),
        ),
      ),
    )
    .orderBy('r.from_key')
    .orderBy(localeFirst)
    .orderBy('r.position')
    .orderBy('r.id')
    .execute();
  return rows.map(toRow);
}

// ---- current state (authoring and publishing) -----------------------------------------------------------

function openRows(db: Queryable, spaceId: string) {
  return db
    .selectFrom('redirects as r')
    .select(COLUMNS)
    .where('r.space_id', '=', spaceId)
    .where('r.cv_to', 'is', null);
}

export async function listOpenRedirects(db: Queryable, spaceId: string): Promise<RedirectRow[]> {
  const rows = await openRows(db, spaceId).orderBy('r.position').orderBy('r.id').execute();
  return rows.map(toRow);
}

export async function getOpenRedirect(
  db: Queryable,
  spaceId: string,
  id: string,
): Promise<RedirectRow | null> {
  const row = await openRows(db, spaceId).where('r.id', '=', id).executeTakeFirst();
  return row ? toRow(row) : null;
}

/** Current redirects whose `column` is one of `values` (chunked: SQLite caps bound parameters). */
async function openRedirectsWhere(
  db: Queryable,
  spaceId: string,
  column: 'r.from_key' | 'r.to_entry',
  values: readonly string[],
): Promise<RedirectRow[]> {
  const out: RedirectRow[] = [];
  for (const chunk of chunks([...new Set(values)])) {
    const rows = await openRows(db, spaceId).where(column, 'in', chunk).orderBy('r.id').execute();
    out.push(...rows.map(toRow));
  }
  return out;
}

/** Current redirects from any of these path keys. */
export const openRedirectsFrom = (db: Queryable, spaceId: string, fromKeys: readonly string[]) =>
  openRedirectsWhere(db, spaceId, 'r.from_key', fromKeys);

/** Current redirects whose target is one of these entries. */
export const openRedirectsTo = (db: Queryable, spaceId: string, entryIds: readonly string[]) =>
  openRedirectsWhere(db, spaceId, 'r.to_entry', entryIds);

export async function nextRedirectPosition(db: Queryable, spaceId: string): Promise<number> {
  const row = await db
    .selectFrom('redirects')
    .select((eb) => eb.fn.max('position').as('max'))
    .where('space_id', '=', spaceId)
    .executeTakeFirst();
  return row?.max === null || row?.max === undefined ? 0 : Number(row.max) + 1;
}

// ---- writes inside a publish transaction ----------------------------------------------------------------

/** Closes the open version of redirects at cv; a version opened at this same cv is simply removed. */
export async function closeRedirects(
  tx: Transaction<Database>,
  spaceId: string,
  ids: readonly string[],
  cv: number,
): Promise<void> {
  for (const part of chunks([...new Set(ids)])) {
    await tx
      .deleteFrom('redirects')
      .where('space_id', '=', spaceId)
      .where('id', 'in', part)
      .where('cv_from', '=', cv)
      .execute();
    await tx
      .updateTable('redirects')
      .set({ cv_to: cv })
      .where('space_id', '=', spaceId)
      .where('id', 'in', part)
      .where('cv_to', 'is', null)
      .execute();
  }
}

/** Writes new versions of redirects at cv (closing their previous versions first). */
export async function putRedirects(
  tx: Transaction<Database>,
  spaceId: string,
  cv: number,
  rows: readonly RedirectRow[],
): Promise<void> {
  if (rows.length === 0) return;
  await closeRedirects(
    tx,
    spaceId,
    rows.map((r) => r.id),
    cv,
  );
  for (const part of chunks(rows)) {
    await tx
      .insertInto('redirects')
      .values(
        part.map((r) => ({
          space_id: spaceId,
          id: r.id,
          cv_from: cv,
          cv_to: null,
          locale: r.locale,
          from_path: r.fromPath,
          from_key: r.fromKey,
          to_entry: r.toEntry,
          to_url: r.toUrl,
          status: r.status,
          source: r.source,
          position: r.position,
          created_at: r.createdAt,
        })),
      )
      .execute();
  }
}

import { type Expression, type SqlBool, sql, type Transaction } from 'kysely';
import type { EntrySnapshot } from '../content/model.js';
import { pathKey } from '../lib/path-key.js';
import { bulkInsert } from './dialect/bulk-insert.js';
import type { Store } from './open-store.js';
import type { Database } from './schema.js';
import type { Queryable } from './spaces-repo.js';

type Versioned = 'entry_versions' | 'doc_versions' | 'entry_paths';

/** The one visibility rule of the published log: cv_from <= cv AND (cv_to IS NULL OR cv_to > cv). */
export function visibleAt(cv: number): Expression<SqlBool> {
  return sql<SqlBool>`(cv_from <= ${cv} and (cv_to is null or cv_to > ${cv}))`;
}

// ---- reads at a cv -------------------------------------------------------------------------------------

export async function readEntriesAt(
  store: Store,
  spaceId: string,
  ids: readonly string[],
  cv: number,
): Promise<Map<string, EntrySnapshot>> {
  const out = new Map<string, EntrySnapshot>();
  if (ids.length === 0) return out;
  const rows = await store.db
    .selectFrom('entry_versions')
    .select(['entry_id', 'doc'])
    .where('space_id', '=', spaceId)
    .where('entry_id', 'in', [...ids])
    .where(visibleAt(cv))
    .execute();
  for (const row of rows) out.set(row.entry_id, store.dialect.parseJson<EntrySnapshot>(row.doc));
  return out;
}

/** Published entries of the given types at cv (globals: one per type), ordered by type then id. */
export async function readEntriesOfTypesAt(
  store: Store,
  spaceId: string,
  types: readonly string[],
  cv: number,
): Promise<EntrySnapshot[]> {
  if (types.length === 0) return [];
  const rows = await store.db
    .selectFrom('entry_versions')
    .select('doc')
    .where('space_id', '=', spaceId)
    .where('type', 'in', [...types])
    .where(visibleAt(cv))
    .orderBy('type')
    .orderBy('entry_id')
    .execute();
  return rows.map((r) => store.dialect.parseJson<EntrySnapshot>(r.doc));
}

export async function readDocsAt<T>(
  store: Store,
  spaceId: string,
  kind: string,
  keys: readonly string[] | 'all',
  cv: number,
): Promise<Map<string, T>> {
  // Before building the query: most delivered entries name no asset, and building a Kysely query is not free
  // (docs/operations.md, "Figures behind the code").
  if (keys !== 'all' && keys.length === 0) return new Map();
  let query = store.db
    .selectFrom('doc_versions')
    .select(['key', 'doc'])
    .where('space_id', '=', spaceId)
    .where('kind', '=', kind)
    .where(visibleAt(cv));
  if (keys !== 'all') query = query.where('key', 'in', [...keys]);
  const rows = await query.orderBy('key').execute();
  return new Map(rows.map((r) => [r.key, store.dialect.parseJson<T>(r.doc)]));
}

// ---- writes inside a publish transaction ---------------------------------------------------------------

/** Closes the open version of a document at `cv`; a version opened at this same cv is simply removed. */
async function closeOpen(
  tx: Transaction<Database>,
  table: Versioned,
  match: Record<string, string>,
  cv: number,
): Promise<void> {
  const where = sql.join(
    Object.entries(match).map(([column, value]) => sql`${sql.ref(column)} = ${value}`),
    sql` and `,
  );
  await sql`delete from ${sql.table(table)} where ${where} and cv_from = ${cv}`.execute(tx);
  await sql`update ${sql.table(table)} set cv_to = ${cv} where ${where} and cv_to is null`.execute(tx);
}

/**
 * Closes an entry's open version in the log (its paths too). The list tables derived from it are the list
 * domain's: domain code closes both (`closePublishedEntry`, src/content/publish-log.ts).
 */
export async function closeEntry(tx: Transaction<Database>, spaceId: string, entryId: string, cv: number) {
  const match = { space_id: spaceId, entry_id: entryId };
  await closeOpen(tx, 'entry_versions', match, cv);
  await closeOpen(tx, 'entry_paths', match, cv);
}

/**
 * Opens a new version of an entry in the log (closing its open one) with its paths. Domain code writes the list
 * rows with it (`publishEntryVersion`, src/content/publish-log.ts).
 */
export async function putEntryVersion(
  tx: Transaction<Database>,
  spaceId: string,
  cv: number,
  snapshot: EntrySnapshot,
  typeKind: string,
): Promise<void> {
  await closeEntry(tx, spaceId, snapshot.id, cv);
  await tx
    .insertInto('entry_versions')
    .values({
      space_id: spaceId,
      entry_id: snapshot.id,
      cv_from: cv,
      cv_to: null,
      type: snapshot.type,
      type_kind: typeKind,
      parent_id: snapshot.parentId,
      position: snapshot.position,
      name: snapshot.name,
      published_at: snapshot.publishedAt,
      first_published_at: snapshot.firstPublishedAt,
      doc: JSON.stringify(snapshot),
    })
    .execute();
  // Folders have paths for the tree, but by-path only finds pages (a folder's start page owns its path).
  if (snapshot.paths && typeKind !== 'folder') {
    const rows = Object.entries(snapshot.paths).map(([locale, path]) => ({
      space_id: spaceId,
      locale,
      path_key: pathKey(path),
      entry_id: snapshot.id,
      cv_from: cv,
      cv_to: null,
    }));
    if (rows.length > 0) await tx.insertInto('entry_paths').values(rows).execute();
  }
}

const VERSION_COLUMNS = [
  'space_id',
  'entry_id',
  'cv_from',
  'cv_to',
  'type',
  'type_kind',
  'parent_id',
  'position',
  'name',
  'published_at',
  'first_published_at',
  'doc',
];
const PATH_COLUMNS = ['space_id', 'locale', 'path_key', 'entry_id', 'cv_from', 'cv_to'];

/**
 * Opens the first versions of many entries at `cv` in bulk, in the log and its paths: multi-row inserts, nothing
 * to close. For a space whose published log holds no open version of these entries (an import into a new or
 * cleared space); otherwise use `putEntryVersion`. Domain code writes the list rows with them
 * (`publishFirstVersions`, src/content/publish-log.ts).
 */
export async function insertFirstLogVersions(
  tx: Transaction<Database>,
  spaceId: string,
  cv: number,
  items: readonly { snapshot: EntrySnapshot; typeKind: string }[],
): Promise<void> {
  await bulkInsert(
    tx,
    'entry_versions',
    VERSION_COLUMNS,
    items.map(({ snapshot: s, typeKind }) => [
      spaceId,
      s.id,
      cv,
      null,
      s.type,
      typeKind,
      s.parentId,
      s.position,
      s.name,
      s.publishedAt,
      s.firstPublishedAt,
      JSON.stringify(s),
    ]),
  );
  // As putEntryVersion: folders have paths for the tree, but by-path only finds pages.
  const paths = items.flatMap(({ snapshot: s, typeKind }) =>
    typeKind === 'folder'
      ? []
      : Object.entries(s.paths ?? {}).map(([locale, path]) => [
          spaceId,
          locale,
          pathKey(path),
          s.id,
          cv,
          null,
        ]),
  );
  await bulkInsert(tx, 'entry_paths', PATH_COLUMNS, paths);
}

export async function closeDoc(
  tx: Transaction<Database>,
  spaceId: string,
  kind: string,
  key: string,
  cv: number,
) {
  await closeOpen(tx, 'doc_versions', { space_id: spaceId, kind, key }, cv);
}

export async function putDocVersion(
  tx: Transaction<Database>,
  spaceId: string,
  cv: number,
  kind: string,
  key: string,
  doc: unknown,
): Promise<void> {
  await closeDoc(tx, spaceId, kind, key, cv);
  await tx
    .insertInto('doc_versions')
    .values({ space_id: spaceId, kind, key, cv_from: cv, cv_to: null, doc: JSON.stringify(doc) })
    .execute();
}

/**
 * Forgets log versions closed at or before `minCv` and records it as the oldest answerable cv
 * (DESIGN.md: a pinned cv older than that answers a clear error, never different content). Domain code prunes
 * the list tables with it (`prunePublished`, src/content/publish-log.ts).
 */
export async function pruneBefore(tx: Transaction<Database>, spaceId: string, minCv: number): Promise<void> {
  for (const table of ['entry_versions', 'entry_paths', 'doc_versions', 'redirects'] as const) {
    await tx.deleteFrom(table).where('space_id', '=', spaceId).where('cv_to', '<=', minCv).execute();
  }
  await tx.updateTable('spaces').set({ min_cv: minCv }).where('id', '=', spaceId).execute();
}

const inChunks = <T>(items: readonly T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

/**
 * Paths of entries as currently published (their open version), read inside a publish transaction before it
 * writes: the "before" of automatic redirects. Entries without an open version are absent.
 */
export async function readOpenPaths(
  store: Store,
  db: Queryable,
  spaceId: string,
  entryIds: readonly string[],
): Promise<Map<string, Record<string, string> | null>> {
  const out = new Map<string, Record<string, string> | null>();
  for (const ids of inChunks([...new Set(entryIds)], 500)) {
    const rows = await db
      .selectFrom('entry_versions')
      .select(['entry_id', 'doc'])
      .where('space_id', '=', spaceId)
      .where('entry_id', 'in', ids)
      .where('cv_to', 'is', null)
      .execute();
    for (const r of rows) {
      const doc = store.dialect.parseJson<{ paths: Record<string, string> | null }>(r.doc);
      out.set(r.entry_id, doc.paths);
    }
  }
  return out;
}

import type { Transaction } from 'kysely';
import type { ContentTypeDef, EntrySnapshot, SpaceSettings, TypeMap } from '../../content/model.js';
import { bulkInsert } from '../../store/dialect/bulk-insert.js';
import type { StoreDialect } from '../../store/dialect/dialect.js';
import { OPEN_CV, type SearchDoc } from '../../store/dialect/lists.js';
import type { ReindexStep } from '../../store/reindex.js';
import type { Database } from '../../store/schema.js';
import type { Queryable } from '../../store/spaces-repo.js';
import {
  chainsOf,
  type IndexValue,
  indexValues,
  NOINDEX_KEY,
  searchConfig,
  searchScope,
  searchTexts,
  UNLISTED_KINDS,
} from './index-values.js';
import type { SearchVectors } from './search-vectors.js';
import { slotLayout, slotRows } from './slots.js';

/**
 * The list tables' one writer (`list_entries`, `list_values`, `list_rows` and the full-text rows; read by the
 * `*-repo.ts` beside this file). A publish writes them beside the published log (src/content/publish-log.ts), and
 * the reindex step `LIST_REINDEX` rebuilds them from the log after migrations (src/store/reindex.ts). The engine's
 * SQL comes from the store's dialect, passed in: a transaction does not carry it.
 */

interface IndexContext {
  types: TypeMap;
  chains: Map<string, string[]>;
}

// The model a version is indexed with: the types and locales at its cv, read once per publish transaction.
const contexts = new WeakMap<object, Map<string, Promise<IndexContext>>>();

const parse = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

function contextFor(tx: Transaction<Database>, spaceId: string, cv: number): Promise<IndexContext> {
  let perTx = contexts.get(tx);
  if (!perTx) contexts.set(tx, (perTx = new Map()));
  const key = `${spaceId}\n${cv}`;
  let found = perTx.get(key);
  if (!found) {
    found = (async () => {
      const typesRow = await tx
        .selectFrom('doc_versions')
        .select('doc')
        .where('space_id', '=', spaceId)
        .where('kind', '=', 'types')
        .where('key', '=', '*')
        .where('cv_from', '<=', cv)
        .where((eb) => eb.or([eb('cv_to', 'is', null), eb('cv_to', '>', cv)]))
        .executeTakeFirst();
      const space = await tx
        .selectFrom('spaces')
        .select('settings')
        .where('id', '=', spaceId)
        .executeTakeFirst();
      const types = typesRow ? parse<ContentTypeDef[]>(typesRow.doc) : [];
      const settings = space ? parse<SpaceSettings>(space.settings) : { locales: [] };
      return {
        types: new Map(types.map((t) => [t.key, t])),
        chains: chainsOf(settings as SpaceSettings),
      };
    })();
    perTx.set(key, found);
  }
  return found;
}

function noindexLocales(values: readonly IndexValue[]): string | null {
  const locales = values.filter((v) => v.key === NOINDEX_KEY).map((v) => v.loc);
  return locales.length > 0 ? JSON.stringify(locales) : null;
}

const LIST_ENTRY_COLUMNS = [
  'space_id',
  'entry_id',
  'cv_from',
  'cv_to',
  'type',
  'kind',
  'parent_id',
  'position',
  'name',
  'published_at',
  'first_published_at',
  'paths',
  'noindex',
];
const LIST_VALUE_COLUMNS = ['space_id', 'vid', 'cv_from', 'cv_to', 'type', 'key', 'loc', 'str', 'num'];
const LIST_ROW_COLUMNS = [
  'space_id',
  'vid',
  'loc',
  'cv_from',
  'cv_to',
  'type',
  'published_at',
  'entry_id',
  's1',
  's2',
  's3',
  's4',
  'n1',
  'n2',
  'n3',
  'n4',
];

/**
 * Writes the list rows of new versions opened at `cv` (with each published version; bulk loaders call it with
 * many). Their previous versions must be closed already (`closeListVersion`).
 */
export async function putListVersions(
  tx: Transaction<Database>,
  dialect: StoreDialect,
  spaceId: string,
  cv: number,
  items: readonly { snapshot: EntrySnapshot; typeKind: string }[],
  vectors?: SearchVectors,
): Promise<void> {
  const listed = items.filter((i) => !UNLISTED_KINDS.has(i.typeKind));
  if (listed.length === 0) return;
  const ctx = await contextFor(tx, spaceId, cv);
  for (let i = 0; i < listed.length; i += 2000) {
    const chunk = listed.slice(i, i + 2000);
    const valuesOf = new Map(
      chunk.map(({ snapshot: s }) => [s, indexValues(s, ctx.types.get(s.type), ctx.chains)]),
    );
    const ids = await bulkInsert<{ id: number | string; entry_id: string }>(
      tx,
      'list_entries',
      LIST_ENTRY_COLUMNS,
      chunk.map(({ snapshot: s, typeKind }) => [
        spaceId,
        s.id,
        cv,
        OPEN_CV,
        s.type,
        typeKind,
        s.parentId,
        s.position,
        s.name,
        s.publishedAt,
        s.firstPublishedAt,
        s.paths && Object.keys(s.paths).length > 0 ? JSON.stringify(s.paths) : null,
        noindexLocales(valuesOf.get(s) ?? []),
      ]),
      ['id', 'entry_id'],
    );
    const vidOf = new Map(ids.map((r) => [r.entry_id, Number(r.id)]));
    const values: unknown[][] = [];
    const rows: unknown[][] = [];
    const docs: SearchDoc[] = [];
    for (const { snapshot: s } of chunk) {
      const vid = vidOf.get(s.id);
      if (vid === undefined) continue;
      const type = ctx.types.get(s.type);
      const versionValues = valuesOf.get(s) ?? [];
      for (const v of versionValues)
        values.push([spaceId, vid, cv, OPEN_CV, s.type, v.key, v.loc, v.str, v.num]);
      for (const r of slotRows(versionValues, slotLayout(type), ctx.chains.keys()))
        rows.push([
          spaceId,
          vid,
          r.loc,
          cv,
          OPEN_CV,
          s.type,
          s.publishedAt,
          s.id,
          r.s1,
          r.s2,
          r.s3,
          r.s4,
          r.n1,
          r.n2,
          r.n3,
          r.n4,
        ]);
      let slot = 0;
      for (const [loc, body] of searchTexts(s, ctx.types, ctx.chains))
        docs.push({
          vid,
          slot: slot++,
          scope: searchScope(spaceId, loc),
          config: searchConfig(loc),
          body,
          entryId: s.id,
          type: s.type,
          publishedAt: s.publishedAt,
          cvFrom: cv,
        });
    }
    await bulkInsert(tx, 'list_values', LIST_VALUE_COLUMNS, values);
    await bulkInsert(tx, 'list_rows', LIST_ROW_COLUMNS, rows);
    if (vectors)
      for (const d of docs) {
        const vector = (await vectors.of(d.entryId))?.[d.slot];
        if (vector !== undefined) d.vector = vector;
      }
    await dialect.insertSearch(tx, docs);
  }
}

async function removeVersions(tx: Queryable, dialect: StoreDialect, vids: readonly number[]): Promise<void> {
  for (let i = 0; i < vids.length; i += 500) {
    const chunk = vids.slice(i, i + 500);
    await tx.deleteFrom('list_values').where('vid', 'in', chunk).execute();
    await tx.deleteFrom('list_rows').where('vid', 'in', chunk).execute();
    await dialect.deleteSearch(tx, chunk);
    await tx.deleteFrom('list_entries').where('id', 'in', chunk).execute();
  }
}

/** Closes the open list version of an entry at `cv`, like the log's closeOpen (one opened at `cv` is removed). */
export async function closeListVersion(
  tx: Transaction<Database>,
  dialect: StoreDialect,
  spaceId: string,
  entryId: string,
  cv: number,
): Promise<void> {
  const open = await tx
    .selectFrom('list_entries')
    .select(['id', 'cv_from'])
    .where('space_id', '=', spaceId)
    .where('entry_id', '=', entryId)
    .where('cv_to', '=', OPEN_CV)
    .execute();
  const sameCv = open.filter((r) => Number(r.cv_from) >= cv).map((r) => Number(r.id));
  const older = open.filter((r) => Number(r.cv_from) < cv).map((r) => Number(r.id));
  await removeVersions(tx, dialect, sameCv);
  await closeVersions(tx, dialect, older, cv);
}

/** Sets `cv_to` of versions in every list table (the full-text rows too, where the engine keeps it). */
async function closeVersions(
  tx: Transaction<Database>,
  dialect: StoreDialect,
  vids: readonly number[],
  cv: number,
): Promise<void> {
  if (vids.length === 0) return;
  await tx.updateTable('list_entries').set({ cv_to: cv }).where('id', 'in', vids).execute();
  await tx.updateTable('list_values').set({ cv_to: cv }).where('vid', 'in', vids).execute();
  await tx.updateTable('list_rows').set({ cv_to: cv }).where('vid', 'in', vids).execute();
  await dialect.closeSearch(tx, vids, cv);
}

/** Forgets list versions closed at or before `minCv` (with the log's `pruneBefore`). */
export async function pruneListVersions(
  tx: Transaction<Database>,
  dialect: StoreDialect,
  spaceId: string,
  minCv: number,
): Promise<void> {
  const rows = await tx
    .selectFrom('list_entries')
    .select('id')
    .where('space_id', '=', spaceId)
    .where('cv_to', '<=', minCv)
    .execute();
  await removeVersions(
    tx,
    dialect,
    rows.map((r) => Number(r.id)),
  );
}

/** Forgets every list row of a space (an import with --replace clears the space's content first). */
export async function clearListSpace(db: Queryable, dialect: StoreDialect, spaceId: string): Promise<void> {
  const rows = await db.selectFrom('list_entries').select('id').where('space_id', '=', spaceId).execute();
  await removeVersions(
    db,
    dialect,
    rows.map((r) => Number(r.id)),
  );
}

/** Empties every list table of every space (a rebuild from the log follows: `LIST_REINDEX`). */
export async function clearAllListTables(db: Transaction<Database>, dialect: StoreDialect): Promise<void> {
  for (const table of ['list_values', 'list_rows', 'list_entries'] as const)
    await db.deleteFrom(table).execute();
  await dialect.clearSearch(db);
}

interface LogRow {
  space_id: string;
  entry_id: string;
  cv_from: number | string;
  cv_to: number | string | null;
  type_kind: string;
  doc: unknown;
}

/** Indexes a page of log rows: one write per (space, cv) group, then the closed ones closed per (space, cvs). */
async function indexLogRows(
  tx: Transaction<Database>,
  dialect: StoreDialect,
  rows: readonly LogRow[],
): Promise<void> {
  const opened = new Map<
    string,
    { space: string; cv: number; items: Parameters<typeof putListVersions>[4][number][] }
  >();
  const closed = new Map<string, { space: string; cvFrom: number; cvTo: number; entries: string[] }>();
  for (const r of rows) {
    const cv = Number(r.cv_from);
    const group = opened.get(`${r.space_id}\n${cv}`) ?? { space: r.space_id, cv, items: [] };
    opened.set(`${r.space_id}\n${cv}`, group);
    group.items.push({ snapshot: parse<EntrySnapshot>(r.doc), typeKind: r.type_kind });
    if (r.cv_to === null) continue;
    const key = `${r.space_id}\n${cv}\n${Number(r.cv_to)}`;
    const c = closed.get(key) ?? { space: r.space_id, cvFrom: cv, cvTo: Number(r.cv_to), entries: [] };
    closed.set(key, c);
    c.entries.push(r.entry_id);
  }
  for (const g of opened.values()) await putListVersions(tx, dialect, g.space, g.cv, g.items);
  for (const c of closed.values()) {
    const ids = await tx
      .selectFrom('list_entries')
      .select('id')
      .where('space_id', '=', c.space)
      .where('cv_from', '=', c.cvFrom)
      .where('entry_id', 'in', c.entries)
      .execute();
    await closeVersions(
      tx,
      dialect,
      ids.map((i) => Number(i.id)),
      c.cvTo,
    );
  }
}

/**
 * Indexes every version of the published log into empty list tables, each at its own cv, closed ones closed
 * again, so pinned cvs list what they showed (`LIST_REINDEX` rebuilds with it).
 */
export async function backfillListTables(tx: Transaction<Database>, dialect: StoreDialect): Promise<void> {
  let after: { space: string; entry: string; cv: number } | null = null;
  for (;;) {
    let query = tx
      .selectFrom('entry_versions')
      .select(['space_id', 'entry_id', 'cv_from', 'cv_to', 'type_kind', 'doc'])
      .orderBy('space_id')
      .orderBy('entry_id')
      .orderBy('cv_from')
      .limit(500);
    if (after !== null) {
      const a = after;
      query = query.where((eb) =>
        eb.or([
          eb('space_id', '>', a.space),
          eb.and([eb('space_id', '=', a.space), eb('entry_id', '>', a.entry)]),
          eb.and([eb('space_id', '=', a.space), eb('entry_id', '=', a.entry), eb('cv_from', '>', a.cv)]),
        ]),
      );
    }
    const rows = await query.execute();
    await indexLogRows(tx, dialect, rows);
    const last = rows.at(-1);
    if (!last || rows.length < 500) break;
    after = { space: last.space_id, entry: last.entry_id, cv: Number(last.cv_from) };
  }
  // The per-cv models read are keyed by the transaction; drop them in case the caller's outlives this.
  contexts.delete(tx);
}

/**
 * The list tables rebuilt from the published log (clear, then `backfillListTables`), run by `openStore` after
 * migrations when a store's recorded version is lower (src/store/reindex.ts). Version 1 is what migration 0007
 * used to run inside itself. Raise `version` when what the tables hold for a version changes (a new derived
 * column, a new kind of index value): every store then rebuilds once on its next start.
 */
export const LIST_REINDEX: ReindexStep = {
  step: 'lists',
  // 2: the full text holds block text too (`searchTexts` reads blocks).
  version: 2,
  async run(tx, dialect) {
    await clearAllListTables(tx, dialect);
    await backfillListTables(tx, dialect);
  },
};

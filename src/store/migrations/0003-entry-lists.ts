import { type Kysely, sql } from 'kysely';
import type { Engine } from '../dialect/dialect.js';

/**
 * Entry lists (spec 4.3), the tree and the sitemap read narrow tables derived from the published log, so
 * filters, sorts, `total` and pagination run in SQL on indexes instead of parsing JSON documents:
 *
 * - `list_entries`: one row per entry version (globals excluded), the columns lists sort and filter on.
 *   `cv_to` is 2147483647 while open (not NULL) so visibility is two plain range conditions an index serves.
 * - `list_values`: the values a client of each locale receives (after fallback, spec 1.3) of the filterable
 *   fields, plus `@tags`, `@path` (per locale), `@pathkey` (folders) and `@noindex` (spec 2.7); visibility
 *   and type are copied in so a filter's index range is checked without a lookup.
 * - full text: `list_fts` (SQLite FTS5) or `list_search` (PostgreSQL tsvector), see src/store/dialect/.
 *
 * Frozen: spells out each engine's types and DDL and never calls live code (STYLE.md rule 14).
 */
export async function up0003EntryLists(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const pg = engine === 'postgres';
  // Text compared and sorted in UTF-8 byte order on both engines (PostgreSQL: collation "C").
  const text = pg ? sql`text collate "C"` : sql`text`;
  const real = pg ? 'double precision' : 'real';
  await db.schema
    .createTable('list_entries')
    .addColumn('id', 'integer', (c) =>
      pg ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn('space_id', text, (c) => c.notNull())
    .addColumn('entry_id', text, (c) => c.notNull())
    .addColumn('cv_from', 'integer', (c) => c.notNull())
    .addColumn('cv_to', 'integer', (c) => c.notNull())
    .addColumn('type', text, (c) => c.notNull())
    .addColumn('kind', text, (c) => c.notNull())
    .addColumn('parent_id', text)
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('name', text, (c) => c.notNull())
    .addColumn('published_at', text, (c) => c.notNull())
    .addColumn('first_published_at', text, (c) => c.notNull())
    .execute();
  const index = (name: string, table: string, columns: string[]) =>
    db.schema.createIndex(name).on(table).columns(columns).execute();
  const vis = ['cv_from', 'cv_to'];
  // The common list queries: by type newest first, everything newest first, a folder's children by position.
  await index('list_entries_type', 'list_entries', ['space_id', 'type', 'published_at', 'entry_id', ...vis]);
  await index('list_entries_published', 'list_entries', [
    'space_id',
    'published_at',
    'entry_id',
    'kind',
    ...vis,
  ]);
  await index('list_entries_parent', 'list_entries', [
    'space_id',
    'parent_id',
    'position',
    'entry_id',
    ...vis,
  ]);
  await index('list_entries_entry', 'list_entries', ['space_id', 'entry_id', 'cv_to']);

  await db.schema
    .createTable('list_values')
    .addColumn('space_id', text, (c) => c.notNull())
    .addColumn('vid', 'integer', (c) => c.notNull())
    .addColumn('cv_from', 'integer', (c) => c.notNull())
    .addColumn('cv_to', 'integer', (c) => c.notNull())
    .addColumn('type', text, (c) => c.notNull())
    .addColumn('key', text, (c) => c.notNull())
    .addColumn('loc', text, (c) => c.notNull())
    .addColumn('str', text)
    .addColumn('num', real)
    .execute();
  // A filter's rows in value order (eq, in, ranges, path prefixes), each checked for type and cv in the index;
  // (str, vid) order lets the sitemap walk paths with a keyset and stop at its batch size.
  await db.schema
    .createIndex('list_values_str')
    .on('list_values')
    .columns(['space_id', 'key', 'loc', 'str', 'vid', 'type', 'cv_to', 'cv_from'])
    .where(sql.ref('str'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('list_values_num')
    .on('list_values')
    .columns(['space_id', 'key', 'loc', 'num', 'vid', 'type', 'cv_to', 'cv_from'])
    .where(sql.ref('num'), 'is not', null)
    .execute();
  // A version's values: EXISTS probes of the other filters, sort values, closing a version.
  await index('list_values_vid', 'list_values', ['vid', 'key', 'loc', 'str', 'num']);
  if (pg) {
    // A `tsvector` per version and locale with the locale's text-search configuration, and a GIN index.
    await sql`create table list_search (vid integer not null, tsv tsvector not null)`.execute(db);
    await sql`create index list_search_tsv on list_search using gin (tsv)`.execute(db);
    await sql`create index list_search_vid on list_search (vid)`.execute(db);
    // List queries are short and index-driven: parallel workers only add start-up latency (measured: +8 ms).
    for (const table of ['list_entries', 'list_values', 'list_search'])
      await sql`alter table ${sql.table(table)} set (parallel_workers = 0)`.execute(db);
    // key and str are strongly correlated (a category's values); without this the planner misjudges filters.
    await sql`create statistics list_values_key_str (mcv, ndistinct, dependencies)
      on space_id, key, loc, str from list_values`.execute(db);
    await sql`create statistics list_values_key_num (mcv, dependencies)
      on space_id, key, loc, num from list_values`.execute(db);
  } else {
    // FTS5, unicode61 (diacritics folded, no stemming), contentless: the text is not stored twice.
    await sql`create virtual table list_fts using fts5(scope, body, content='', contentless_delete=1,
      tokenize='unicode61 remove_diacritics 2')`.execute(db);
  }
  // Versions a store published before this migration are indexed by the reindex step that runs after the
  // migrations (src/store/reindex.ts, recorded as due by 0007).
}

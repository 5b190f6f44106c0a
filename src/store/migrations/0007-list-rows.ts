import { type Kysely, sql } from 'kysely';
import type { Engine } from '../dialect/dialect.js';

// The slot columns as they were when this migration shipped (src/delivery/list/slots.ts may change; this may not).
const STR_SLOTS = ['s1', 's2', 's3', 's4'] as const;
const NUM_SLOTS = ['n1', 'n2', 'n3', 'n4'] as const;

/**
 * `list_rows` (src/delivery/list/slots.ts): one wide row per entry version and locale (`*` when no slotted
 * field is localized) with the version's short single-valued field values in slot columns, so a list
 * filtered by `type` and an `eq`/`in` on such a field counts and pages from one index range with the other
 * slotted filters tested inside it. Measured on 100k entries: `total` of a category plus rating filter took
 * 14 ms (SQLite) and 23 ms (PostgreSQL) probing `list_values` per match.
 *
 * Every slot column is in every index, so these queries never leave the index: one index per string slot (the
 * selective filters) and one in `published_at` order for dense lists walked newest first.
 *
 * `list_entries` gets each version's paths per locale and its noindex locales (the sitemap's alternates).
 *
 * On PostgreSQL the search rows (`list_search`) get the entry id, type, publish time and cv range of their
 * version, so a full-text list filters and sorts its matches without joining list_entries.
 *
 * Existing versions must be indexed again from the published log (list tables cleared and rebuilt, each version
 * at its own cv), which is what fills the new table. That rebuild runs today's code, so it is not done here: this
 * migration creates `folio_reindex` with no rows, which says every reindex step is due, and the `lists` step
 * runs after the migrations (src/store/reindex.ts). A store migrated past 0007 before that (when 0007 rebuilt the
 * tables itself) has no `folio_reindex` table, which says its list tables were built already.
 *
 * Frozen: spells out each engine's types and DDL and never calls live code (STYLE.md rule 14).
 */
export async function up0007ListRows(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const pg = engine === 'postgres';
  const text = pg ? sql`text collate "C"` : sql`text`;
  const real = pg ? 'double precision' : 'real';
  let table = db.schema
    .createTable('list_rows')
    .addColumn('space_id', text, (c) => c.notNull())
    .addColumn('vid', 'integer', (c) => c.notNull())
    .addColumn('loc', text, (c) => c.notNull())
    .addColumn('cv_from', 'integer', (c) => c.notNull())
    .addColumn('cv_to', 'integer', (c) => c.notNull())
    .addColumn('type', text, (c) => c.notNull())
    .addColumn('published_at', text, (c) => c.notNull())
    .addColumn('entry_id', text, (c) => c.notNull());
  for (const s of STR_SLOTS) table = table.addColumn(s, text);
  for (const n of NUM_SLOTS) table = table.addColumn(n, real);
  await table.execute();

  const slots = [...STR_SLOTS, ...NUM_SLOTS];
  const vis = ['cv_to', 'cv_from'];
  const head = ['space_id', 'type', 'loc'];
  await db.schema
    .createIndex('list_rows_walk')
    .on('list_rows')
    .columns([...head, 'published_at', 'entry_id', ...vis, ...slots, 'vid'])
    .execute();
  for (const s of STR_SLOTS)
    await db.schema
      .createIndex(`list_rows_${s}`)
      .on('list_rows')
      .columns([...head, s, ...vis, ...slots.filter((o) => o !== s), 'published_at', 'entry_id', 'vid'])
      .where(sql.ref(s), 'is not', null)
      .execute();
  await db.schema.createIndex('list_rows_vid').on('list_rows').columns(['vid']).execute();
  if (pg) {
    // Search rows carry what a list checks and sorts by, so a search reads no list_entries (dialect `matches`).
    await sql`alter table list_search add column entry_id text collate "C", add column type text collate "C",
      add column published_at text collate "C", add column cv_from integer, add column cv_to integer`.execute(
      db,
    );
    await sql`alter table list_rows set (parallel_workers = 0)`.execute(db);
    for (const s of STR_SLOTS)
      await sql`create statistics ${sql.raw(`list_rows_${s}_stats`)} (mcv, dependencies)
        on space_id, type, loc, ${sql.ref(s)} from list_rows`.execute(db);
  }

  // What the sitemap reads per entry besides its path: the paths of every locale and the noindex locales,
  // so a row costs one lookup instead of one per locale (JSON text, parsed by the reader).
  await db.schema.alterTable('list_entries').addColumn('paths', text).execute();
  await db.schema.alterTable('list_entries').addColumn('noindex', text).execute();

  // Versions of reindex steps done (src/store/reindex.ts): the list tables are rebuilt after migrating.
  await db.schema
    .createTable('folio_reindex')
    .addColumn('step', 'text', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();
  // A store with no published version yet (every new store) has nothing to rebuild: its list tables are what the
  // `lists` step's version 1 would build (empty), whoever opens it and with whichever steps.
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from entry_versions`.execute(db);
  if (Number(rows[0]?.n ?? 0) === 0)
    await sql`insert into folio_reindex (step, version) values ('lists', 1)`.execute(db);
}

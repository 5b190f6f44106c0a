import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { ListEngine, SearchDoc } from './list-engine.js';

// list-repo's OPEN_CV (not imported: list-repo imports this module).
const OPEN_CV = 2147483647;

/**
 * The vector of one text: the scope token as a lexeme of its own, then the text in its locale's configuration.
 * Each argument is a value (bound) or a column reference (`sql\`d.body\``).
 */
function vectorSql(scope: unknown, config: unknown, body: unknown): RawBuilder<unknown> {
  return sql`to_tsvector('simple', ${scope}) || to_tsvector(${config}::regconfig, ${body})`;
}

/**
 * PostgreSQL: a `tsvector` per version and locale built with the locale's text-search configuration
 * (stemming, stop words) and a GIN index; the scope token is a lexeme of its own, so a query intersects it.
 */
export const postgresListEngine: ListEngine = {
  textType: sql`text collate "C"`,
  realType: 'double precision',
  serialType: sql`integer`,
  serialConstraint: 'generated',

  async afterCreate(db: Kysely<unknown>) {
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
  },

  async insertSearch(tx, docs: readonly SearchDoc[]) {
    for (let i = 0; i < docs.length; i += 500) {
      const rows = docs.slice(i, i + 500).map(
        (d) =>
          sql`(${d.vid}, ${d.vector === undefined ? vectorSql(d.scope, d.config, d.body) : sql`${d.vector}::tsvector`},
              ${d.entryId}, ${d.type}, ${d.publishedAt}, ${d.cvFrom}, ${OPEN_CV})`,
      );
      await sql`insert into list_search (vid, tsv, entry_id, type, published_at, cv_from, cv_to)
        values ${sql.join(rows)}`.execute(tx);
    }
  },

  async searchVectors(db, docs) {
    const out: string[] = [];
    for (let i = 0; i < docs.length; i += 2000) {
      const chunk = docs.slice(i, i + 2000);
      const { rows } = await sql<{
        v: string;
      }>`select (${vectorSql(sql`d.scope`, sql`d.config`, sql`d.body`)})::text as v
        from unnest(${chunk.map((d) => d.scope)}::text[], ${chunk.map((d) => d.config)}::text[],
          ${chunk.map((d) => d.body)}::text[]) with ordinality as d(scope, config, body, n) order by d.n`.execute(
        db,
      );
      for (const r of rows) out.push(r.v);
    }
    return out;
  },

  async deleteSearch(tx, vids) {
    if (vids.length > 0) await sql`delete from list_search where vid in (${sql.join(vids)})`.execute(tx);
  },

  async clearSearch(tx) {
    await sql`delete from list_search`.execute(tx);
  },

  async closeSearch(tx, vids, cv) {
    if (vids.length > 0)
      await sql`update list_search set cv_to = ${cv} where vid in (${sql.join(vids)})`.execute(tx);
  },

  matchesAreRows: true,

  matches(scope, config, words, at) {
    const type =
      at.type !== null
        ? sql`s.type = ${at.type}`
        : at.folderTypes.length > 0
          ? sql`s.type not in (${sql.join(at.folderTypes)})`
          : sql`true`;
    // An all-stop-word query gives an empty tsquery: it must match nothing, not the whole scope.
    return sql`select s.vid, ts_rank(s.tsv, q.w)::float8 as rank, s.entry_id, s.published_at
      from list_search s, (select to_tsquery('simple', ${scope}) && plainto_tsquery(${config}::regconfig,
        ${words.join(' ')}) as w, numnode(plainto_tsquery(${config}::regconfig, ${words.join(' ')})) as n) q
      where q.n > 0 and s.tsv @@ q.w and s.cv_from <= ${at.cv} and s.cv_to > ${at.cv} and ${type}`;
  },

  contains: (haystack, needle) => sql`strpos(${haystack}, ${needle}) > 0`,
  orderedJoin: sql`join`,
  perRowProbe: sql` offset 0`,
};

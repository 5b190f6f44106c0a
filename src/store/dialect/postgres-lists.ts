import { type RawBuilder, sql } from 'kysely';
import { ANY_WORD_ROWS, type ListSql, OPEN_CV, type SearchDoc } from './lists.js';

/** A word expected in more rows than this (by the planner's statistics) is common: it ranks but does not select. */
export const COMMON_WORD_ROWS = 1000;

/**
 * The vector of one text: the scope token as a lexeme of its own, then the text in its locale's configuration.
 * Each argument is a value (bound) or a column reference (`sql\`d.body\``).
 */
function vectorSql(scope: unknown, config: unknown, body: unknown): RawBuilder<unknown> {
  return sql`to_tsvector('simple', ${scope}) || to_tsvector(${config}::regconfig, ${body})`;
}

/**
 * PostgreSQL's list SQL (part of `postgresDialect`): a `tsvector` per version and locale built with the locale's
 * text-search configuration (stemming, stop words) and a GIN index (migration 0003); the scope token is a lexeme of
 * its own, so a query intersects it.
 */
export const postgresListSql: ListSql = {
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

  bulkSearchLoad: {
    async before(tx) {
      // The largest the setting takes (kB): the pending list lives in the index's pages, not in memory.
      await sql`set local gin_pending_list_limit = 2147483647`.execute(tx);
    },
    async after(db) {
      await sql`select gin_clean_pending_list('list_search_tsv'::regclass)`.execute(db);
      // Fresh statistics after a bulk load, rather than whenever autovacuum gets to it: the plans and the
      // common-word cut of semantic search's word half (`matches`) read them.
      await sql`analyze list_search`.execute(db);
    },
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
    // An all-stop-word query gives an empty tsquery: it must match nothing, not the whole scope. Words are letters
    // and digits only (list params), so joined with `|` they are safe to_tsquery syntax.
    if (!at.anyWord) {
      const text = sql`plainto_tsquery(${config}::regconfig, ${words.join(' ')})`;
      return sql`select s.vid, ts_rank(s.tsv, q.w)::float8 as rank, s.entry_id, s.published_at
        from list_search s, (select to_tsquery('simple', ${scope}) && ${text} as w, numnode(${text}) as n) q
        where q.n > 0 and s.tsv @@ q.w and s.cv_from <= ${at.cv} and s.cv_to > ${at.cv} and ${type}`;
    }
    // Any word: candidates for semantic search's fusion, not a listing, so only the best-ranked rows go on. Every
    // match is read and ranked, so a common word (`coffee` on a roastery's site) would make the query read a large
    // share of the table. As Elasticsearch's common-terms query does, only the rare words select the rows and
    // every word ranks them; when every word is common, rows must hold them all. "Common" is read from the
    // planner's own statistics (ANALYZE's most common elements of the tsvector column): a word expected in more
    // than COMMON_WORD_ROWS rows. A small table has no common words, so nothing changes there.
    const all = sql`to_tsquery(${config}::regconfig, ${words.join(' | ')})`;
    const select = sql`with stats as (
        select st.most_common_elems::text::text[] as elems, st.most_common_elem_freqs as freqs, c.reltuples
        from pg_stats st join pg_class c on c.oid = 'list_search'::regclass
        where st.schemaname = current_schema() and st.tablename = 'list_search' and st.attname = 'tsv'),
      lexemes as (
        select l.lex, coalesce(stats.freqs[array_position(stats.elems, l.lex)] * stats.reltuples, 0) as rows
        from unnest(tsvector_to_array(to_tsvector(${config}::regconfig, ${words.join(' ')}))) as l(lex)
        left join stats on true)
      select coalesce(
        (select string_agg(quote_literal(lex), ' | ')::tsquery from lexemes where rows <= ${COMMON_WORD_ROWS}),
        (select string_agg(quote_literal(lex), ' & ')::tsquery from lexemes)) as w`;
    return sql`select s.vid, ts_rank(s.tsv, q.r)::float8 as rank, s.entry_id, s.published_at
      from list_search s, (select to_tsquery('simple', ${scope}) && sel.w as w, to_tsquery('simple', ${scope}) && ${all} as r,
        numnode(sel.w) as n from (${select}) sel) q
      where q.n > 0 and s.tsv @@ q.w and s.cv_from <= ${at.cv} and s.cv_to > ${at.cv} and ${type}
      order by rank desc limit ${ANY_WORD_ROWS}`;
  },

  contains: (haystack, needle) => sql`strpos(${haystack}, ${needle}) > 0`,
  orderedJoin: sql`join`,
  perRowProbe: sql` offset 0`,
};

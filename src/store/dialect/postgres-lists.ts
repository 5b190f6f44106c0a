import { type RawBuilder, sql } from 'kysely';
import { ANY_WORD_ROWS, type ListSql, OPEN_CV, type SearchDoc } from './lists.js';

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
    const text = at.anyWord
      ? sql`to_tsquery(${config}::regconfig, ${words.join(' | ')})`
      : sql`plainto_tsquery(${config}::regconfig, ${words.join(' ')})`;
    // Any word: candidates for semantic search's fusion, not a listing, so only the best-ranked rows go on.
    const best = at.anyWord ? sql` order by rank desc limit ${ANY_WORD_ROWS}` : sql``;
    return sql`select s.vid, ts_rank(s.tsv, q.w)::float8 as rank, s.entry_id, s.published_at
      from list_search s, (select to_tsquery('simple', ${scope}) && ${text} as w, numnode(${text}) as n) q
      where q.n > 0 and s.tsv @@ q.w and s.cv_from <= ${at.cv} and s.cv_to > ${at.cv} and ${type}${best}`;
  },

  contains: (haystack, needle) => sql`strpos(${haystack}, ${needle}) > 0`,
  orderedJoin: sql`join`,
  perRowProbe: sql` offset 0`,
};

import { sql } from 'kysely';
import { bulkInsert } from './bulk-insert.js';
import { ANY_WORD_ROWS, type ListSql, type SearchDoc } from './lists.js';

// A version's full-text rows are keyed vid * SLOTS + slot (FTS5 rows are addressed by integer rowid).
const SLOTS = 1024;

/**
 * SQLite's list SQL (part of `sqliteDialect`): FTS5 (migration 0003) with the unicode61 tokenizer (diacritics
 * folded, no stemming: FTS5 ships no stemmer for other languages than English) in a contentless table, so the text
 * is not stored twice.
 */
export const sqliteListSql: ListSql = {
  async insertSearch(tx, docs: readonly SearchDoc[]) {
    const rows = docs.map((d) => [d.vid * SLOTS + d.slot, d.scope, d.body]);
    await bulkInsert(tx, 'list_fts', ['rowid', 'scope', 'body'], rows);
  },

  async deleteSearch(tx, vids) {
    for (const vid of vids) {
      await sql`delete from list_fts where rowid >= ${vid * SLOTS} and rowid < ${(vid + 1) * SLOTS}`.execute(
        tx,
      );
    }
  },

  async clearSearch(tx) {
    await sql`insert into list_fts(list_fts) values ('delete-all')`.execute(tx);
  },

  async closeSearch() {
    // The full-text rows carry no visibility: matches are joined to list_entries.
  },

  matchesAreRows: false,

  matches(scope, _config, words, at) {
    // Words are letters and digits only (list params), so quoting them as phrases is safe FTS5 syntax.
    const op = at.anyWord ? ' OR ' : ' AND ';
    const query = `scope : ${scope} AND body : (${words.map((w) => `"${w}"`).join(op)})`;
    // Any word: only the best-ranked rows go on to the join and the visibility check (they are candidates for a
    // fusion, not a listing), which bounds a query of common words (docs/operations.md, "Figures behind the code").
    const best = at.anyWord ? sql` order by bm25(list_fts, 0.0, 1.0) limit ${ANY_WORD_ROWS}` : sql``;
    return sql`select rowid >> 10 as vid, -bm25(list_fts, 0.0, 1.0) as rank from list_fts
      where list_fts match ${query}${best}`;
  },

  contains: (haystack, needle) => sql`instr(${haystack}, ${needle}) > 0`,
  orderedJoin: sql`cross join`,
  perRowProbe: sql``,
};

import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Database } from '../schema.js';
import { likeContains, trigramsOf } from './like.js';

/**
 * Above this many submissions holding a term's rarest trigram, reading the form's rows (a LIKE over each, about
 * 1 µs a row) costs less than collecting the candidates from the index and looking each one up.
 */
const DENSE = 5_000;
/** The rarest trigrams a search reads from the index; the LIKE confirms the rest. */
const READ_TRIGRAMS = 2;

/**
 * SQLite's planned inbox search: the FTS5 trigram table of migration 0031 (`submission_search`, its vocabulary in
 * `submission_search_vocab`). A phrase of every trigram of the term reads every one of their lists (`person 4242`
 * read all of `per` `ers` `rso` `son`: in every submission); instead the two rarest trigrams, from the vocabulary,
 * give the candidates, and the LIKE on each candidate's row confirms the whole term.
 */
export async function sqliteSubmissionSearch(
  db: Kysely<Database>,
  term: string,
): Promise<RawBuilder<SqlBool>> {
  const like = sql<boolean>`${sql.ref('submissions.search_text')} like ${likeContains(term)} escape '\\'`;
  if (trigramsOf(term) === 0) return like;
  const chars = [...term];
  const trigrams = [...new Set(chars.slice(0, -2).map((_, i) => chars.slice(i, i + 3).join('')))].slice(
    0,
    64,
  );
  const { rows } = await sql<{ term: string; doc: number }>`select term, doc from submission_search_vocab
    where term in (${sql.join(trigrams)})`.execute(db);
  // A trigram the index spells otherwise (FTS5 folds case by its own tables) is not found here: read the rows.
  if (rows.length < trigrams.length) return like;
  const rarest = rows.sort((a, b) => a.doc - b.doc).slice(0, READ_TRIGRAMS);
  if ((rarest[0]?.doc ?? Infinity) > DENSE) return like;
  const match = rarest.map((r) => `"${r.term.replaceAll('"', '""')}"`).join(' AND ');
  return sql<boolean>`${sql.ref('submissions.id')} in (select r.submission_id from submission_search s
    join submission_search_rows r on r.rowid = s.rowid where submission_search match ${match}) and ${like}`;
}

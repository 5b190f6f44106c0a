import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Database } from '../schema.js';
import { likeContains, trigramsOf } from './like.js';

/**
 * Above this many candidates from the index, reading the form's rows (a LIKE over each, about 1 µs a row) costs
 * less than looking each candidate up.
 */
const DENSE = 5_000;

/** The folded copy holds `term`, tested on the row (SQLite's LIKE; `\` escapes `%`, `_` and itself). */
export const sqliteTextLike = (term: string) =>
  sql<boolean>`${sql.ref('submissions.search_text')} like ${likeContains(term)} escape '\\'`;

/**
 * SQLite's planned inbox search over the FTS5 trigram table of migration 0031 (`submission_search`). Every trigram
 * of the term must be in a row (FTS5's AND skips through the lists rather than reading them whole, as a phrase
 * query does); up to DENSE + 1 candidates are read once, here, and the page and its total look those up. A term
 * with more candidates (a word of most submissions) tests the form's rows instead. The LIKE on each row confirms
 * the whole term in both cases. The candidates are looked up by primary key once `submissions` has statistics
 * (`refreshStatistics`, with the hourly sweeps): without them SQLite reads the form's index instead.
 */
export async function sqliteSubmissionSearch(
  db: Kysely<Database>,
  term: string,
): Promise<RawBuilder<SqlBool>> {
  const like = sqliteTextLike(term);
  if (trigramsOf(term) === 0) return like;
  const chars = [...term];
  const trigrams = new Set(chars.slice(0, -2).map((_, i) => chars.slice(i, i + 3).join('')));
  // Each trigram quoted as an FTS5 string: the tokenizer folds it as it folded the rows.
  const match = [...trigrams].map((t) => `"${t.replaceAll('"', '""')}"`).join(' AND ');
  const { rows } = await sql<{ rowid: number }>`select rowid from submission_search
    where submission_search match ${match} limit ${DENSE + 1}`.execute(db);
  if (rows.length > DENSE) return like;
  const rowids = JSON.stringify(rows.map((r) => r.rowid));
  return sql<boolean>`${sql.ref('submissions.id')} in (select r.submission_id from submission_search_rows r
    where r.rowid in (select value from json_each(${rowids}))) and ${like}`;
}

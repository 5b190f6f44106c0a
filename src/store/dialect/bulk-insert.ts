import { CompiledQuery, PostgresAdapter } from 'kysely';
import type { Queryable } from '../spaces-repo.js';

/**
 * Bound parameters per statement: under SQLite's limit (32,766 since 3.32) and PostgreSQL's (65,535), so one
 * chunk size serves both engines.
 */
const MAX_PARAMS = 32_000;

// The statement text per table, columns and row count: a load of n rows uses at most two texts (full chunks and
// the rest), so SQLite's statement cache (dialect/sqlite-statements.ts) prepares each once.
const texts = new Map<string, string>();

function statement(
  numbered: boolean,
  table: string,
  columns: readonly string[],
  rows: number,
  returning: readonly string[],
) {
  const key = `${numbered}\n${table}\n${columns.join(',')}\n${rows}\n${returning.join(',')}`;
  let text = texts.get(key);
  if (text === undefined) {
    // PostgreSQL numbers its placeholders; SQLite binds an array to anonymous ones.
    const tuple = (r: number) =>
      `(${columns.map((_, c) => (numbered ? `$${r * columns.length + c + 1}` : '?')).join(',')})`;
    const values = Array.from({ length: rows }, (_, r) => tuple(r)).join(',');
    const quote = (name: string) => `"${name}"`;
    text = `insert into ${quote(table)} (${columns.map(quote).join(',')}) values ${values}`;
    if (returning.length > 0) text += ` returning ${returning.map(quote).join(',')}`;
    if (texts.size > 200) texts.clear();
    texts.set(key, text);
  }
  return text;
}

/**
 * Inserts many rows with multi-row statements built once per shape, without building a query tree per row:
 * for bulk loads (an import writes millions of rows), where Kysely's per-row compiling cost more than the
 * database's work. Table and column names come from code, never from input. Returns the `returning` columns of
 * every row, in order.
 */
export async function bulkInsert<R = Record<string, unknown>>(
  db: Queryable,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
  returning: readonly string[] = [],
): Promise<R[]> {
  const perStatement = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  const numbered = db.getExecutor().adapter instanceof PostgresAdapter;
  const out: R[] = [];
  for (let i = 0; i < rows.length; i += perStatement) {
    const chunk = rows.slice(i, i + perStatement);
    const params: unknown[] = [];
    for (const row of chunk) for (const v of row) params.push(v);
    const result = await db.executeQuery<R>(
      CompiledQuery.raw(statement(numbered, table, columns, chunk.length, returning), params),
    );
    for (const r of result.rows) out.push(r);
  }
  return out;
}

import { sql } from 'kysely';
import type { StoreDialect } from './dialect.js';
import { dollarQuoted, likeContains } from './like.js';
import { postgresListSql } from './postgres-lists.js';

const textLike = (term: string) =>
  sql<boolean>`${sql.ref('submissions.search_text')} like ${sql.raw(dollarQuoted(likeContains(term)))}`;

export const postgresDialect: StoreDialect = {
  engine: 'postgres',
  ...postgresListSql,

  jsonType: 'jsonb',
  // node-postgres parses jsonb already; objects and arrays are the only values stored.
  parseJson<T>(value: unknown): T {
    return value as T;
  },
  jsonText: (column) => sql<string>`${sql.ref(column)}::text`,
  // `strict $.**` yields every node of the jsonb document; `#>> '{}'` is a node's text without JSON quoting.
  jsonValueLike: (column, pattern) =>
    sql<boolean>`exists (select 1 from jsonb_path_query(${sql.ref(column)}, 'strict $.**') as node(v) where jsonb_typeof(v) in ('string', 'number') and lower(v #>> '{}') like lower(${pattern}::text) escape '\\')`,
  // `lax $[*]` yields a list's items, or the scalar itself (lax mode wraps it).
  jsonFieldHas: (column, key, value) =>
    sql<boolean>`exists (select 1 from jsonb_path_query(${sql.ref(column)} -> ${key}::text, 'lax $[*]') as item(v) where jsonb_typeof(v) in ('string', 'number', 'boolean') and v #>> '{}' = ${value}::text)`,

  // LIKE '%…%' with the pattern written into the statement, not bound: the planner sees it and picks the pg_trgm
  // GIN index (migration 0031) for a rare term and the form's rows for one in most of them. A bound pattern is
  // planned generically on connections that run named statements (plan_cache_mode, open-store.ts), as if unknown:
  // a term in every row read all of it through the index (1 s at 100k). No ESCAPE clause either: it hid the pattern
  // behind like_escape(); backslash is PostgreSQL's default LIKE escape.
  submissionTextLike: textLike,
  submissionSearch: async (_db, term) => textLike(term),

  async refreshStatistics() {
    // Autovacuum analyzes.
  },

  streamsRows: true,
  rowLocks: true,
  async lockForWrite() {
    // Row locks (`rowLocks`) serialise what must be serialised.
  },
  async currentSchema(db) {
    return (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema;
  },
  async purgeDeleted(db, tables) {
    if (tables.length === 0) return;
    // SKIP_LOCKED: a table another VACUUM (autovacuum, another worker's sweep) holds is left to it. A table the
    // connecting role does not own is skipped with a warning, never an error.
    await sql`vacuum (skip_locked) ${sql.join(tables.map((t) => sql.table(t)))}`.execute(db);
  },
};

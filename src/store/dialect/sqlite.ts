import { sql } from 'kysely';
import type { StoreDialect } from './dialect.js';
import { sqliteSubmissionSearch, sqliteTextLike } from './sqlite-search.js';
import { sqliteListSql } from './sqlite-lists.js';

export const sqliteDialect: StoreDialect = {
  engine: 'sqlite',
  ...sqliteListSql,

  jsonType: 'text',
  parseJson<T>(value: unknown): T {
    return (typeof value === 'string' ? JSON.parse(value) : value) as T;
  },
  // Documents are stored as their JSON text.
  jsonText: (column) => sql<string>`${sql.ref(column)}`,
  // json_tree walks every node (`type` text, integer, real for the values searched). lower() folds ASCII only.
  jsonValueLike: (column, pattern) =>
    sql<boolean>`exists (select 1 from json_tree(${sql.ref(column)}) where type in ('text', 'integer', 'real') and lower(value) like lower(${pattern}) escape '\\')`,
  // json_each at `$."<key>"` gives a list's items, or the scalar itself. The key is checked by the caller
  // (letters, digits, `_`, `-`): quoting it in the path is safe.
  jsonFieldHas: (column, key, value) =>
    sql<boolean>`exists (select 1 from json_each(${sql.ref(column)}, ${`$."${key}"`}) where (case type when 'text' then value when 'integer' then cast(value as text) when 'real' then cast(value as text) when 'true' then 'true' when 'false' then 'false' end) = ${value})`,

  submissionTextLike: sqliteTextLike,
  submissionSearch: (db, term) => sqliteSubmissionSearch(db, term),

  async refreshStatistics(db) {
    // A bound on the rows ANALYZE reads per index (the setting SQLite recommends for `optimize`).
    await sql`pragma analysis_limit = 400`.execute(db);
    await sql`analyze submissions`.execute(db);
  },

  streamsRows: false,
  rowLocks: false,
  async lockForWrite(tx) {
    // A write that changes nothing still takes the database's write lock (RESERVED) for the transaction.
    await sql`update spaces set cv = cv where 0 = 1`.execute(tx);
  },
  async currentSchema() {
    return undefined;
  },
  async purgeDeleted(db) {
    // The whole WAL: a checkpoint is not per table. A TRUNCATE waits for readers (busy_timeout), then empties it.
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
  },
};

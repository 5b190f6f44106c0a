import { sql } from 'kysely';
import type { InboxSql } from './inbox-sql.js';

const values = sql.ref('submissions.values');

/**
 * PostgreSQL: `strict $.**` yields every node of the jsonb document; `lax $[*]` yields a list's items, or the
 * scalar itself (lax mode wraps it). `#>> '{}'` is a node's text without JSON quoting.
 */
export const postgresInboxSql: InboxSql = {
  valueLike: (pattern) =>
    sql<boolean>`exists (select 1 from jsonb_path_query(${values}, 'strict $.**') as node(v) where jsonb_typeof(v) in ('string', 'number') and lower(v #>> '{}') like lower(${pattern}::text) escape '\\')`,
  fieldHas: (key, value) =>
    sql<boolean>`exists (select 1 from jsonb_path_query(${values} -> ${key}::text, 'lax $[*]') as item(v) where jsonb_typeof(v) in ('string', 'number', 'boolean') and v #>> '{}' = ${value}::text)`,
};

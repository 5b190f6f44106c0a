import { sql } from 'kysely';
import type { InboxSql } from './inbox-sql.js';

const values = sql.ref('submissions.values');

/**
 * SQLite: json_tree walks every node of the stored JSON (`type` text, integer, real for the values searched);
 * json_each at `$."<key>"` gives a list's items, or the scalar itself. Its lower() folds ASCII letters only.
 */
export const sqliteInboxSql: InboxSql = {
  valueLike: (pattern) =>
    sql<boolean>`exists (select 1 from json_tree(${values}) where type in ('text', 'integer', 'real') and lower(value) like lower(${pattern}) escape '\\')`,
  // The key passed KEY_FORMAT (letters, digits, `_`, `-`): quoting it in the path is safe.
  fieldHas: (key, value) =>
    sql<boolean>`exists (select 1 from json_each(${values}, ${`$."${key}"`}) where (case type when 'text' then value when 'integer' then cast(value as text) when 'real' then cast(value as text) when 'true' then 'true' when 'false' then 'false' end) = ${value})`,
};

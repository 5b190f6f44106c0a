import type { RawBuilder, SqlBool } from 'kysely';

/**
 * The two inbox conditions that read inside the JSON `values` column, whose functions differ by engine (STYLE.md
 * rule 2). Both look at values only, never at field keys, and both expect a select on the `submissions` table.
 */
export interface InboxSql {
  /**
   * Some string or number value (top level, in a list, or nested) matches the LIKE `pattern` (escape character
   * `\`), both sides lower-cased by the engine's lower().
   */
  valueLike(pattern: string): RawBuilder<SqlBool>;
  /** The value under `key` (a checked field key) is `value` as text, or is a list holding it. */
  fieldHas(key: string, value: string): RawBuilder<SqlBool>;
}

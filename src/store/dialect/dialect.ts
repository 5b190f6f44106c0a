import type { Kysely, RawBuilder, SqlBool, Transaction } from 'kysely';
import type { Database } from '../schema.js';
import type { ListSql } from './lists.js';

/** The engines a store runs on. Migrations get this name and nothing else of the dialect (they are frozen). */
export type Engine = 'sqlite' | 'postgres';

/**
 * Everything that differs between the two engines, in one object per engine (STYLE.md rule 2, like Kysely's
 * `DialectAdapter`): capability flags and small SQL fragments. Code outside src/store/dialect/ asks for a
 * capability (`rowLocks`, `jsonText`) and never compares `engine`; migrations are the exception, since they spell
 * out each engine's SQL and must not change when this object does.
 *
 * The entry-list tables' full-text rows and fragments (`ListSql`: `insertSearch`, `matches`, `perRowProbe`, …)
 * are part of it, in `lists.ts` and each engine's `*-lists.ts`.
 */
export interface StoreDialect extends ListSql {
  /** For messages and migrations only: behaviour is chosen by the capabilities below. */
  readonly engine: Engine;

  // ---- documents (JSON columns) ----

  /** Column type of JSON documents (written as JSON strings on both engines). */
  readonly jsonType: 'jsonb' | 'text';
  /** Reads a JSON column as returned by the driver. */
  parseJson<T>(value: unknown): T;
  /** A JSON column's document as text (its serialisation, for a LIKE over the whole document). */
  jsonText(column: string): RawBuilder<string>;
  /**
   * Some string or number in the document in `column` (top level, in a list, or nested) matches the LIKE
   * `pattern` (escape character `\`), both sides lower-cased by the engine's lower(). Looks at values only.
   */
  jsonValueLike(column: string, pattern: string): RawBuilder<SqlBool>;
  /** The value under `key` (a checked key) of the document in `column` is `value` as text, or a list holding it. */
  jsonFieldHas(column: string, key: string, value: string): RawBuilder<SqlBool>;

  // ---- the inbox's folded search ----

  /**
   * `submissions.search_text` holds `term` (folded like it, src/lib/search-fold.ts) as a substring, tested row by
   * row: what a search is where no plan was made for it (bulk actions, exports, which read every match anyway).
   */
  submissionTextLike(term: string): RawBuilder<SqlBool>;
  /**
   * The same condition, planned for a list page and its total: narrowed by the engine's trigram index (migration
   * 0031) where the term's trigrams are rare enough for the index to beat reading the form's rows. The substring
   * test is always applied too, so the index only ever narrows what is tested.
   */
  submissionSearch(db: Kysely<Database>, term: string): Promise<RawBuilder<SqlBool>>;

  // ---- the planner ----

  /**
   * Keeps the planner's statistics current where a plan needs them, run with the job runner's hourly sweeps. SQLite
   * keeps none unless asked, and without them read a form's every index entry for an inbox search the trigram index
   * answers from a handful of rows: `submissions` is analyzed (a bounded sample, milliseconds). Only that table, so
   * no other plan (the entry lists' were chosen without statistics) changes. PostgreSQL: nothing, autovacuum
   * analyzes.
   */
  refreshStatistics(db: Kysely<Database>): Promise<void>;

  // ---- connections, transactions, locks ----

  /**
   * Whether a query can stream its rows (Kysely `.stream()`) on a connection of its own. PostgreSQL can, through
   * a server-side cursor on one pooled connection; SQLite has a single connection, and a stream would hold it,
   * and with it every other query, for as long as the client reads.
   */
  readonly streamsRows: boolean;
  /**
   * Whether `SELECT … FOR UPDATE [SKIP LOCKED]` locks rows (PostgreSQL). Without row locks (SQLite) a writing
   * transaction already runs alone, so the clauses are left out (SQLite rejects them).
   */
  readonly rowLocks: boolean;
  /**
   * Takes the database's write lock at the start of a transaction that reads before it writes, where the engine
   * locks the whole database (SQLite: what `BEGIN IMMEDIATE` does; another process then waits, busy_timeout,
   * instead of reading a snapshot that goes stale and failing at its first write). PostgreSQL: nothing.
   */
  lockForWrite(tx: Transaction<Database>): Promise<void>;
  /** The schema the store's tables live in, where the engine has schemas (PostgreSQL `current_schema()`). */
  currentSchema(db: Kysely<unknown>): Promise<string | undefined>;

  // ---- deleted data ----

  /**
   * After personal data was deleted from `tables` (an erase, a retention sweep), outside any transaction: what the
   * engine can do cheaply so the deleted rows cannot be read back from its files. SQLite (where `secure_delete` has
   * already overwritten them in the database file): checkpoints the WAL into the database and truncates it, since
   * the WAL still holds the pages as they were; another process's open read waits it up to busy_timeout, then the
   * next call truncates. PostgreSQL: `VACUUM (SKIP_LOCKED)` of the tables, so their dead tuples are pruned and the
   * space is reused sooner; the bytes stay in the table files until overwritten (docs/operations.md "Privacy").
   */
  purgeDeleted(db: Kysely<Database>, tables: readonly (keyof Database)[]): Promise<void>;
}

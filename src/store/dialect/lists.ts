import type { Kysely, RawBuilder, SqlBool, Transaction } from 'kysely';
import type { Database } from '../schema.js';

/**
 * `cv_to` of an open version in the list tables (migration 0003: a number, not NULL, so visibility is a range an
 * index serves).
 */
export const OPEN_CV = 2147483647;

/** One locale's searchable text of one entry version (spec 4.3 `search`). */
export interface SearchDoc {
  vid: number;
  /** Distinguishes the locales of one version (SQLite keys its full-text rows by vid and slot). */
  slot: number;
  /** A token naming space and locale, so a match only scans that space's rows in that language. */
  scope: string;
  /** Text-search configuration of the locale (PostgreSQL `regconfig`; SQLite has one tokenizer). */
  config: string;
  body: string;
  /** What the version lists by, for engines whose matches carry it (`matchesAreRows`). */
  entryId: string;
  type: string;
  publishedAt: string;
  cvFrom: number;
  /** The engine's own vector of `body`, computed beforehand (`searchVectors`), where the engine has one. */
  vector?: string;
}

/**
 * With `anyWord`, the engine may stop at this many best-ranked rows of every version before checking visibility:
 * they are candidates for semantic search's fusion, which takes the first 50 visible ones.
 */
export const ANY_WORD_ROWS = 400;

/** Which versions a list reads: the cv, and the type (or every type but folders). */
export interface SearchAt {
  cv: number;
  type: string | null;
  folderTypes: readonly string[];
  /** Match versions holding any of the words, ranked, instead of all of them (semantic search's word half). */
  anyWord?: boolean;
}

/**
 * What the entry-list tables (written and read by src/delivery/list/) need from each engine: the full-text rows
 * and small SQL fragments. Part of `StoreDialect`.
 */
export interface ListSql {
  insertSearch(tx: Transaction<Database> | Kysely<Database>, docs: readonly SearchDoc[]): Promise<void>;
  /**
   * Engines whose full-text rows hold a computed vector (PostgreSQL: `tsvector`, stemming is most of an
   * import's database time): the vectors of many texts, in order, computed on a connection of their own so a
   * bulk load can compute them beside its transaction. Pure computation: reads and writes no table.
   */
  searchVectors?(
    db: Kysely<Database>,
    docs: readonly Pick<SearchDoc, 'scope' | 'config' | 'body'>[],
  ): Promise<string[]>;
  /**
   * Around a bulk load of full-text rows (an import), where the engine gains from it. PostgreSQL: `before` lets
   * the GIN index's pending list grow for the transaction (inserts append instead of merging into the index
   * every 4 MB), `after` merges it in bulk once the transaction committed (the job `search-merge`,
   * src/delivery/list/list-jobs.ts; until then, and where no job runner runs, autovacuum does the same).
   */
  bulkSearchLoad?: {
    before(tx: Transaction<Database>): Promise<void>;
    after(db: Kysely<Database>): Promise<void>;
  };
  deleteSearch(tx: Transaction<Database> | Kysely<Database>, vids: readonly number[]): Promise<void>;
  /** Removes every full-text row (of all spaces). */
  clearSearch(tx: Transaction<Database> | Kysely<Database>): Promise<void>;
  /** Closes the search rows of versions closed at `cv` (engines whose matches are rows). */
  closeSearch(
    tx: Transaction<Database> | Kysely<Database>,
    vids: readonly number[],
    cv: number,
  ): Promise<void>;
  /**
   * A subquery `(vid, rank)` of the versions whose text in `scope` holds every word (higher rank first).
   * Ranks come from the engine (bm25 on SQLite, ts_rank on PostgreSQL) and are not comparable between them.
   * With `matchesAreRows` the subquery also checks `at` itself and has `entry_id` and `published_at`, so a
   * search needs no join to list_entries (PostgreSQL: measured, that join cost a scan of the whole table).
   */
  matches(scope: string, config: string, words: readonly string[], at: SearchAt): RawBuilder<unknown>;
  readonly matchesAreRows: boolean;
  /** `needle` occurs in `haystack`, case-sensitive, the same on both engines. */
  contains(haystack: RawBuilder<unknown>, needle: string): RawBuilder<SqlBool>;
  /** A join that keeps the left table outer (SQLite's planner honours CROSS JOIN; PostgreSQL plans freely). */
  readonly orderedJoin: RawBuilder<unknown>;
  /**
   * Appended to an EXISTS subquery to keep it a per-row probe: PostgreSQL otherwise may pull it up into a hash
   * join over the probed filter's whole range (`offset 0` prevents that); SQLite always probes per row.
   */
  readonly perRowProbe: RawBuilder<unknown>;
}

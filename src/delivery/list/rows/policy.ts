/**
 * The thresholds of the published list engine, in one place: when the rows index loads a table, which pages it
 * takes from memory and which it leaves to SQL, and how SQL pages (sparse or dense, a number's index walked or the
 * matches sorted). The measurements behind each value are in docs/operations.md ("The list engine's thresholds");
 * tests and the entries bench check the choices, not the values. Pure.
 */

/** Rows a table load reads per statement: SQLite reads block the event loop, and a load yields between chunks. */
export const CHUNK_ROWS = 1000;

/** A table is loaded again at most once per this many times its last load took: at most 1/PACE of a core. */
export const RELOAD_PACE = 10;

/** A type found too large for the budget is not read again for this long: a load reads its rows before it knows. */
export const RETRY_TOO_LARGE_MS = 10 * 60_000;

/** A driving value with fewer rows is met row by row: cheap enough, and not worth a sort and its memory. */
export const SORTED_RUN_MIN = 256;

/** A driving value with more rows is not sorted: the sort runs on the event loop and would hold it too long. */
export const SORTED_RUN_MAX = 20_000;

/** The rows all of a table's sorted runs may hold, per row of the table: bounds the memory runs add to it. */
export const SORTED_RUNS_PER_ROW = 2;

/**
 * Above this many candidates a page SQL can walk by a number's index is left to SQL (unless a sorted run has it):
 * the walk's cost does not grow with the candidates, the rows index's visit does.
 */
export const WALK_OVER_MEMORY = 15_000;

/** At or below this many matches SQL sorts the matches of its most selective filter instead of walking an index. */
export const SPARSE_TOTAL = 1000;

/** What sorting one match costs SQL in index reads: it reads the match, then sorts it (counted as a second read). */
export const SORT_READS_PER_MATCH = 2;

/** Whether a load may start again, `loadMs` after a load that ended at `loadedAt` (performance.now() times). */
export const reloadDue = (loadedAt: number, loadMs: number, now: number): boolean =>
  now - loadedAt >= loadMs * RELOAD_PACE;

/** Whether a type refused as too large at `refusedAt` may be read again. */
export const retryDue = (refusedAt: number, now: number): boolean => now - refusedAt >= RETRY_TOO_LARGE_MS;

/** Whether a driving value's rows are sorted into a run (sorted-runs.ts). */
export const sortedRunFits = (rows: number): boolean => rows >= SORTED_RUN_MIN && rows <= SORTED_RUN_MAX;

/** Whether a table whose runs hold `held` rows may keep a run of `rows` more. */
export const sortedRunsHold = (held: number, rows: number, tableRows: number): boolean =>
  held + rows <= SORTED_RUNS_PER_ROW * tableRows;

/**
 * Whether the rows index leaves a page sorted by one number to SQL: when SQL can walk that number's index
 * (`walkable`: the list reads list_rows) and the candidates are many, unless a sorted run reads the page.
 */
export const leftToWalk = (walkable: boolean, candidates: number): boolean =>
  walkable && candidates > WALK_OVER_MEMORY;

/** Whether SQL lets the most selective filter drive the page and sorts its matches (else it walks a sorted index). */
export const sparse = (total: number): boolean => total <= SPARSE_TOTAL;

/**
 * Whether a dense page sorted by a number walks that number's index (migration 0017) rather than sorting every
 * match: a walk reads about `(limit + 1) × typeRows / total` index entries before it has its page, a sort reads
 * `total` and sorts them. So a walk when `total² × SORT_READS_PER_MATCH > (limit + 1) × typeRows`.
 */
export const walkBeatsSort = (total: number, limit: number, typeRows: number): boolean =>
  total * total * SORT_READS_PER_MATCH > (limit + 1) * typeRows;

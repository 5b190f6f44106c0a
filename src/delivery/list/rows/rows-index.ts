import { setImmediate as nextTurn } from 'node:timers/promises';
import { LRUCache } from 'lru-cache';
import { entryChangesThrough } from '../../../store/entry-version-cache.js';
import type { Store } from '../../../store/open-store.js';
import type { ListPlan } from '../plan.js';
import { loadRowsChunk } from './table-repo.js';
import { type RowsTable, RowsTableBuilder } from './table.js';
import { rowLocale } from '../slots.js';

/**
 * The list rows of the types lists read, in memory per (space, type, row locale), up to LIST_INDEX_MB
 * (src/delivery/list/rows-table.ts says what a table answers). A table is read at one cv and answers every cv at
 * which no entry of its type changed (the change log of src/store/entry-changes.ts says so, as it does for carried
 * counts); after a publish that changed one, the next list of the type starts reading a new table and is answered
 * by SQL meanwhile, so no request waits for a load.
 *
 * Loads are paced: a table is read again at most once per ten times its last load took (a 100k-row table loads in
 * about 0.45 s on SQLite here, so at most every 4.5 s however often the type is published), and in chunks of
 * `CHUNK_ROWS` with a turn of the event loop between them, since SQLite reads block it (about 8 ms a chunk).
 */

const CHUNK_ROWS = 1000;
/** A table is loaded again at most once per this many times its last load took. */
const PACE = 10;
/** A type too large for the budget is not tried again for this long. */
const RETRY_TOO_LARGE_MS = 10 * 60_000;

/** The table a plan reads: its type, its row locale, and the key they make with the space and type definitions. */
interface Target {
  key: string;
  type: string;
  loc: string;
}

function targetOf(plan: ListPlan, typesKey: string): Target | null {
  if (plan.type === null || plan.layout === null || plan.layout.slots.size === 0) return null;
  const loc = rowLocale(plan.layout, plan.locale);
  return { key: `${plan.spaceId}\n${plan.type}\n${loc}\n${typesKey}`, type: plan.type, loc };
}

interface Loaded {
  table: RowsTable;
  loadedAt: number;
  loadMs: number;
}

/** What GET /metrics reports of the index (src/observability/metrics.ts). */
export interface RowsIndexStats {
  tables: number;
  bytes: number;
  loads: Record<'loaded' | 'too_large' | 'failed', number>;
  /** Published lists the index can answer (`answerable`), answered from memory, or by SQL while it held no table. */
  lists: Record<'memory' | 'sql', number>;
}

export class RowsIndex {
  private readonly tables: LRUCache<string, Loaded>;
  private readonly loading = new Map<string, Promise<RowsTable | null>>();
  private readonly tooLarge = new Map<string, number>();
  private closed = false;
  private readonly loads: RowsIndexStats['loads'] = { loaded: 0, too_large: 0, failed: 0 };
  private readonly lists: RowsIndexStats['lists'] = { memory: 0, sql: 0 };

  constructor(
    private readonly store: Store,
    private readonly maxBytes: number,
  ) {
    this.tables = new LRUCache<string, Loaded>({
      maxSize: maxBytes,
      sizeCalculation: (l) => Math.max(1, l.table.bytes),
    });
  }

  /**
   * The table of the plan's type and locale that holds the rows of `plan.cv`, or null: then the caller asks SQL,
   * and a load starts unless one runs or ran too recently. `typesKey` names the type definitions of the cv (the
   * slot layout follows from them).
   */
  async tableFor(plan: ListPlan, typesKey: string): Promise<RowsTable | null> {
    const target = targetOf(plan, typesKey);
    if (target === null) return null;
    const known = this.tables.get(target.key);
    if (known !== undefined && (await this.holds(known.table, plan))) return known.table;
    this.startLoad(target, plan, known);
    return null;
  }

  /** Loads the table of `plan` at its cv now (tests, the bench, a warm-up), or null when it is over the budget. */
  load(plan: ListPlan, typesKey: string): Promise<RowsTable | null> {
    const target = targetOf(plan, typesKey);
    if (target === null) return Promise.resolve(null);
    return this.startLoad(target, plan, undefined, true) ?? Promise.resolve(null);
  }

  /** Counts a published list of one type by what answered it (GET /metrics). */
  answered(fromMemory: boolean): void {
    this.lists[fromMemory ? 'memory' : 'sql']++;
  }

  stats(): RowsIndexStats {
    return {
      tables: this.tables.size,
      bytes: this.tables.calculatedSize,
      loads: { ...this.loads },
      lists: { ...this.lists },
    };
  }

  /** Stops loads under way after their current chunk. */
  close(): void {
    this.closed = true;
    this.tables.clear();
  }

  /** Whether no entry of the type changed between the table's cv and the plan's, in either direction. */
  private async holds(table: RowsTable, plan: ListPlan): Promise<boolean> {
    if (table.cv === plan.cv) return true;
    const changes = await entryChangesThrough(this.store, plan.spaceId, Math.max(table.cv, plan.cv));
    return (
      changes?.quietBetween(
        Math.min(table.cv, plan.cv),
        Math.max(table.cv, plan.cv),
        plan.type ?? undefined,
      ) === true
    );
  }

  private startLoad(
    target: Target,
    plan: ListPlan,
    known: Loaded | undefined,
    now = false,
  ): Promise<RowsTable | null> | undefined {
    const { key } = target;
    if (this.closed || this.loading.has(key)) return this.loading.get(key);
    if (!now) {
      // A request pinned to an older cv than the table's is answered by SQL rather than by another table.
      if (known !== undefined && plan.cv < known.table.cv) return undefined;
      if (known !== undefined && performance.now() - known.loadedAt < known.loadMs * PACE) return undefined;
      const refused = this.tooLarge.get(key);
      if (refused !== undefined && performance.now() - refused < RETRY_TOO_LARGE_MS) return undefined;
    }
    const started = this.read(target, plan.spaceId, plan.cv).finally(() => this.loading.delete(key));
    this.loading.set(key, started);
    // A failed load (the store closing, a lost connection) leaves the lists to SQL until the next attempt.
    started.catch(() => {
      if (!this.closed) this.loads.failed++;
    });
    return started;
  }

  private async read({ key, type, loc }: Target, spaceId: string, cv: number): Promise<RowsTable | null> {
    const t0 = performance.now();
    const builder = new RowsTableBuilder();
    let after: { publishedAt: string; entryId: string } | null = null;
    for (;;) {
      if (this.closed) return null;
      const rows = await loadRowsChunk(this.store, { spaceId, type, loc, cv, after, limit: CHUNK_ROWS });
      builder.add(rows);
      if (builder.bytes > this.maxBytes) {
        this.tooLarge.set(key, performance.now());
        this.loads.too_large++;
        return null;
      }
      const last = rows.at(-1);
      if (last === undefined || rows.length < CHUNK_ROWS) break;
      after = { publishedAt: last.publishedAt, entryId: last.entryId };
      await nextTurn();
    }
    const table = builder.finish(cv);
    const loadedAt = performance.now();
    const known = this.tables.get(key);
    // A slower load of an older cv does not replace a newer table.
    if (known === undefined || known.table.cv <= cv)
      this.tables.set(key, { table, loadedAt, loadMs: loadedAt - t0 });
    this.tooLarge.delete(key);
    this.loads.loaded++;
    return table;
  }
}

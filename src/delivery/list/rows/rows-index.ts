import { setImmediate as nextTurn } from 'node:timers/promises';
import { LRUCache } from 'lru-cache';
import type { TypeMap } from '../../../content/model.js';
import { entryChangesThrough } from '../../../store/entry-version-cache.js';
import type { Store } from '../../../store/open-store.js';
import { cachedCount, typesFingerprint } from '../list-totals.js';
import { inPublishOrder } from '../order.js';
import type { ListAnswer, ListPlan } from '../plan.js';
import { isNumSlot, rowLocale, type Slot } from '../slots.js';
import { sqlPage } from '../sql-list.js';
import { CHUNK_ROWS, leftToWalk, reloadDue, retryDue } from './policy.js';
import {
  answerable,
  compileSelection,
  countSelection,
  publishOrderPage,
  type Selection,
  slotOrderPage,
  sortedBySlot,
} from './selection.js';
import { sortedRunOf } from './sorted-runs.js';
import { loadRowsChunk } from './table-repo.js';
import { type RowsTable, RowsTableBuilder } from './table.js';

/**
 * The rows index: the list rows of the types lists read, in memory per (space, type, row locale), up to
 * LIST_INDEX_MB, and the one entry list-service.ts asks about a published list, `answer`. It answers lists of one
 * type whose filters are all slot tests (selection.ts says which) from a table (table.ts); every other list, and
 * every list while its table is loading, is SQL's (sql-list.ts). Its thresholds are in policy.ts.
 *
 * A table is read at one cv and answers every cv at which no entry of its type changed (the change log of
 * src/store/entry-changes.ts says so, as it does for carried counts); after a publish that changed one, the next
 * list of the type starts reading a new table and is answered by SQL meanwhile, so no request waits for a load.
 * Loads are paced (policy.ts `reloadDue`) and read `CHUNK_ROWS` at a time with a turn of the event loop between
 * chunks, since SQLite reads block it.
 */

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
   * A published list's `total` and page (`limit + 1` rows from the cursor on), or undefined: SQL answers it
   * (sql-list.ts). `selection` is the list's canonical selection (list-params.ts), which keys its cached total with
   * `types`, the type definitions of the plan's cv. The total is counted here, through the same cache SQL counts
   * through; the page comes from the table in publish order and by one slot, except a page SQL walks more cheaply
   * (policy.ts `leftToWalk`), which the table leaves to SQL's page statement.
   */
  async answer(plan: ListPlan, selection: string, types: TypeMap): Promise<ListAnswer | undefined> {
    const { layout } = plan;
    // A list no table could answer (a text filter, `under`, search) neither loads one nor counts as answered by SQL.
    if (layout === null || !answerable(plan, layout)) return undefined;
    const table = await this.tableFor(plan, typesFingerprint(types));
    const compiled = table === null ? null : compileSelection(table, plan, layout);
    this.lists[compiled !== null ? 'memory' : 'sql']++;
    if (table === null || compiled === null) return undefined;
    const total = await cachedCount(this.store, plan, selection, types, async () => countSelection(compiled));
    const page = memoryPage(plan, table, compiled);
    if (total === 0) return { total, rows: [] };
    if (page === 'publish') return { total, rows: publishOrderPage(table, compiled, plan) };
    if (page !== null) return { total, rows: slotOrderPage(table, compiled, plan, page) };
    return { total, rows: await sqlPage(this.store, plan, types, total) };
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
      if (known !== undefined && !reloadDue(known.loadedAt, known.loadMs, performance.now()))
        return undefined;
      const refused = this.tooLarge.get(key);
      if (refused !== undefined && !retryDue(refused, performance.now())) return undefined;
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

/**
 * Where the page of a selection the table answers comes from: the table's rows in publish order, a slot the table
 * sorts by, or null (SQL's page statement). A page sorted by a number that SQL can walk by that number's index (a
 * driving filter makes it read list_rows) is left to SQL above WALK_OVER_MEMORY candidates, unless the driving
 * value's sorted run reads it in about `limit + 1` rows.
 */
function memoryPage(plan: ListPlan, table: RowsTable, selection: Selection): 'publish' | Slot | null {
  if (inPublishOrder(plan.sort)) return 'publish';
  const slot = plan.layout === null ? null : sortedBySlot(plan, plan.layout);
  if (slot === null) return null;
  if (!leftToWalk(isNumSlot(slot) && selection.driven, selection.size)) return slot;
  return sortedRunOf(table, selection, slot) !== null ? slot : null;
}

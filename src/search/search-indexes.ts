import type { Slicer } from '../lib/time-slice.js';
import type { Store } from '../store/open-store.js';
import { closedSince, loadVectors } from './embeddings-repo.js';
import type { SearchState } from '../store/search-state-repo.js';
import { unpackVector } from './vector-bytes.js';
import { ExactVectorIndex, type VectorSearch } from './vector-index.js';

/**
 * Rows read per query while loading an index: ~2 MB of 512-dimension vectors, a statement of a few ms (SQLite's
 * runs on the event loop), with the time slicer between pages and between rows.
 */
const PAGE = 1000;

interface Held {
  index: ExactVectorIndex | null;
  generation: number;
  revision: number;
  syncedCv: number;
  lastSeq: number;
  /** Syncs of one index run one at a time. */
  turn: Promise<unknown>;
  /** When a search last used it, for eviction (least recently used first). */
  usedAt: number;
}

const EMPTY: VectorSearch = {
  dim: 0,
  size: 0,
  add() {},
  close() {},
  nearest: () => [],
  nearestSliced: () => Promise.resolve([]),
};

/**
 * The in-memory vector indexes of one store, per space, model and locale, each brought up to date with the store
 * when a search needs it: a new `generation` (vectors removed) reloads it; a new `revision` (vectors added) or a
 * newer cv reads only rows written since (`seq`) and versions closed since (`cv_to`). Every instance holds its
 * own; the store is the truth, so instances agree without talking to each other.
 */
export class SearchIndexes {
  private readonly held = new Map<string, Held>();
  private clock = 0;

  /**
   * `maxBytes` bounds the memory of the indexes held (SEARCH_INDEX_MAX_MB): past it, the least recently used
   * indexes are dropped and load again from the store when searched. The index a search is using is never
   * dropped, so one index larger than the budget is still served.
   */
  constructor(
    private readonly store: Store,
    private readonly maxBytes = Number.POSITIVE_INFINITY,
  ) {}

  /** Memory held by every index, in bytes (`/metrics`-style figures and tests). */
  get bytes(): number {
    let total = 0;
    for (const h of this.held.values()) total += h.index?.bytes ?? 0;
    return total;
  }

  /** How many indexes are held. */
  get count(): number {
    return this.held.size;
  }

  /** The index of a space's `locale` as of `cv` (the space's current cv) and `state` (read by the caller). */
  async at(
    spaceId: string,
    locale: string,
    state: SearchState,
    cv: number,
    slicer?: Slicer,
  ): Promise<VectorSearch> {
    const key = `${spaceId}\n${state.model}\n${locale}`;
    let held = this.held.get(key);
    if (!held || held.generation !== state.generation) {
      held = {
        index: null,
        generation: state.generation,
        revision: -1,
        syncedCv: 0,
        lastSeq: 0,
        turn: Promise.resolve(),
        usedAt: 0,
      };
      this.held.set(key, held);
    }
    const h = held;
    if (h.revision !== state.revision || h.syncedCv < cv) {
      const run = h.turn.then(() => this.sync(h, spaceId, state, locale, cv, slicer));
      h.turn = run.catch(() => undefined);
      await run;
    }
    h.usedAt = ++this.clock;
    this.evict(h);
    return h.index ?? EMPTY;
  }

  /** Drops the least recently used indexes (never `using`) while the total is over the budget. */
  private evict(using: Held): void {
    let total = this.bytes;
    if (total <= this.maxBytes) return;
    const byAge = [...this.held].sort((a, b) => a[1].usedAt - b[1].usedAt);
    for (const [key, h] of byAge) {
      if (total <= this.maxBytes) break;
      if (h === using) continue;
      total -= h.index?.bytes ?? 0;
      this.held.delete(key);
    }
  }

  private async sync(
    h: Held,
    spaceId: string,
    state: SearchState,
    locale: string,
    cv: number,
    slicer: Slicer | undefined,
  ): Promise<void> {
    if (h.revision === state.revision && h.syncedCv >= cv) return;
    const db = this.store.db;
    // Closing cvs first: rows loaded below carry their version's closing cv as of now anyway.
    if (h.index !== null && h.syncedCv < cv)
      for (const c of await closedSince(db, spaceId, h.syncedCv)) h.index.close(c.entryId, c.cvFrom, c.cvTo);
    // Awaited only where there is one: a load without a slicer takes no microtask per row.
    for (;;) {
      if (slicer !== undefined) await slicer.tick();
      const rows = await loadVectors(db, spaceId, state.model, locale, h.lastSeq, PAGE);
      for (const r of rows) {
        if (slicer !== undefined) await slicer.tick();
        h.lastSeq = r.seq;
        const vector = unpackVector(r.vector);
        if (vector === null) continue;
        h.index ??= new ExactVectorIndex(vector.length);
        // A vector of another dimension cannot be of this model: skipped, never compared.
        if (vector.length === h.index.dim)
          h.index.add(
            { entryId: r.entryId, cvFrom: r.cvFrom, cvTo: r.cvTo, type: r.type, chunk: r.chunk },
            vector,
          );
      }
      if (rows.length < PAGE) break;
    }
    h.revision = state.revision;
    h.syncedCv = Math.max(h.syncedCv, cv);
  }
}

const byStore = new WeakMap<Store, SearchIndexes>();

/**
 * One set of indexes per store in a process, shared by every app and test built on it; the first caller's
 * budget holds (every app of a process reads the same configuration).
 */
export function searchIndexesOf(store: Store, maxBytes?: number): SearchIndexes {
  let indexes = byStore.get(store);
  if (!indexes) byStore.set(store, (indexes = new SearchIndexes(store, maxBytes)));
  return indexes;
}

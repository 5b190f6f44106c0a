import type { Slicer } from '../lib/time-slice.js';
import { DOT_PRODUCT_WASM } from './dot-product-wasm.js';

/**
 * Exact nearest neighbours by cosine over packed float32 vectors: one index per space, locale and
 * model, held in memory and kept in step with the store (see `search-indexes.ts`). Vectors are unit length, so
 * cosine is a dot product; a query scores every row, which is what lets the latency target hold without an
 * approximate index (50k rows × 512 dimensions: see docs/operations.md, "Semantic search").
 *
 * `VectorSearch` is the seam for one: an HNSW graph from npm, or pgvector where an operator has it, would
 * implement the same three methods (docs/operations.md, "Semantic search").
 */

/** A version's chunk: what a hit names, and what decides whether it is visible at a cv. */
export interface VectorRow {
  entryId: string;
  cvFrom: number;
  /** null while the version is open (published now). */
  cvTo: number | null;
  type: string;
  chunk: number;
}

export interface VectorHit {
  row: VectorRow;
  score: number;
}

export interface VisibleAt {
  cv: number;
  /** Only entries of this type; null: every type. */
  type: string | null;
}

export interface VectorSearch {
  readonly dim: number;
  readonly size: number;
  add(row: VectorRow, vector: Float32Array): void;
  /** The version `entryId@cvFrom` was closed at `cvTo` (unpublished, deleted or replaced). */
  close(entryId: string, cvFrom: number, cvTo: number): void;
  /** The `k` rows most similar to `query` among those visible at `at`, best first. */
  nearest(query: Float32Array, k: number, at: VisibleAt): VectorHit[];
  /** `nearest`, yielding to other requests between chunks of rows (`slicer.tick()`). */
  nearestSliced(query: Float32Array, k: number, at: VisibleAt, slicer: Slicer): Promise<VectorHit[]>;
}

const OPEN = 2 ** 31 - 1;
/** Rows scored between two ticks of a sliced scan: about a millisecond at 512 dimensions on a 2-core host. */
const SCAN_CHUNK = 8192;

/** A scan in progress: its first `n` rows, what is visible, and the `k` best rows so far (unsorted). */
interface TopRows {
  n: number;
  k: number;
  cv: number;
  /** The type's id, or -1 for every type. */
  wanted: number;
  best: number[];
  bestScores: number[];
  worst: number;
}
const PAGE = 65_536;
/** Compiled once per process; each index gets an instance (and linear memory) of its own. */
const DOT_PRODUCT = new WebAssembly.Module(Buffer.from(DOT_PRODUCT_WASM, 'base64'));

interface DotProduct {
  memory: WebAssembly.Memory;
  scores(vectors: number, n: number, dim: number, query: number, out: number): void;
}

/**
 * The vectors live in WebAssembly memory, padded with zeros to a multiple of 8 dimensions, so the scan runs as
 * SIMD dot products (src/search/dot-product.wat: four float32 lanes, two accumulators), about four times what
 * JavaScript's scalar loop does. The memory holds the vectors, then, per search, the query and one score per row.
 */
export class ExactVectorIndex implements VectorSearch {
  private readonly stride: number;
  private readonly wasm: DotProduct;
  private capacity = 0;
  private vectors = new Float32Array(0);
  private cvFrom = new Int32Array(0);
  private cvTo = new Int32Array(0);
  private typeIds = new Uint16Array(0);
  private readonly rows: VectorRow[] = [];
  private readonly typeIdOf = new Map<string, number>();
  private readonly byVersion = new Map<string, number[]>();

  constructor(
    readonly dim: number,
    capacity = 1024,
  ) {
    this.stride = Math.ceil(dim / 8) * 8;
    const exports = new WebAssembly.Instance(DOT_PRODUCT).exports;
    this.wasm = {
      memory: exports.memory as WebAssembly.Memory,
      scores: exports.scores as DotProduct['scores'],
    };
    this.reserve(Math.max(1, capacity));
  }

  get size(): number {
    return this.rows.length;
  }

  /** Memory held, roughly: the WebAssembly memory (vectors, query, scores) and the per-row bookkeeping. */
  get bytes(): number {
    return this.wasm.memory.buffer.byteLength + this.capacity * 10 + this.rows.length * 120;
  }

  add(row: VectorRow, vector: Float32Array): void {
    if (vector.length !== this.dim)
      throw new Error(`vector of ${vector.length} dimensions in a ${this.dim} index`);
    const i = this.rows.length;
    if (i === this.capacity) this.reserve(this.capacity * 2);
    // The padding after the vector stays zero: rows are only ever appended.
    this.vectors.set(vector, i * this.stride);
    this.cvFrom[i] = row.cvFrom;
    this.cvTo[i] = row.cvTo ?? OPEN;
    let typeId = this.typeIdOf.get(row.type);
    if (typeId === undefined) this.typeIdOf.set(row.type, (typeId = this.typeIdOf.size));
    this.typeIds[i] = typeId;
    this.rows.push({ ...row });
    const key = `${row.entryId}@${row.cvFrom}`;
    const list = this.byVersion.get(key);
    if (list) list.push(i);
    else this.byVersion.set(key, [i]);
  }

  close(entryId: string, cvFrom: number, cvTo: number): void {
    for (const i of this.byVersion.get(`${entryId}@${cvFrom}`) ?? []) {
      this.cvTo[i] = cvTo;
      this.rows[i]!.cvTo = cvTo;
    }
  }

  nearest(query: Float32Array, k: number, at: VisibleAt): VectorHit[] {
    const top = this.scan(query, k, at);
    if (top === null) return [];
    for (let from = 0; from < top.n; from += SCAN_CHUNK) this.scoreChunk(query, top, from);
    return this.hits(top);
  }

  /**
   * `nearest`, with `await slicer.tick()` between chunks of rows (the time slicer lets other requests run once a
   * slice is spent): the scan of a large index takes tens of ms. Each chunk writes the query and reads its scores
   * within one turn, so two searches of one index never see each other's numbers, and rows added meanwhile (an
   * index growing as it syncs) are past `n` and not read.
   */
  async nearestSliced(query: Float32Array, k: number, at: VisibleAt, slicer: Slicer): Promise<VectorHit[]> {
    const top = this.scan(query, k, at);
    if (top === null) return [];
    for (let from = 0; from < top.n; from += SCAN_CHUNK) {
      await slicer.tick();
      this.scoreChunk(query, top, from);
    }
    return this.hits(top);
  }

  private scan(query: Float32Array, k: number, at: VisibleAt): TopRows | null {
    if (query.length !== this.dim || k <= 0) return null;
    const wanted = at.type === null ? -1 : (this.typeIdOf.get(at.type) ?? -2);
    if (wanted === -2) return null;
    return { n: this.rows.length, k, cv: at.cv, wanted, best: [], bestScores: [], worst: 0 };
  }

  /** Scores rows `from` to `from + SCAN_CHUNK` (at most `top.n`) and keeps the best visible ones in `top`. */
  private scoreChunk(query: Float32Array, top: TopRows, from: number): void {
    const to = Math.min(top.n, from + SCAN_CHUNK);
    // Read now: growing the index (reserve) replaces the memory's buffer and the bookkeeping arrays.
    const queryAt = this.capacity * this.stride * 4;
    const outAt = queryAt + this.stride * 4;
    const memory = this.wasm.memory.buffer;
    const q = new Float32Array(memory, queryAt, this.stride);
    q.fill(0);
    q.set(query);
    this.wasm.scores(from * this.stride * 4, to - from, this.stride, queryAt, outAt);
    const scores = new Float32Array(memory, outAt, to - from);
    const { cvFrom, cvTo, typeIds } = this;
    const { k, cv, wanted, best, bestScores } = top;
    // The k best so far, kept unsorted with the index of the worst: k is small (tens), rows are many.
    for (let r = from; r < to; r++) {
      const score = scores[r - from]!;
      if (best.length === k && score <= bestScores[top.worst]!) continue;
      if (cvFrom[r]! > cv || cvTo[r]! <= cv || (wanted !== -1 && typeIds[r] !== wanted)) continue;
      if (best.length < k) {
        best.push(r);
        bestScores.push(score);
        if (best.length === k) top.worst = argMin(bestScores);
      } else {
        best[top.worst] = r;
        bestScores[top.worst] = score;
        top.worst = argMin(bestScores);
      }
    }
  }

  private hits(top: TopRows): VectorHit[] {
    return top.best
      .map((r, i) => ({ row: this.rows[r]!, score: top.bestScores[i]! }))
      .sort((a, b) => b.score - a.score || a.row.entryId.localeCompare(b.row.entryId));
  }

  /** Room for `capacity` rows: vectors, and past them one query and `capacity` scores. */
  private reserve(capacity: number): void {
    const bytes = capacity * this.stride * 4 + this.stride * 4 + capacity * 4;
    const memory = this.wasm.memory;
    const missing = Math.ceil((bytes - memory.buffer.byteLength) / PAGE);
    if (missing > 0) memory.grow(missing);
    this.vectors = new Float32Array(memory.buffer, 0, capacity * this.stride);
    const grown = <T extends Int32Array | Uint16Array>(old: T, next: T): T => {
      next.set(old);
      return next;
    };
    this.cvFrom = grown(this.cvFrom, new Int32Array(capacity));
    this.cvTo = grown(this.cvTo, new Int32Array(capacity));
    this.typeIds = grown(this.typeIds, new Uint16Array(capacity));
    this.capacity = capacity;
  }
}

function argMin(values: readonly number[]): number {
  let at = 0;
  for (let i = 1; i < values.length; i++) if (values[i]! < values[at]!) at = i;
  return at;
}

// Derived images in the blob store, held to a budget: 700 distinct variants of one public asset,
// asked for without a token, had grown the store from 300 KB to 51 MB and kept it forever. Every variant stored is
// recorded (src/assets/derived-images-repo.ts); past IMAGE_VARIANTS_PER_ASSET for its asset, or past
// IMAGE_CACHE_MAX_MB in all, the least recently used are deleted (files first, then rows), and the job runner's
// sweep deletes those of assets that are gone. Works on any BlobStore (directory or S3): it only puts and deletes
// keys it recorded. The budget holds across instances roughly: each checks the shared table after it stores.

import type { BlobStore } from '../blobs/blob-store.js';
import type { Store } from '../store/open-store.js';
import {
  deleteDerived,
  derivedBeyond,
  derivedBytes,
  type DerivedVictim,
  oldestDerived,
  orphanedDerived,
  touchDerived,
  upsertDerived,
} from './derived-images-repo.js';

export interface DerivedBudget {
  /** IMAGE_CACHE_MAX_MB, in bytes: what every derived image together may take in the blob store. */
  maxBytes: number;
  /** IMAGE_VARIANTS_PER_ASSET: variants kept per asset (its least recently used beyond go). */
  perAsset: number;
}

/** Uses are written in one statement this often, not per request: a hit stays a memory or blob read. */
const FLUSH_MS = 60_000;
/** Keys remembered between flushes; past it uses go unrecorded until the next (a variant may then go early). */
const MAX_TOUCHED = 10_000;
const BATCH = 200;
/** Blob deletions in flight at once (a batch on S3 takes a few round trips, not 200). */
const PARALLEL_DELETES = 8;
/** Batches one eviction or sweep walks at most: it ends even while other instances keep storing. */
const MAX_BATCHES = 50;

/** What one process holds of the derived images' index: the uses since the last flush. */
export class DerivedImages {
  private touched = new Set<string>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
    private readonly budget: DerivedBudget,
    private readonly log: { warn(obj: object, msg: string): void },
  ) {
    this.timer = setInterval(() => void this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  /** A stored variant was served (from memory or the blob store): its use is written with the next flush. */
  used(key: string): void {
    if (this.touched.size < MAX_TOUCHED) this.touched.add(key);
  }

  /**
   * Stores a new variant and records it, then evicts what the budget no longer holds. Recorded before it is
   * written, so no file is ever outside the budget's count; a failed write forgets it again.
   */
  async keep(v: {
    key: string;
    spaceId: string;
    assetId: string;
    sourceKey: string;
    body: Buffer;
  }): Promise<void> {
    const usedAt = new Date().toISOString();
    const row = { blobKey: v.key, spaceId: v.spaceId, assetId: v.assetId, sourceKey: v.sourceKey };
    await upsertDerived(this.store.db, { ...row, size: v.body.length, usedAt });
    try {
      await this.blobs.put(v.key, v.body);
    } catch (err) {
      await deleteDerived(this.store.db, [{ blobKey: v.key, size: v.body.length, usedAt }]);
      throw err;
    }
    await evict(this.store, this.blobs, (limit) =>
      derivedBeyond(this.store.db, v.spaceId, v.assetId, this.budget.perAsset, limit),
    );
    await holdBudget(this.store, this.blobs, this.budget.maxBytes);
  }

  /** Writes the uses noted since the last flush. */
  async flush(): Promise<void> {
    if (this.touched.size === 0) return;
    const keys = [...this.touched];
    this.touched = new Set();
    const at = new Date().toISOString();
    try {
      for (let i = 0; i < keys.length; i += BATCH)
        await touchDerived(this.store.db, keys.slice(i, i + BATCH), at);
    } catch (err) {
      // Only the eviction order suffers: these variants look older than they are.
      this.log.warn({ err }, 'derived images: recording uses failed');
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}

/**
 * Deletes the variants `next` chooses, batch by batch, until it chooses none: each file, then the rows of those
 * whose file is gone. A file that cannot be deleted keeps its row (it is still counted, and tried again later).
 */
async function evict(
  store: Store,
  blobs: BlobStore,
  next: (limit: number) => Promise<DerivedVictim[]>,
): Promise<number> {
  let evicted = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const victims = await next(BATCH);
    if (victims.length === 0) break;
    const gone: DerivedVictim[] = [];
    for (let i = 0; i < victims.length; i += PARALLEL_DELETES) {
      const slice = victims.slice(i, i + PARALLEL_DELETES);
      const results = await Promise.allSettled(slice.map((v) => blobs.delete(v.blobKey)));
      results.forEach((r, j) => {
        const v = slice[j];
        if (r.status === 'fulfilled' && v !== undefined) gone.push(v);
      });
    }
    await deleteDerived(store.db, gone);
    evicted += gone.length;
    if (gone.length < victims.length) break;
  }
  return evicted;
}

/** Evicts the least recently used variants until all of them take at most `maxBytes`. */
async function holdBudget(store: Store, blobs: BlobStore, maxBytes: number): Promise<number> {
  let over = (await derivedBytes(store.db)) - maxBytes;
  if (over <= 0) return 0;
  return evict(store, blobs, async (limit) => {
    if (over <= 0) return [];
    const chosen: DerivedVictim[] = [];
    for (const v of await oldestDerived(store.db, limit)) {
      if (over <= 0) break;
      chosen.push(v);
      over -= v.size;
    }
    return chosen;
  });
}

/**
 * The job runner's sweep (src/wiring/jobs.ts): deletes the variants of assets that are gone or whose original is
 * another file now (a space imported again), then holds the byte budget. Answers how many variants it deleted.
 */
export async function sweepDerivedImages(
  store: Store,
  blobs: BlobStore,
  budget: DerivedBudget,
): Promise<number> {
  const orphans = await evict(store, blobs, (limit) => orphanedDerived(store.db, limit));
  return orphans + (await holdBudget(store, blobs, budget.maxBytes));
}

import { LRUCache } from 'lru-cache';
import { deepFreeze } from '../lib/deep-freeze.js';
import type { DeliveredEntry } from './resolve.js';

/**
 * Rendered published entries with their JSON as UTF-8 bytes, shared by the list requests of one app (the body is
 * joined from the stored bytes: no serialising, no encoding of the whole body).
 *
 * At one cv an entry renders the same way for the same locale, fallback chain and `fields`: what rendering reads
 * besides the entry (types, assets, whether a referenced entry is visible) is fixed by the cv, and the asset urls
 * by the app (public URL, crop key), which owns this cache. So a list request takes the entries it has rendered
 * before, at that cv, from here, and writes their JSON as stored instead of serialising them again. The cv is part
 * of the key: a publish starts over, and older keys age out of the LRU. A delivered form is not fixed by the cv:
 * its `status` follows the clock and the submission count (spec 3.1), so a request that delivers a form does not
 * use this cache (resolve.ts).
 *
 * Cached entries are frozen, deeply: every request at that cv shares them (see entry-version-cache.ts).
 */
export class RenderedEntries {
  private readonly cache: LRUCache<string, DeliveredEntry>;

  /** `maxBytes`: the budget in bytes of JSON (RENDER_CACHE_MB); the objects take about as much again. */
  constructor(maxBytes: number) {
    this.cache = new LRUCache({ maxSize: Math.max(1, maxBytes) });
  }

  get(key: string): DeliveredEntry | undefined {
    return this.cache.get(key);
  }

  /** Keeps a rendered entry under `key`, frozen, and remembers its JSON's bytes; returns the entry. */
  set(key: string, entry: DeliveredEntry): DeliveredEntry {
    const json = JSON.stringify(entry);
    // An allocation of its own: a small Buffer.from is a slice of a shared 8 KB pool, which would keep the pool
    // alive after the LRU let go of the entry, so the budget would not bound the memory.
    const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(json));
    bytes.write(json);
    deepFreeze(entry);
    bytesOfEntry.set(entry, bytes);
    this.cache.set(key, entry, { size: Math.max(1, bytes.length) });
    return entry;
  }
}

// The JSON bytes of each entry a RenderedEntries holds, by the entry object: the list body is joined from them.
const bytesOfEntry = new WeakMap<DeliveredEntry, Buffer>();

/** An entry's JSON in UTF-8: as stored when a RenderedEntries holds it, else serialised now. */
export const entryBytes = (entry: DeliveredEntry): Buffer =>
  bytesOfEntry.get(entry) ?? Buffer.from(JSON.stringify(entry));

/**
 * The key prefix of one request's renders: space, cv, locale and chain. The caller adds which fields (roots may
 * be projected by `fields`) and the entry id.
 */
export const renderPrefix = (spaceId: string, cv: number, locale: string, chain: readonly string[]): string =>
  `${spaceId}\n${cv}\n${locale}\n${chain.join(',')}\n`;

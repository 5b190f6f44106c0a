import { LRUCache } from 'lru-cache';
import type { Store } from '../store/open-store.js';
import { findTokenByHash, type TokenRow } from '../store/tokens-repo.js';
import { hashToken, sameHash } from './tokens.js';

/**
 * Looks tokens up by their sha256, remembering answers briefly so a hot token costs no query. A revoked token
 * stops working within `ttlMs`. Misses are remembered too, so a flood of bad tokens does not reach the store.
 * Answers are remembered by the presented value, so a hot token costs no hashing either (sha256 was the
 * largest cost of a cache hit, issue 5): the value is in this process's memory while its requests are anyway,
 * and only its hash ever reaches the store.
 */
export class TokenCache {
  private readonly cache: LRUCache<string, { token: TokenRow | null }>;

  constructor(
    private readonly store: Store,
    ttlMs = 10_000,
  ) {
    // Expired answers stay until evicted: they stand in while the store is unreachable (see find).
    this.cache = new LRUCache({ max: 10_000, ttl: ttlMs, noDeleteOnStaleGet: true });
  }

  /** The remembered answer for this value, without a store query: undefined when there is none (or it expired). */
  peek(value: string): TokenRow | null | undefined {
    return this.cache.get(value)?.token;
  }

  async find(value: string): Promise<TokenRow | null> {
    const known = this.cache.get(value);
    if (known) return known.token;
    const hash = hashToken(value);
    let hit: { token: TokenRow | null };
    try {
      const row = await findTokenByHash(this.store, hash);
      // The lookup was by hash; compare once more in constant time before trusting the row.
      hit = { token: row && sameHash(row.hash, hash) ? row : null };
      this.cache.set(value, hit);
    } catch (err) {
      // The store is unreachable: a token answered before still authenticates, so cached responses keep
      // being served (issue 5, degradation); revocations apply again once the store answers.
      const stale = this.cache.get(value, { allowStale: true });
      if (!stale) throw err;
      hit = stale;
    }
    return hit.token;
  }

  clear(): void {
    this.cache.clear();
  }
}

import { LRUCache } from 'lru-cache';
import type { Store } from '../store/open-store.js';
import { findTokenByHash, type TokenRow } from '../store/tokens-repo.js';
import { hashToken, sameHash } from './tokens.js';

/**
 * Looks tokens up by their sha256, remembering answers briefly so a hot token costs no query. A revoked token
 * stops working within `ttlMs`. Misses are remembered too, so a flood of bad tokens does not reach the store.
 */
export class TokenCache {
  private readonly cache: LRUCache<string, { token: TokenRow | null }>;

  constructor(
    private readonly store: Store,
    ttlMs = 10_000,
  ) {
    this.cache = new LRUCache({ max: 10_000, ttl: ttlMs });
  }

  async find(value: string): Promise<TokenRow | null> {
    const hash = hashToken(value);
    let hit = this.cache.get(hash);
    if (!hit) {
      hit = { token: await findTokenByHash(this.store, hash) };
      this.cache.set(hash, hit);
    }
    // The lookup was by hash; compare once more in constant time before trusting the row.
    return hit.token && sameHash(hit.token.hash, hash) ? hit.token : null;
  }

  clear(): void {
    this.cache.clear();
  }
}

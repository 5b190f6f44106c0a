import { LRUCache } from 'lru-cache';
import type { Store } from '../store/open-store.js';
import { findTokenByHash, type TokenRow } from '../store/tokens-repo.js';
import { hashToken, sameHash } from './tokens.js';

/**
 * Looks tokens up by their sha256, remembering answers briefly so a hot token costs no query. A revoked token
 * stops working within `ttlMs` at the latest; sooner where the space's token generation reaches this cache
 * (`adoptGeneration`: the cv fan-out carries it, so within `CV_POLL_MS`). Misses are remembered too, so a flood
 * of bad tokens does not reach the store.
 * Answers are remembered by the presented value, so a hot token costs no hashing either (sha256 was the
 * largest cost of a cache hit): the value is in this process's memory while its requests are anyway,
 * and only its hash ever reaches the store.
 */
export class TokenCache {
  private readonly cache: LRUCache<string, { token: TokenRow | null }>;
  /** Per space, the newest token generation seen (migration 0010). */
  private readonly generations = new Map<string, number>();
  /** Counts drops: a lookup in flight across one answers its request but is not remembered (it may predate it). */
  private epoch = 0;
  private readonly revokeListeners = new Set<(spaceId: string, gen: number) => void>();

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
    const epoch = this.epoch;
    let hit: { token: TokenRow | null };
    try {
      const row = await findTokenByHash(this.store, hash);
      // The lookup was by hash; compare once more in constant time before trusting the row.
      hit = { token: row && sameHash(row.hash, hash) ? row : null };
      if (this.epoch === epoch) this.cache.set(value, hit);
    } catch (err) {
      // The store is unreachable: a token answered before still authenticates, so cached responses keep
      // being served; revocations apply again once the store answers.
      const stale = this.cache.get(value, { allowStale: true });
      if (!stale) throw err;
      hit = stale;
    }
    return hit.token;
  }

  clear(): void {
    this.cache.clear();
  }

  /**
   * A space's token generation as a channel reported it (the cv poll, PostgreSQL NOTIFY, Redis, this process).
   * Any other one than seen drops the space's remembered lookups, so a revoked token stops working here. So does
   * the first one seen: a lookup remembered before it may predate the revocation it reports. "Other", not
   * "higher": a space deleted and created again starts at 0; a poll read just before a notification only costs a
   * second drop.
   */
  adoptGeneration(spaceId: string, gen: number): void {
    if (this.generations.get(spaceId) === gen) return;
    this.generations.set(spaceId, gen);
    this.epoch++;
    // dump() includes expired answers: they would stand in for the store while it is unreachable (see find).
    for (const [value, entry] of this.cache.dump())
      if (entry.value.token?.spaceId === spaceId) this.cache.delete(value);
  }

  /** A revocation this process committed: applied here at once and handed to the fan-out (Redis) for the others. */
  revokedHere(spaceId: string, gen: number): void {
    this.adoptGeneration(spaceId, gen);
    for (const listener of this.revokeListeners) listener(spaceId, gen);
  }

  onRevoked(listener: (spaceId: string, gen: number) => void): () => void {
    this.revokeListeners.add(listener);
    return () => this.revokeListeners.delete(listener);
  }
}

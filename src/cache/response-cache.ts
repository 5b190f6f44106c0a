import { LRUCache } from 'lru-cache';
import type { RedisLink } from '../cluster/redis-link.js';
import type { CacheKey } from './cache-key.js';

/** A response as sent: the final bytes and the headers that belong to it (never per-request ones). */
export interface CachedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** The ETag stored with the bytes, so `If-None-Match` costs a string comparison (DESIGN.md "Caching"). */
  readonly etag: string | undefined;
  /**
   * The route pattern that answered (the request metrics' label), so the cache's front door (src/server/fast-hit.ts)
   * can count a hit it answers without routing. Undefined in entries written by an older Folio.
   */
  readonly route?: string | undefined;
}

export interface ResponseCacheOptions {
  l1MaxBytes: number;
  /** Lifetime of current-cv entries: bounds responses that depend on time (a form's status, spec 3.1). */
  ttlSeconds: number;
  /** Lifetime of pinned entries in L2 (L1 keeps them until evicted: they never change). */
  pinnedTtlSeconds: number;
}

// Approximate bytes per entry beside the body: key, headers, object overhead.
const OVERHEAD = 512;

/**
 * L1: an in-process LRU bounded by bytes. L2: Redis when configured, shared by every instance. Redis problems
 * never fail a request: a lookup skips L2 while Redis is down and a write is fire-and-forget.
 */
export class ResponseCache {
  // Expiry is checked here, not by lru-cache's TTL machinery: that measurably slowed every hit (`npm run bench -- cache`).
  private readonly l1: LRUCache<string, { value: CachedResponse; expiresAt: number }>;
  private readonly l2Prefix: string;

  constructor(
    private readonly options: ResponseCacheOptions,
    private readonly redis: RedisLink | null,
  ) {
    this.l1 = new LRUCache({
      maxSize: options.l1MaxBytes,
      sizeCalculation: (entry, key) => entry.value.body.length + key.length + OVERHEAD,
    });
    this.l2Prefix = `${redis?.prefix ?? ''}rc:`;
  }

  getL1(key: CacheKey): CachedResponse | undefined {
    const entry = this.l1.get(key.key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt !== Infinity && entry.expiresAt <= Date.now()) {
      this.l1.delete(key.key);
      return undefined;
    }
    return entry.value;
  }

  hasL2(): boolean {
    return this.redis !== null;
  }

  /** L2 lookup; a hit is copied into L1. Undefined on a miss, without Redis, or while Redis is down. */
  async getL2(key: CacheKey): Promise<CachedResponse | undefined> {
    const redis = this.redis;
    if (!redis) return undefined;
    if (!redis.ready()) return void redis.failed('cache_get', null);
    let raw: Buffer | null;
    try {
      raw = await redis.client.getBuffer(this.l2Prefix + key.key);
    } catch (err) {
      redis.failed('cache_get', err);
      return undefined;
    }
    const value = raw ? decode(raw) : undefined;
    if (value) this.setL1(key, value);
    return value;
  }

  /**
   * Stores a response. `until` (ms since the epoch): the answer may differ from then on without a publish (a
   * form opens or closes), so no layer keeps it longer, pinned or not.
   */
  set(key: CacheKey, value: CachedResponse, until: number | null = null): void {
    this.setL1(key, value, until);
    const redis = this.redis;
    if (!redis) return;
    if (!redis.ready()) return void redis.failed('cache_set', null);
    const usual = (key.pinned ? this.options.pinnedTtlSeconds : this.options.ttlSeconds) * 1000;
    const ttl = until === null ? usual : Math.min(usual, until - Date.now());
    if (ttl <= 0) return;
    redis.client
      .set(this.l2Prefix + key.key, encode(value), 'PX', ttl)
      .catch((err: unknown) => redis.failed('cache_set', err));
  }

  clearL1(): void {
    this.l1.clear();
  }

  private setL1(key: CacheKey, value: CachedResponse, until: number | null = null): void {
    const usual = key.pinned ? Infinity : Date.now() + this.options.ttlSeconds * 1000;
    this.l1.set(key.key, { value, expiresAt: until === null ? usual : Math.min(usual, until) });
  }
}

/** `[u32 length of meta][meta JSON: status, headers, etag][body]`: the bytes go to Redis untouched. */
export function encode(value: CachedResponse): Buffer {
  const meta = Buffer.from(
    JSON.stringify({ s: value.status, h: value.headers, e: value.etag ?? null, r: value.route ?? null }),
  );
  const head = Buffer.allocUnsafe(4);
  head.writeUInt32BE(meta.length, 0);
  return Buffer.concat([head, meta, value.body]);
}

export function decode(raw: Buffer): CachedResponse | undefined {
  if (raw.length < 4) return undefined;
  const length = raw.readUInt32BE(0);
  if (raw.length < 4 + length) return undefined;
  try {
    const meta = JSON.parse(raw.subarray(4, 4 + length).toString('utf8')) as {
      s: number;
      h: Record<string, string>;
      e: string | null;
      r?: string | null;
    };
    return {
      status: meta.s,
      headers: meta.h,
      etag: meta.e ?? undefined,
      route: typeof meta.r === 'string' ? meta.r : undefined,
      body: raw.subarray(4 + length),
    };
  } catch {
    return undefined; // another version's format: a miss
  }
}

import { LRUCache } from 'lru-cache';
import type { Redis } from 'ioredis';
import { POOLED_WINDOW_MS, PooledCounter } from './pooled-limits.js';
import type { ClusterLink } from '../cluster/worker-pool.js';

/**
 * The small shared state forms need beside the store (DESIGN.md: rate-limit counters in process, or Redis when
 * configured): fixed-window counters for rate limits and "set once" keys for single-use Turnstile tokens. Memory
 * and Redis share one contract test (test/forms-limits.test.ts); `PooledKv`, for the workers of a pool without
 * Redis, is tested through a real pool (test/workers.test.ts).
 */
export interface Kv {
  /** Counts a hit in the fixed window of `key`; `resetMs` is the time left until the window restarts. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }>;
  /** Sets `key` for `ttlMs` unless it is set; true when this call set it (atomic across instances on Redis). */
  setOnce(key: string, ttlMs: number): Promise<boolean>;
  close(): Promise<void>;
}

interface Window {
  count: number;
  resetAt: number;
}

/** One process: bounded LRU maps (a flood of distinct keys evicts the oldest, it never grows memory). */
export class MemoryKv implements Kv {
  private readonly windows = new LRUCache<string, Window>({ max: 100_000 });
  private readonly once = new LRUCache<string, true>({ max: 100_000 });

  constructor(private readonly now: () => number = Date.now) {}

  async hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }> {
    const now = this.now();
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, w);
    }
    w.count += 1;
    return { count: w.count, resetMs: w.resetAt - now };
  }

  async setOnce(key: string, ttlMs: number): Promise<boolean> {
    if (this.once.has(key)) return false;
    this.once.set(key, true, { ttl: ttlMs });
    return true;
  }

  async close(): Promise<void> {
    this.windows.clear();
    this.once.clear();
  }
}

/**
 * The workers of one `folio serve` without Redis (`WORKERS`): counters of one-minute windows shared through the
 * primary (src/kv/pooled-limits.ts: each worker decides on its own count plus the others' last sum, synced every
 * 100 ms), so the form limits hold across workers as the delivery limit does. Windows of another length, and the
 * single-use keys, stay in this worker (Turnstile's siteverify refuses a reused token anyway).
 */
export class PooledKv implements Kv {
  private readonly counter: PooledCounter;
  private readonly local: MemoryKv;

  constructor(link: ClusterLink, now: () => number = Date.now) {
    this.counter = new PooledCounter(link, 'forms', now);
    this.local = new MemoryKv(now);
  }

  async hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }> {
    if (windowMs !== POOLED_WINDOW_MS) return this.local.hit(key, windowMs);
    const { current, resetMs } = this.counter.incr(key);
    return { count: current, resetMs };
  }

  setOnce(key: string, ttlMs: number): Promise<boolean> {
    return this.local.setOnce(key, ttlMs);
  }

  async close(): Promise<void> {
    this.counter.close();
    await this.local.close();
  }
}

// INCR then PEXPIRE on the first hit, in one round trip and atomically (a crash between the two cannot leave a
// counter without expiry).
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}
`;

/** Shared by every instance on one Redis; keys are prefixed so other users of the server never collide. */
export class RedisKv implements Kv {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'folio:forms:',
    /** False for the app's shared connection (src/cluster/redis-link.ts): its owner closes it. */
    private readonly ownsConnection = true,
  ) {}

  async hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }> {
    const [count, ttl] = (await this.redis.eval(HIT_SCRIPT, 1, this.prefix + key, String(windowMs))) as [
      number,
      number,
    ];
    return { count: Number(count), resetMs: Number(ttl) };
  }

  async setOnce(key: string, ttlMs: number): Promise<boolean> {
    const set = await this.redis.set(this.prefix + key, '1', 'PX', ttlMs, 'NX');
    return set === 'OK';
  }

  async close(): Promise<void> {
    if (!this.ownsConnection) return;
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import { PooledCounter } from '../kv/pooled-limits.js';
import type { RedisLink } from '../cluster/redis-link.js';
import type { ClusterLink } from '../cluster/worker-pool.js';

export interface LimitResult {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  exceeded: boolean;
}

export type LimitCheck = (key: string) => LimitResult | Promise<LimitResult>;

/** The store interface of @fastify/rate-limit (`store/LocalStore.js`, `store/RedisStore.js`). */
interface Store {
  incr(
    key: string,
    cb: (err: Error | null, res: { current: number; ttl: number } | null) => void,
    timeWindowMs: number,
    max: number,
  ): void;
}

// The stores are the plugin's own files (CommonJS, without type declarations); the plugin itself is not
// registered, because its hooks would run before the delivery pipeline's auth and cache (see docs/architecture).
const require = createRequire(import.meta.url);
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  cache?: number,
) => Store;
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  key?: string,
) => Store;

const WINDOW_MS = 60_000;

const toResult = (max: number, res: { current: number; ttl: number }): LimitResult => ({
  limit: max,
  remaining: Math.max(0, max - res.current),
  resetSeconds: Math.max(1, Math.ceil(res.ttl / 1000)),
  exceeded: res.current > max,
});

function incrShared(store: Store, key: string, max: number): Promise<LimitResult> {
  return new Promise((resolve, reject) => {
    store.incr(
      key,
      (err, res) => (err || !res ? reject(err ?? new Error('no answer')) : resolve(toResult(max, res))),
      WINDOW_MS,
      max,
    );
  });
}

/** The local store answers in its callback synchronously: no promise on the hot path. */
function incrLocal(store: Store, key: string, max: number): LimitResult {
  let out: LimitResult | undefined;
  store.incr(key, (_err, res) => (out = res ? toResult(max, res) : undefined), WINDOW_MS, max);
  if (out === undefined) throw new Error('the local rate-limit store did not answer');
  return out;
}

/**
 * `max` requests per minute per key, in fixed one-minute windows (spec 8), counted by @fastify/rate-limit's
 * stores. With Redis the counters are shared (one Lua script: INCR and PEXPIRE), so the limit holds across
 * instances; while Redis is unreachable each instance counts locally, so the limit then holds per instance,
 * and the shared counters take over again by themselves when Redis is back. Without Redis, the workers of one
 * `folio serve` (`cluster`, WORKERS) share their counts through the primary (src/kv/pooled-limits.ts).
 */
export function createLimiter(options: {
  max: number;
  name: string;
  redis: RedisLink | null;
  cluster?: ClusterLink | null;
}): LimitCheck {
  const { max, name, redis } = options;
  if (redis === null && options.cluster) {
    const pooled = new PooledCounter(options.cluster, name);
    return (key) => {
      const { current, resetMs } = pooled.incr(key);
      return toResult(max, { current, ttl: resetMs });
    };
  }
  // 100,000 keys tracked in memory (LRU); a forgotten one starts a fresh window.
  const local = new LocalStore(false, false, 100_000);
  const shared = redis ? new RedisStore(false, false, redis.client, `${redis.prefix}rl:${name}:`) : null;
  return (key) => {
    if (shared && redis) {
      if (redis.ready())
        return incrShared(shared, key, max).catch((err: unknown) => {
          redis.failed('rate_limit', err);
          return incrLocal(local, key, max);
        });
      redis.failed('rate_limit', null);
    }
    return incrLocal(local, key, max);
  };
}

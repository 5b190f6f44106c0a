import { LRUCache } from 'lru-cache';
import type { ClusterLink, RateCounts } from '../cluster/worker-pool.js';

/**
 * Rate limits shared by the workers of one `folio serve` without Redis (`WORKERS`, docs/operations.md "Workers").
 * Each worker counts in memory, in fixed one-minute windows aligned to the clock (so every worker means the same
 * window), and every `SYNC_MS` sends its own counts of the keys it saw to the primary, which answers every other
 * worker with the sum of the rest. A worker's decision takes its own count plus the others' last sum: the limit
 * holds across workers within what the others accept between two syncs (at most `(WORKERS − 1) ×` their rate ×
 * `SYNC_MS`), with no message on a request's path.
 */
export const SYNC_MS = 100;
const WINDOW_MS = 60_000;
/**
 * Keys tracked (tokens, and hashed visitors and forms: a flood of distinct visitors must not grow memory); past it
 * the least recently counted is forgotten, as the in-memory limits do (src/kv/kv.ts MemoryKv).
 */
const MAX_KEYS = 100_000;

export interface PooledResult {
  current: number;
  /** Milliseconds until the window restarts. */
  resetMs: number;
}

/** The windows' length: counts are per clock minute. */
export const POOLED_WINDOW_MS = WINDOW_MS;

interface Count {
  window: number;
  own: number;
  others: number;
}

/** A worker's side, one per limit (`name`). */
export class PooledCounter {
  private readonly counts = new LRUCache<string, Count>({ max: MAX_KEYS });
  private readonly dirty = new Set<string>();
  private readonly timer: NodeJS.Timeout;
  private readonly stop: () => void;

  constructor(
    private readonly link: ClusterLink,
    private readonly name: string,
    private readonly now: () => number = Date.now,
  ) {
    this.stop = link.onMessage((m) => {
      if (m.folio !== 'rl-sum' || m.name !== this.name) return;
      for (const [key, others] of m.counts) {
        const c = this.counts.get(key);
        if (c !== undefined && c.window === m.window) c.others = others;
      }
    });
    this.timer = setInterval(() => this.flush(), SYNC_MS);
    this.timer.unref();
  }

  incr(key: string): PooledResult {
    const now = this.now();
    const window = Math.floor(now / WINDOW_MS);
    let c = this.counts.get(key);
    if (c === undefined || c.window !== window) {
      c = { window, own: 0, others: 0 };
      this.counts.set(key, c);
    }
    c.own++;
    this.dirty.add(key);
    const resetMs = (window + 1) * WINDOW_MS - now;
    return { current: c.own + c.others, resetMs };
  }

  /** Sends this worker's counts of the keys it counted since the last sync (one message per window). */
  flush(): void {
    if (this.dirty.size === 0) return;
    const byWindow = new Map<number, [string, number][]>();
    for (const key of this.dirty) {
      const c = this.counts.get(key);
      if (c === undefined) continue;
      let list = byWindow.get(c.window);
      if (list === undefined) byWindow.set(c.window, (list = []));
      list.push([key, c.own]);
    }
    this.dirty.clear();
    for (const [window, counts] of byWindow) this.link.send({ folio: 'rl', name: this.name, window, counts });
  }

  close(): void {
    clearInterval(this.timer);
    this.stop();
  }
}

/**
 * The primary's side: the counts each worker reported, per limit, window and key; answers each report with, for
 * every other worker, the sum of all but that worker's own. Windows before the newest reported are dropped.
 */
export class PooledLimitsHub {
  /** name → window → key → worker index → that worker's count. */
  private readonly limits = new Map<
    string,
    { window: number; keys: LRUCache<string, Map<number, number>> }
  >();

  /** Takes worker `from`'s report; returns what to send to each other worker. */
  report(from: number, message: RateCounts, workers: readonly number[]): Map<number, RateCounts> {
    let limit = this.limits.get(message.name);
    if (limit === undefined || limit.window < message.window) {
      limit = { window: message.window, keys: new LRUCache({ max: MAX_KEYS }) };
      this.limits.set(message.name, limit);
    }
    const out = new Map<number, RateCounts>();
    if (message.window < limit.window) return out; // a late report of a window already over
    for (const [key, count] of message.counts) {
      let perWorker = limit.keys.get(key);
      if (perWorker === undefined) limit.keys.set(key, (perWorker = new Map()));
      perWorker.set(from, count);
    }
    for (const to of workers) {
      if (to === from) continue;
      const counts: [string, number][] = message.counts.map(([key]) => {
        let others = 0;
        for (const [worker, n] of limit.keys.get(key) ?? []) if (worker !== to) others += n;
        return [key, others];
      });
      out.set(to, { folio: 'rl-sum', name: message.name, window: message.window, counts });
    }
    return out;
  }
}

import { Redis, type RedisOptions } from 'ioredis';
import type { Log } from '../observability/log.js';
import type { Metrics } from '../observability/metrics.js';

/**
 * Options that keep a request from ever waiting on a dead Redis: no offline queue (a command while disconnected
 * fails at once), no retries of in-flight commands, short connect and command timeouts, and reconnection
 * forever with a bounded delay, so recovery needs no restart.
 */
const OPTIONS: RedisOptions = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  connectTimeout: 1000,
  commandTimeout: 500,
  retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 5), 2000),
};

/**
 * The shared Redis connection of one app: L2 cache, shared rate-limit counters and (on SQLite) the cv fan-out.
 * Callers check `ready()` and fall back to local state when it is false; `failed()` counts and logs once.
 */
export class RedisLink {
  readonly client: Redis;
  private up = false;
  private everUp = false;
  private warned = false;
  private closed = false;
  private readonly subscribers: Redis[] = [];

  constructor(
    url: string,
    readonly prefix: string,
    private readonly log: Log,
    private readonly metrics: Metrics,
  ) {
    this.client = new Redis(url, OPTIONS);
    this.metrics.redisState(false);
    this.client.on('ready', () => {
      this.up = true;
      this.metrics.redisState(true);
      if (this.warned)
        this.log.info({ redis: 'up' }, 'Redis is reachable again; shared cache and limits resume');
      this.warned = false;
      this.everUp = true;
    });
    // ioredis emits 'error' for every failed reconnect; one warning per outage is enough (the metric counts).
    this.client.on('error', (err: Error) => this.down(err));
    this.client.on('close', () => this.down(null));
  }

  /** Waits for the first connection, at most `ms`: a server starts with Redis when it can, without it if not. */
  async connected(ms: number): Promise<boolean> {
    if (this.ready()) return true;
    let timer: NodeJS.Timeout | undefined;
    let onReady: (() => void) | undefined;
    await new Promise<void>((resolve) => {
      onReady = resolve;
      timer = setTimeout(resolve, ms);
      this.client.once('ready', onReady);
    });
    clearTimeout(timer);
    if (onReady) this.client.off('ready', onReady);
    return this.ready();
  }

  ready(): boolean {
    return this.up && this.client.status === 'ready';
  }

  /** A command failed: counted per operation; the first failure of an outage is logged as a warning. */
  failed(op: string, err: unknown): void {
    this.metrics.redisError(op);
    this.down(err instanceof Error ? err : null);
  }

  /**
   * A second connection for SUBSCRIBE (a subscribed connection cannot run other commands). Its SUBSCRIBE waits
   * for the connection (offline queue on: no request ever waits on it), and ioredis subscribes again after
   * every reconnection.
   */
  subscriber(): Redis {
    const sub = this.client.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
    sub.on('error', () => {}); // state and warnings come from the main connection
    this.subscribers.push(sub);
    return sub;
  }

  async ping(): Promise<boolean> {
    if (!this.ready()) return false;
    try {
      return (await this.client.ping()) === 'PONG';
    } catch (err) {
      this.failed('ping', err);
      return false;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const c of [this.client, ...this.subscribers]) c.disconnect(false);
  }

  private down(err: Error | null): void {
    this.up = false;
    if (this.closed) return;
    this.metrics.redisState(false);
    if (this.warned) return;
    this.warned = true;
    this.log.warn(
      { redis: 'down', err: err?.message },
      this.everUp
        ? 'Redis is unreachable; serving from the in-process cache and local rate-limit counters'
        : 'Redis is not reachable yet; using the in-process cache and local rate-limit counters meanwhile',
    );
  }
}

/**
 * What the Redis server says about REDIS_URL's database index, asked once at start: ioredis selects the database
 * after connecting, and when the server refuses it (`/99` beyond `databases`) it only emits an error and carries on
 * in database 0, sharing it with whatever else uses it. Returns the server's refusal, or null when it accepted the
 * index or could not be reached (an outage at start is served through, as later ones are).
 */
export async function refusedRedisDatabase(url: string): Promise<string | null> {
  const probe = new Redis(url, { ...OPTIONS, lazyConnect: true, retryStrategy: () => null });
  probe.on('error', () => {});
  try {
    await probe.connect();
  } catch {
    probe.disconnect();
    return null;
  }
  try {
    await probe.select(probe.options.db ?? 0);
    return null;
  } catch (err) {
    // A refusal is the server's `ERR …` answer; a timeout is an outage, served through.
    const message = err instanceof Error ? err.message : String(err);
    return message.startsWith('ERR') ? message : null;
  } finally {
    probe.disconnect();
  }
}

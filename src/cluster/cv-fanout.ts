import type { Log } from '../observability/log.js';
import type { StoreConfig } from '../server/config.js';
import type { Store } from '../store/open-store.js';
import { PgCvListener } from './pg-cv-listener.js';
import type { RedisLink } from './redis-link.js';
import type { SpaceDirectory } from './space-directory.js';
import { readSpaceVersions } from './space-versions-repo.js';

export interface CvFanoutOptions {
  store: Store;
  storeConfig: StoreConfig;
  directory: SpaceDirectory;
  redis: RedisLink | null;
  pollMs: number;
  log: Log;
}

/** How the channel is chosen, for logs and docs. */
export type FanoutChannel = 'postgres-notify' | 'redis-pubsub' | 'in-process';

/**
 * Keeps the space directory's cv current (spec 1.2, DESIGN.md "Two deployment modes"):
 * - in-process: the store's publish signal (the embedded default needs nothing else);
 * - between instances on PostgreSQL: LISTEN/NOTIFY from the trigger of migration 0006, which fires on commit for
 *   every writer (a `folio import` process included);
 * - between instances on SQLite with Redis (several processes on one file): Redis pub/sub of local publishes;
 * - always: a poll of every space's cv every `pollMs`, bounding staleness when a notification is lost.
 */
export class CvFanout {
  readonly channel: FanoutChannel;
  private readonly stops: (() => Promise<void> | void)[] = [];
  private pollFailed = false;
  private closed = false;

  constructor(private readonly options: CvFanoutOptions) {
    const { store, storeConfig, directory, redis } = options;
    const topic = `${redis?.prefix ?? ''}cv`;
    const toRedis = storeConfig.engine === 'sqlite' && redis !== null;
    this.stops.push(
      store.published.on((spaceId, cv) => {
        directory.notify(spaceId, cv);
        if (toRedis && redis.ready()) {
          redis.client
            .publish(topic, `${cv} ${spaceId}`)
            .catch((err: unknown) => redis.failed('publish', err));
        }
      }),
    );
    if (storeConfig.engine === 'postgres') {
      this.channel = 'postgres-notify';
      const listener = new PgCvListener({
        url: storeConfig.url,
        schema: storeConfig.schema,
        onVersion: (v) => directory.notify(v.id, v.cv, v.minCv),
        onConnected: () => void this.poll(),
        log: options.log,
      });
      listener.start();
      this.stops.push(() => listener.close());
    } else if (toRedis) {
      this.channel = 'redis-pubsub';
      const sub = redis.subscriber();
      sub.on('message', (channel: string, message: string) => {
        const m = /^(\d+) (.+)$/s.exec(message);
        if (channel === topic && m) directory.notify(m[2] as string, Number(m[1]));
      });
      // ioredis subscribes again after every reconnection; catch up on what was missed meanwhile.
      sub.on('ready', () => void this.poll());
      sub.subscribe(topic).catch(() => {});
    } else this.channel = 'in-process';
    const timer = setInterval(() => void this.poll(), options.pollMs);
    timer.unref();
    this.stops.push(() => clearInterval(timer));
  }

  /** Reads every space's cv once and re-reads those that moved without a notification. */
  async poll(): Promise<void> {
    try {
      this.options.directory.reconcile(await readSpaceVersions(this.options.store));
      if (this.pollFailed) this.options.log.info({}, 'the store answers again; cv poll resumed');
      this.pollFailed = false;
    } catch (err) {
      if (this.closed) return;
      if (!this.pollFailed)
        this.options.log.warn({ err: (err as Error).message }, 'cv poll failed; the store is unreachable');
      this.pollFailed = true;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const stop of this.stops.splice(0)) await stop();
  }
}

import type { Log } from '../observability/log.js';
import type { StoreConfig } from '../config/config.js';
import type { Store } from '../store/open-store.js';
import { PgCvListener } from './pg-cv-listener.js';
import type { RedisLink } from './redis-link.js';
import type { SpaceDirectory } from './space-directory.js';
import type { ClusterLink } from './worker-pool.js';
import { readSpaceVersions } from './space-versions-repo.js';
import { refuseWritesIfStoreNewer } from '../store/schema-guard.js';

/** Where token revocations go and come from (src/auth/token-cache.ts). */
export interface TokenGenerations {
  adoptGeneration(spaceId: string, gen: number): void;
  /** Revocations committed in this process, to publish for the others. */
  onRevoked(listener: (spaceId: string, gen: number) => void): () => void;
}

export interface CvFanoutOptions {
  store: Store;
  storeConfig: StoreConfig;
  directory: SpaceDirectory;
  redis: RedisLink | null;
  pollMs: number;
  log: Log;
  /** Carries token revocations over the same channels and poll (revocation within the same bound). */
  tokens?: TokenGenerations;
  /** This process's line to the other workers of its pool (`WORKERS`), when it is one (src/cluster/worker-pool.ts). */
  cluster?: ClusterLink | null;
}

/** How the channel is chosen, for logs and docs. */
export type FanoutChannel = 'postgres-notify' | 'redis-pubsub' | 'worker-ipc' | 'in-process';

/**
 * Keeps the space directory's cv current (spec 1.2, DESIGN.md "Two deployment modes"):
 * - in-process: the store's publish signal (the embedded default needs nothing else);
 * - between instances on PostgreSQL: LISTEN/NOTIFY from the trigger of migration 0006, which fires on commit for
 *   every writer (a `folio import` process included);
 * - between instances on SQLite with Redis (several processes on one file): Redis pub/sub of local publishes;
 * - between the workers of one `folio serve` (`WORKERS`) on SQLite without Redis: the pool's IPC, relayed by the
 *   primary (src/cluster/worker-pool.ts);
 * - always: a poll of every space's cv every `pollMs`, bounding staleness when a notification is lost.
 * Token revocations (a space's `token_gen`, migration 0010) travel the same ways: `NOTIFY folio_tokens`, the Redis
 * topic `<prefix>tokens`, the poll.
 */
export class CvFanout {
  readonly channel: FanoutChannel;
  private readonly stops: (() => Promise<void> | void)[] = [];
  private pollFailed = false;
  private closed = false;

  constructor(private readonly options: CvFanoutOptions) {
    const { store, storeConfig, directory, redis, tokens } = options;
    const topic = `${redis?.prefix ?? ''}cv`;
    const tokensTopic = `${redis?.prefix ?? ''}tokens`;
    const toRedis = storeConfig.engine === 'sqlite' && redis !== null;
    const ipc = storeConfig.engine === 'sqlite' && redis === null ? (options.cluster ?? null) : null;
    if (tokens && ipc) {
      this.stops.push(tokens.onRevoked((spaceId, gen) => ipc.send({ folio: 'tokens', spaceId, gen })));
    }
    if (tokens && toRedis) {
      this.stops.push(
        tokens.onRevoked((spaceId, gen) => {
          if (!redis.ready()) return; // the poll carries it
          redis.client
            .publish(tokensTopic, `${gen} ${spaceId}`)
            .catch((err: unknown) => redis.failed('publish', err));
        }),
      );
    }
    this.stops.push(
      store.published.on((spaceId, cv) => {
        directory.notify(spaceId, cv);
        ipc?.send({ folio: 'cv', spaceId, cv });
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
        ...(tokens ? { onTokenGen: (id: string, gen: number) => tokens.adoptGeneration(id, gen) } : {}),
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
        else if (channel === tokensTopic && m) tokens?.adoptGeneration(m[2] as string, Number(m[1]));
      });
      // ioredis subscribes again after every reconnection; catch up on what was missed meanwhile.
      sub.on('ready', () => void this.poll());
      sub.subscribe(...(tokens ? [topic, tokensTopic] : [topic])).catch(() => {});
    } else if (ipc) {
      this.channel = 'worker-ipc';
      this.stops.push(
        ipc.onMessage((m) => {
          if (m.folio === 'cv') directory.notify(m.spaceId, m.cv);
          else if (m.folio === 'tokens') tokens?.adoptGeneration(m.spaceId, m.gen);
        }),
      );
    } else this.channel = 'in-process';
    const timer = setInterval(() => void this.poll(), options.pollMs);
    timer.unref();
    this.stops.push(() => clearInterval(timer));
  }

  /**
   * Reads every space's cv once and re-reads those that moved without a notification; and whether a newer Folio
   * migrated the store meanwhile (then writes are refused: src/store/schema-guard.ts).
   */
  async poll(): Promise<void> {
    try {
      const refused = await refuseWritesIfStoreNewer(this.options.store);
      if (refused !== null) this.options.log.error({}, refused);
      const versions = await readSpaceVersions(this.options.store);
      this.options.directory.reconcile(versions);
      const tokens = this.options.tokens;
      if (tokens)
        for (const v of versions) if (v.tokenGen !== undefined) tokens.adoptGeneration(v.id, v.tokenGen);
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

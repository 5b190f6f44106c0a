import cluster, { type Worker } from 'node:cluster';
import { PooledLimitsHub } from '../kv/pooled-limits.js';

/**
 * `WORKERS=N` (docs/operations.md "Workers"): `folio serve` as N processes sharing one port, so one instance uses
 * every core (Node runs JavaScript on one). The primary only forks, relays and restarts; each worker is a whole
 * Folio (its own caches, its own store connection), like instances of a cluster that share a host.
 *
 * Messages between processes, all `{ folio: kind, … }`:
 * - worker → primary `listening`: the worker's server is up (the primary reports the instance ready once all are);
 * - worker → primary → every other worker `cv` and `tokens`: a publish or a token revocation committed in one
 *   worker, so the others adopt the new cv or token generation at once instead of at their next poll. On SQLite
 *   without Redis this is the fan-out between the workers (src/cluster/cv-fanout.ts); PostgreSQL's NOTIFY and Redis
 *   pub/sub reach every worker anyway;
 * - worker → primary `rl`, primary → worker `rl-sum`: rate-limit counts without Redis (src/kv/pooled-limits.ts).
 */
export interface RateCounts {
  folio: 'rl' | 'rl-sum';
  /** Which limit (`delivery`). */
  name: string;
  /** The one-minute window, as minutes since the epoch. */
  window: number;
  /** Per key: the sender's own count (`rl`), or the other workers' sum (`rl-sum`). */
  counts: [string, number][];
}

export type ClusterMessage =
  | { folio: 'listening'; port: number }
  | { folio: 'cv'; spaceId: string; cv: number }
  | { folio: 'tokens'; spaceId: string; gen: number }
  | RateCounts;

const MAX_COUNTS = 100_000;

function parseCounts(raw: unknown): [string, number][] | null {
  if (!Array.isArray(raw) || raw.length > MAX_COUNTS) return null;
  const out: [string, number][] = [];
  for (const pair of raw) {
    if (!Array.isArray(pair) || pair.length !== 2) return null;
    const [key, n] = pair as unknown[];
    if (typeof key !== 'string' || key.length > 300 || !isCount(n)) return null;
    out.push([key, n]);
  }
  return out;
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** Checks a message from another process (IPC carries whatever a process sends: parse, don't cast). */
export function parseClusterMessage(raw: unknown): ClusterMessage | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const m = raw as Record<string, unknown>;
  const id = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 200;
  if (m.folio === 'listening' && isCount(m.port)) return { folio: 'listening', port: m.port };
  if (m.folio === 'cv' && id(m.spaceId) && isCount(m.cv))
    return { folio: 'cv', spaceId: m.spaceId, cv: m.cv };
  if (m.folio === 'tokens' && id(m.spaceId) && isCount(m.gen))
    return { folio: 'tokens', spaceId: m.spaceId, gen: m.gen };
  if ((m.folio === 'rl' || m.folio === 'rl-sum') && id(m.name) && isCount(m.window)) {
    const counts = parseCounts(m.counts);
    if (counts !== null) return { folio: m.folio, name: m.name, window: m.window, counts };
  }
  return null;
}

/** A worker's line to the primary: what it sends reaches the other workers (cv, tokens) or the primary. */
export interface ClusterLink {
  send(message: ClusterMessage): void;
  onMessage(listener: (message: ClusterMessage) => void): () => void;
}

/** The link of this process when it is a worker of a pool, else null. */
export function workerLink(): ClusterLink | null {
  if (!cluster.isWorker || typeof process.send !== 'function') return null;
  return {
    send(message) {
      // After the primary went away (it is stopping us) there is nobody to tell.
      if (process.connected) process.send?.(message);
    },
    onMessage(listener) {
      const handler = (raw: unknown) => {
        const message = parseClusterMessage(raw);
        if (message) listener(message);
      };
      process.on('message', handler);
      return () => process.off('message', handler);
    },
  };
}

export interface WorkerPoolOptions {
  count: number;
  /** Environment of worker `index` (0-based) beside the primary's own. */
  env(index: number): Record<string, string>;
  log: { info(message: string): void; error(message: string): void };
  /** Wait before replacing a worker that died; doubles while replacements die within a minute (max 30 s). */
  restartDelayMs?: number;
}

interface Slot {
  index: number;
  worker: Worker;
  startedAt: number;
  quickDeaths: number;
}

/**
 * The primary's side: forks the workers, waits until each listens, relays cv and token messages, replaces a
 * worker that dies, and stops them all (SIGTERM, each finishes what it has in hand) on `stop()`.
 */
export class WorkerPool {
  private readonly slots: Slot[] = [];
  private stopping = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly limits = new PooledLimitsHub();

  private constructor(
    private readonly options: WorkerPoolOptions,
    /** The port every worker listens on (one port: the primary hands connections out in turn). */
    readonly port: number,
  ) {}

  /** Forks `count` workers; resolves once every one listens, rejects (stopping the rest) if one exits first. */
  static async start(options: WorkerPoolOptions): Promise<WorkerPool> {
    if (!cluster.isPrimary) throw new Error('WorkerPool.start runs in the primary process');
    const listening: Promise<{ worker: Worker; port: number }>[] = [];
    const workers: Worker[] = [];
    for (let index = 0; index < options.count; index++) {
      const worker = cluster.fork(options.env(index));
      workers.push(worker);
      listening.push(waitListening(worker, index));
    }
    let started: { worker: Worker; port: number }[];
    try {
      started = await Promise.all(listening);
    } catch (err) {
      await Promise.all(workers.map((w) => stopWorker(w)));
      throw err;
    }
    const pool = new WorkerPool(options, started[0]?.port ?? 0);
    started.forEach(({ worker }, index) => pool.adopt(index, worker, 0));
    return pool;
  }

  /** The pids of the workers now running (operators' tooling and tests). */
  get pids(): number[] {
    return this.slots.flatMap((s) => (s.worker.process.pid === undefined ? [] : [s.worker.process.pid]));
  }

  async stop(): Promise<void> {
    this.stopping = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await Promise.all(this.slots.map((s) => stopWorker(s.worker)));
  }

  private adopt(index: number, worker: Worker, quickDeaths: number): void {
    const slot: Slot = { index, worker, startedAt: Date.now(), quickDeaths };
    this.slots[index] = slot;
    worker.on('message', (raw: unknown) => {
      const message = parseClusterMessage(raw);
      if (message === null || message.folio === 'listening' || message.folio === 'rl-sum') return;
      if (message.folio === 'rl') {
        const live = this.slots.filter((s) => s.worker.isConnected()).map((s) => s.index);
        for (const [to, sums] of this.limits.report(index, message, live)) this.slots[to]?.worker.send(sums);
        return;
      }
      for (const other of this.slots)
        if (other.worker !== worker && other.worker.isConnected()) other.worker.send(message);
    });
    worker.once('exit', (code, signal) => {
      if (this.stopping || this.slots[index] !== slot) return;
      const quick = Date.now() - slot.startedAt < 60_000 ? slot.quickDeaths + 1 : 0;
      const delay = Math.min(30_000, (this.options.restartDelayMs ?? 1000) * 2 ** Math.max(0, quick - 1));
      this.options.log.error(
        `worker ${index} (pid ${worker.process.pid}) exited (${signal ?? `code ${code}`}); replacing it in ${delay} ms`,
      );
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        if (this.stopping) return;
        const replacement = cluster.fork(this.options.env(index));
        this.adopt(index, replacement, quick);
        waitListening(replacement, index).then(
          () => this.options.log.info(`worker ${index} replaced (pid ${replacement.process.pid})`),
          // Its exit handler (adopt) schedules the next attempt.
          () => {},
        );
      }, delay);
      this.timers.add(timer);
    });
  }
}

function waitListening(worker: Worker, index: number): Promise<{ worker: Worker; port: number }> {
  return new Promise((resolve, reject) => {
    const onMessage = (raw: unknown) => {
      const message = parseClusterMessage(raw);
      if (message?.folio !== 'listening') return;
      worker.off('message', onMessage);
      worker.off('exit', onExit);
      resolve({ worker, port: message.port });
    };
    const onExit = (code: number | null, signal: string | null) => {
      worker.off('message', onMessage);
      reject(new Error(`worker ${index} exited before listening (${signal ?? `code ${code}`})`));
    };
    worker.on('message', onMessage);
    worker.once('exit', onExit);
  });
}

/** SIGTERM, then wait for the exit (a worker closes its server and finishes requests and jobs in hand). */
function stopWorker(worker: Worker): Promise<void> {
  if (worker.isDead()) return Promise.resolve();
  return new Promise((resolve) => {
    worker.once('exit', () => resolve());
    worker.process.kill('SIGTERM');
  });
}

import { hostname } from 'node:os';
import { randomBase62 } from '../lib/ids.js';
import type { Store } from '../store/open-store.js';
import { Coalescer } from './coalesce.js';
import { type ClaimedJob, claimJobs, completeJobs, deleteDoneJobs, failJob } from './jobs-repo.js';
import { DEFAULT_RETRY, nextAttemptAt, type RetryPolicy } from './retry.js';
import { onJobsEnqueued } from './wakeup.js';

/** Runs one job; throwing schedules a retry (or, for a `PermanentJobError`, gives the job up at once). */
export type JobHandler = (job: ClaimedJob) => Promise<void>;

/** A failure retrying cannot fix (a forbidden target, a malformed payload): the job goes `dead` at once. */
export class PermanentJobError extends Error {
  override readonly name = 'PermanentJobError';
}

export interface RunnerLog {
  error(details: object, message: string): void;
  /** One line per failed attempt (docs/operations.md "Monitoring"); left out, failures are only in the store. */
  warn?(details: object, message: string): void;
}

/** How an attempt ended: `retry` and `dead` are failures (`dead`: given up, no further attempt). */
export type AttemptOutcome = 'done' | 'retry' | 'dead';

/** Counts attempts as they end (the metrics of the process: src/observability/metrics.ts). */
export interface JobObserver {
  attempted(kind: string, outcome: AttemptOutcome): void;
}

export interface RunnerOptions {
  /** Handlers per job kind; the runner claims only kinds it has a handler for. */
  handlers: ReadonlyMap<string, JobHandler>;
  workerId?: string;
  /** How often an idle runner looks for due jobs (default 500 ms); local enqueues wake it at once. */
  pollMs?: number;
  /** The most jobs one claim statement takes (default: `concurrency`); `runOnce` runs one such batch. */
  batchSize?: number;
  /**
   * The most jobs in hand at once (default 32): the loop claims only as many as it has free slots, so a claimed
   * job starts at once and its lease never runs down in a queue of this process. Slow receivers are bounded
   * further by their own limits (pooled SMTP connections, a per-host limit for webhooks and chat).
   */
  concurrency?: number;
  /**
   * How long a finished job waits for others to finish before they are all marked done in one statement (default
   * 5 ms). Its slot stays taken until then; a crash in between runs the job again (at-least-once).
   */
  completeDelayMs?: number;
  /** How long a claimed job stays leased to this runner (default 60 s, well above any handler's timeout). */
  leaseMs?: number;
  retry?: RetryPolicy;
  /** Finished jobs are deleted this long after they finished (default 7 days). */
  keepDoneMs?: number;
  /** Housekeeping of the domains, run about hourly beside the deletion of finished jobs. */
  sweeps?: readonly ((now: Date) => Promise<unknown>)[];
  /** The time the sweeps judge expiry by: the app's clock (tests pin it), default the system clock. */
  clock?: () => Date;
  log?: RunnerLog;
  observer?: JobObserver;
}

const SWEEP_EVERY_MS = 60 * 60_000;

/**
 * The durable job runner of the transactional outbox (DESIGN.md "jobs"): claims due jobs with a lease,
 * runs their handlers, marks them done or schedules a retry with backoff. In-process on the embedded default
 * (`folio serve`), and in any number of `folio worker` processes on PostgreSQL (claims skip rows another
 * worker holds). At-least-once: a job whose worker died runs again when its lease expires.
 */
export class JobRunner {
  readonly workerId: string;
  private readonly pollMs: number;
  private readonly batchSize: number;
  private readonly concurrency: number;
  private readonly inHand = new Set<Promise<void>>();
  private readonly leaseMs: number;
  private readonly retry: RetryPolicy;
  private readonly keepDoneMs: number;
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private nudged = false;
  private lastSweep = 0;
  private unsubscribe: (() => void)[] = [];
  private readonly completions: Coalescer<string>;

  constructor(
    private readonly store: Store,
    private readonly options: RunnerOptions,
  ) {
    this.workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomBase62(6)}`;
    this.pollMs = options.pollMs ?? 500;
    this.concurrency = Math.max(1, options.concurrency ?? 32);
    this.batchSize = Math.max(1, options.batchSize ?? this.concurrency);
    this.leaseMs = options.leaseMs ?? 60_000;
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.keepDoneMs = options.keepDoneMs ?? 7 * 24 * 60 * 60_000;
    this.completions = new Coalescer<string>(
      async (ids) => {
        await completeJobs(this.store, ids, this.workerId, new Date());
        return [];
      },
      { delayMs: options.completeDelayMs ?? 5, max: 256 },
    );
  }

  get started(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    // A commit that enqueued jobs (every publish does, through the outbox) wakes the runner at once.
    this.unsubscribe = [
      this.store.published.on(() => this.nudge()),
      onJobsEnqueued(this.store, () => this.nudge()),
    ];
    this.loop = this.run();
  }

  nudge(): void {
    this.nudged = true;
    this.wake?.();
  }

  /** Stops claiming and waits for the jobs in hand to finish. */
  async stop(): Promise<void> {
    this.running = false;
    for (const u of this.unsubscribe) u();
    this.unsubscribe = [];
    this.wake?.();
    await this.loop;
    this.loop = null;
  }

  private startJob(job: ClaimedJob): void {
    const done: Promise<void> = this.execute(job).finally(() => {
      this.inHand.delete(done);
      // Refill once half the slots are free, not after every job: a claim is a write, and one per job cost more
      // than the jobs themselves under a burst (SQLite runs one statement at a time).
      if (this.inHand.size <= this.concurrency / 2) this.nudge();
    });
    this.inHand.add(done);
  }

  /** Claims one batch of due jobs and runs them; returns how many it ran. */
  async runOnce(): Promise<number> {
    const jobs = await this.claim(this.batchSize);
    await Promise.all(jobs.map((job) => this.execute(job)));
    return jobs.length;
  }

  private claim(limit: number): Promise<ClaimedJob[]> {
    return claimJobs(this.store, {
      kinds: [...this.options.handlers.keys()],
      workerId: this.workerId,
      limit,
      now: new Date(),
      leaseMs: this.leaseMs,
    });
  }

  /**
   * The loop: claims as many due jobs as there are free slots and starts them without waiting for the others
   * (a slow webhook holds one slot, not the batch); a finished job frees its slot and wakes the loop.
   */
  private async run(): Promise<void> {
    while (this.running) {
      this.nudged = false;
      const free = Math.min(this.concurrency - this.inHand.size, this.batchSize);
      let claimed = 0;
      try {
        if (free > 0) {
          const jobs = await this.claim(free);
          claimed = jobs.length;
          for (const job of jobs) this.startJob(job);
        }
        await this.sweep();
      } catch (err) {
        // The store may be briefly unreachable; the next poll tries again.
        this.options.log?.error({ err }, 'job runner: claiming jobs failed');
      }
      if (!this.running) break;
      // A full claim may have left more due jobs behind; with every slot busy, a finishing job wakes the loop.
      if ((free > 0 && claimed >= free) || this.nudged) {
        if (this.inHand.size < this.concurrency) continue;
      }
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.wake = null;
          resolve();
        };
        const timer = setTimeout(done, this.pollMs);
        this.wake = done;
      });
    }
    await Promise.all([...this.inHand]);
  }

  private async execute(job: ClaimedJob): Promise<void> {
    const handler = this.options.handlers.get(job.kind);
    try {
      if (!handler) throw new PermanentJobError(`no handler for job kind "${job.kind}"`);
      await handler(job);
      await this.completions.add(job.id);
      this.options.observer?.attempted(job.kind, 'done');
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const now = new Date();
      const retryAt = err instanceof PermanentJobError ? null : nextAttemptAt(this.retry, job.attempts, now);
      this.reportFailure(job, message, retryAt);
      try {
        await failJob(this.store, job.id, this.workerId, message, retryAt, now);
      } catch (storeErr) {
        // The lease expires and the job runs again: nothing is lost.
        this.options.log?.error({ err: storeErr, job: job.id }, 'job runner: recording a failure failed');
      }
    }
  }

  /**
   * One warn line and one count per failed attempt, so a dead mail server is seen without reading the outbox
   * table. Ids, kind, form and the error only: payloads carry no answers, but the line never holds one anyway.
   */
  private reportFailure(job: ClaimedJob, error: string, retryAt: Date | null): void {
    const outcome: AttemptOutcome = retryAt === null ? 'dead' : 'retry';
    this.options.observer?.attempted(job.kind, outcome);
    this.options.log?.warn?.(
      {
        job: job.id,
        kind: job.kind,
        space: job.spaceId,
        form: formOf(job.payload),
        attempt: job.attempts,
        error: error.slice(0, 500),
        ...(retryAt === null ? { gaveUp: true } : { retryAt: retryAt.toISOString() }),
      },
      retryAt === null ? 'job failed, given up' : 'job failed, will retry',
    );
  }

  private async sweep(): Promise<void> {
    const now = Date.now();
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    await deleteDoneJobs(this.store, new Date(now - this.keepDoneMs));
    const at = this.options.clock?.() ?? new Date(now);
    for (const sweep of this.options.sweeps ?? []) await sweep(at);
  }
}

/**
 * The form a job is about, when it is about one: notifications carry `formKey`, a `form.submitted` event (and
 * each webhook delivery of it) carries `data.form`. Null otherwise.
 */
function formOf(payload: unknown): string | null {
  if (!isRecord(payload)) return null;
  if (typeof payload['formKey'] === 'string') return payload['formKey'];
  const event = isRecord(payload['event']) ? payload['event'] : payload;
  const data = event['data'];
  return isRecord(data) && typeof data['form'] === 'string' ? data['form'] : null;
}

function isRecord(v: unknown): v is Readonly<Record<string, unknown>> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

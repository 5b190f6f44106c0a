import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimJobs } from '../src/jobs/jobs-repo.js';
import { enqueueJob } from '../src/jobs/outbox-repo.js';
import { DEFAULT_RETRY, nextAttemptAt } from '../src/jobs/retry.js';
import { type JobHandler, JobRunner, PermanentJobError } from '../src/jobs/runner.js';
import { openStore, type Store } from '../src/store/open-store.js';
import { ENGINES, openTestEnv, type TestEnv } from './helpers/engines.js';

async function enqueue(store: Store, n: number, kind = 'test', runAt?: Date): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++)
    ids.push(
      await enqueueJob(store.db, {
        spaceId: 'spc_x',
        kind,
        payload: { i },
        ...(runAt === undefined ? {} : { runAt }),
      }),
    );
  return ids;
}

async function statusOf(store: Store, id: string) {
  return store.db
    .selectFrom('outbox')
    .select(['status', 'attempts', 'last_error'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

async function allDone(store: Store, kind = 'test'): Promise<boolean> {
  const rows = await store.db.selectFrom('outbox').select('status').where('kind', '=', kind).execute();
  return rows.every((r) => r.status !== 'pending');
}

const runners: JobRunner[] = [];
function runner(
  store: Store,
  handlers: Record<string, JobHandler>,
  extra: Partial<ConstructorParameters<typeof JobRunner>[1]> = {},
) {
  const r = new JobRunner(store, {
    handlers: new Map(Object.entries(handlers)),
    pollMs: 10,
    retry: { maxAttempts: 3, delayMs: () => 5 },
    ...extra,
  });
  runners.push(r);
  r.start();
  return r;
}

describe('the retry schedule', () => {
  it('backs off exponentially with jitter, capped, over about three days', () => {
    for (let i = 0; i < 50; i++) {
      const first = DEFAULT_RETRY.delayMs(1);
      expect(first).toBeGreaterThanOrEqual(24_000);
      expect(first).toBeLessThanOrEqual(36_000);
      expect(DEFAULT_RETRY.delayMs(30)).toBeLessThanOrEqual(12 * 3600_000 * 1.2);
    }
    const exact = {
      ...DEFAULT_RETRY,
      delayMs: (n: number) => Math.min(30_000 * 2 ** (n - 1), 12 * 3600_000),
    };
    let total = 0;
    for (let n = 1; n < DEFAULT_RETRY.maxAttempts; n++) total += exact.delayMs(n);
    expect(total / 86_400_000).toBeGreaterThan(2.5);
    expect(total / 86_400_000).toBeLessThan(3.5);
    expect(nextAttemptAt(DEFAULT_RETRY, DEFAULT_RETRY.maxAttempts, new Date())).toBeNull();
  });
});

describe.each(ENGINES)('the job runner on %s', (engine) => {
  let env: TestEnv;
  beforeEach(async () => {
    env = await openTestEnv(engine);
  });
  afterEach(async () => {
    for (const r of runners.splice(0)) await r.stop();
    await env.close();
  });

  it('runs every job exactly once with two runners claiming side by side', async () => {
    const second = await openStore(env.storeConfig);
    try {
      const ids = await enqueue(env.store, 40);
      const seen: string[] = [];
      const handler: JobHandler = async (job) => {
        seen.push(job.id);
        await new Promise((r) => setTimeout(r, 2));
      };
      runner(env.store, { test: handler }, { batchSize: 4 });
      runner(second, { test: handler }, { batchSize: 4 });
      await expect.poll(() => allDone(env.store), { timeout: 15_000 }).toBe(true);
      expect([...seen].sort()).toEqual([...ids].sort());
      for (const r of runners.splice(0)) await r.stop();
    } finally {
      await second.close();
    }
  });

  it('runs jobs side by side up to its concurrency, and a slow job does not hold up the others', async () => {
    // Due a second earlier, so the first claim takes it: jobs due in the same millisecond are claimed in id order,
    // which is random, and four quick jobs claimed before it would all be in hand at once.
    const slow = await enqueue(env.store, 1, 'slow', new Date(Date.now() - 1000));
    const ids = await enqueue(env.store, 30);
    let inHand = 0;
    let most = 0;
    let release: () => void = () => {};
    const slowHeld = new Promise<void>((resolve) => (release = resolve));
    const seen: string[] = [];
    runner(
      env.store,
      {
        slow: () => slowHeld,
        test: async (job) => {
          inHand += 1;
          most = Math.max(most, inHand);
          await new Promise((r) => setTimeout(r, 5));
          seen.push(job.id);
          inHand -= 1;
        },
      },
      { concurrency: 4 },
    );
    // Every quick job finishes while the slow one still holds its slot.
    await expect.poll(() => seen.length, { timeout: 15_000 }).toBe(30);
    expect((await statusOf(env.store, slow[0]!)).status).toBe('pending');
    release();
    await expect.poll(() => allDone(env.store, 'slow'), { timeout: 15_000 }).toBe(true);
    expect([...seen].sort()).toEqual([...ids].sort());
    // Three slots beside the slow job: more than one at a time, never more than the bound.
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(3);
  });

  it('runs a job again when the worker holding it died (lease expired): at-least-once', async () => {
    const [id] = await enqueue(env.store, 1);
    const claimed = await claimJobs(env.store, {
      kinds: ['test'],
      workerId: 'crashed',
      limit: 5,
      now: new Date(),
      leaseMs: 30,
    });
    expect(claimed.map((j) => j.id)).toEqual([id]);
    // Leased: a claim now finds nothing.
    expect(
      await claimJobs(env.store, {
        kinds: ['test'],
        workerId: 'other',
        limit: 5,
        now: new Date(),
        leaseMs: 30,
      }),
    ).toEqual([]);
    const seen: number[] = [];
    runner(env.store, { test: async (job) => void seen.push(job.attempts) });
    await expect
      .poll(() => statusOf(env.store, id!), { timeout: 10_000 })
      .toMatchObject({ status: 'done', attempts: 2 });
    expect(seen).toEqual([2]);
  });

  it('retries a failing job with backoff and gives it up (dead) after the last attempt', async () => {
    const [id] = await enqueue(env.store, 1);
    let calls = 0;
    runner(env.store, {
      test: async () => {
        calls++;
        throw new Error('receiver down');
      },
    });
    await expect
      .poll(() => statusOf(env.store, id!), { timeout: 10_000 })
      .toMatchObject({
        status: 'dead',
        attempts: 3,
        last_error: 'receiver down',
      });
    expect(calls).toBe(3);
  });

  it('gives a job up at once on a permanent error, and leaves kinds it has no handler for', async () => {
    const [bad] = await enqueue(env.store, 1);
    const [other] = await enqueue(env.store, 1, 'other');
    runner(env.store, {
      test: async () => {
        throw new PermanentJobError('not allowed');
      },
    });
    await expect
      .poll(() => statusOf(env.store, bad!), { timeout: 10_000 })
      .toMatchObject({ status: 'dead', attempts: 1 });
    expect(await statusOf(env.store, other!)).toMatchObject({ status: 'pending', attempts: 0 });
  });

  it('is woken at once by a commit it is told about, rather than at its next poll', async () => {
    const seen: string[] = [];
    let swept = 0;
    const sweeps = [async () => void swept++];
    const r = runner(env.store, { test: async (job) => void seen.push(job.id) }, { pollMs: 60_000, sweeps });
    // The first poll runs at start; after it the runner sleeps for a minute unless nudged.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const [id] = await enqueue(env.store, 1);
    env.store.published.emit('spc_x', 1);
    await expect.poll(() => seen, { timeout: 10_000 }).toEqual([id]);
    // Housekeeping ran once at start (then hourly), not on every wake-up.
    expect(swept).toBe(1);
    await r.stop();
  });
});

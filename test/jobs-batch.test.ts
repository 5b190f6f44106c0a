import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Coalescer } from '../src/jobs/coalesce.js';
import { claimJobs, completeJobs } from '../src/jobs/jobs-repo.js';
import { enqueueJobs } from '../src/jobs/outbox-repo.js';
import { JobRunner } from '../src/jobs/runner.js';
import { beginSends, markSent } from '../src/forms/notify/sends-repo.js';
import { openStore, type Store } from '../src/store/open-store.js';
import { ENGINES, openTestEnv, type TestEnv } from './helpers/engines.js';

const claim = (store: Store, workerId: string, limit: number, leaseMs = 60_000) =>
  claimJobs(store, { kinds: ['test'], workerId, limit, now: new Date(), leaseMs });

async function statuses(store: Store): Promise<Map<string, string>> {
  const rows = await store.db.selectFrom('outbox').select(['id', 'status']).execute();
  return new Map(rows.map((r) => [r.id, r.status]));
}

describe('gathering writes (Coalescer)', () => {
  it('makes the items added within its delay one write, and answers each caller its own result', async () => {
    const writes: number[][] = [];
    const c = new Coalescer<number, number>(
      async (items) => {
        writes.push(items);
        return items.map((i) => i * 10);
      },
      { delayMs: 20, max: 100 },
    );
    const results = await Promise.all([1, 2, 3].map((i) => c.add(i)));
    expect(results).toEqual([10, 20, 30]);
    expect(writes).toEqual([[1, 2, 3]]);
    // A full batch is written at once, without waiting for the delay.
    const big = new Coalescer<number>(
      async (items) => {
        writes.push(items);
        return [];
      },
      { delayMs: 60_000, max: 2 },
    );
    await Promise.all([big.add(4), big.add(5)]);
    expect(writes.at(-1)).toEqual([4, 5]);
  });

  it('fails every caller of a batch whose write failed, and writes the next batch again', async () => {
    let fail = true;
    const c = new Coalescer<number>(
      async () => {
        if (fail) throw new Error('store down');
        return [];
      },
      { delayMs: 1, max: 100 },
    );
    const settled = await Promise.allSettled([c.add(1), c.add(2)]);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    await expect(c.add(3)).resolves.toBeUndefined();
  });
});

describe.each(ENGINES)('batched claims and completions on %s', (engine) => {
  let env: TestEnv;
  const others: Store[] = [];
  beforeEach(async () => {
    env = await openTestEnv(engine);
  });
  afterEach(async () => {
    for (const s of others.splice(0)) await s.close();
    await env.close();
  });

  it('never hands one job to two workers claiming batches at once from their own connections', async () => {
    const jobs = Array.from({ length: 120 }, (_, i) => ({ spaceId: 'spc_x', kind: 'test', payload: { i } }));
    const ids = await enqueueJobs(env.store.db, jobs);
    for (let i = 0; i < 3; i++) others.push(await openStore(env.storeConfig));
    const stores = [env.store, ...others];
    const got = new Map<string, string[]>();
    // Every worker claims batches of 7 until a round finds nothing left, all workers at once each round.
    for (let round = 0; round < 100; round++) {
      const batches = await Promise.all(stores.map((s, w) => claim(s, `w${w}`, 7)));
      batches.forEach((batch, w) => {
        expect(batch.length).toBeLessThanOrEqual(7);
        for (const job of batch) got.set(job.id, [...(got.get(job.id) ?? []), `w${w}`]);
      });
      if (batches.every((b) => b.length === 0)) break;
    }
    expect([...got.keys()].sort()).toEqual([...ids].sort());
    expect([...got.values()].filter((holders) => holders.length > 1)).toEqual([]);
  });

  it('marks done in one batch only the jobs whose lease the worker still holds', async () => {
    const ids = await enqueueJobs(
      env.store.db,
      Array.from({ length: 4 }, (_, i) => ({ spaceId: 'spc_x', kind: 'test', payload: { i } })),
    );
    const first = await claim(env.store, 'slow', 4, 20);
    expect(first).toHaveLength(4);
    // The lease runs out; another worker claims the jobs again, and the slow one then finishes all four.
    await new Promise((r) => setTimeout(r, 40));
    const again = await claim(env.store, 'fresh', 2);
    expect(again).toHaveLength(2);
    await completeJobs(env.store, ids, 'slow', new Date());
    const after = await statuses(env.store);
    for (const job of again) expect(after.get(job.id)).toBe('pending');
    expect([...after.values()].filter((s) => s === 'done')).toHaveLength(2);
    await completeJobs(
      env.store,
      again.map((j) => j.id),
      'fresh',
      new Date(),
    );
    expect([...(await statuses(env.store)).values()]).toEqual(['done', 'done', 'done', 'done']);
  });

  it('runs a burst through the runner with every job done once, its completions written in batches', async () => {
    const ids = await enqueueJobs(
      env.store.db,
      Array.from({ length: 60 }, (_, i) => ({ spaceId: 'spc_x', kind: 'test', payload: { i } })),
    );
    const seen: string[] = [];
    const runner = new JobRunner(env.store, {
      handlers: new Map([['test', async (job) => void seen.push(job.id)]]),
      pollMs: 10,
      concurrency: 8,
    });
    runner.start();
    try {
      await expect
        .poll(async () => [...(await statuses(env.store)).values()].every((s) => s === 'done'), {
          timeout: 15_000,
        })
        .toBe(true);
    } finally {
      await runner.stop();
    }
    expect([...seen].sort()).toEqual([...ids].sort());
  });

  it('records sends in batches: new ones go out, ones recorded sent do not', async () => {
    const key = (id: string) => ({
      id,
      spaceId: 'spc_x',
      submissionId: 'sub_1',
      channel: 'email' as const,
      messageId: `${id}@x`,
    });
    expect(await beginSends(env.store.db, [key('a'), key('b'), key('c')], new Date())).toEqual([
      'send',
      'send',
      'send',
    ]);
    await markSent(env.store.db, ['a', 'c'], new Date());
    // `b` was left `sending` (its attempt died): it goes again; `a` and `c` were accepted.
    expect(await beginSends(env.store.db, [key('a'), key('b'), key('c'), key('d')], new Date())).toEqual([
      'sent',
      'send',
      'sent',
      'send',
    ]);
  });
});

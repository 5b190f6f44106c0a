import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Kv, MemoryKv, RedisKv } from '../src/kv/kv.js';
import { FormLimits } from '../src/forms/submission/rate-limits.js';
import { randomBase62 } from '../src/lib/ids.js';
import { buildApp } from '../src/server/app.js';
import { ENGINES } from './helpers/engines.js';
import { TOKENS } from './helpers/fixture.js';
import { emailForm } from './helpers/form-defs.js';
import { type FormsApp, openFormsApp, putForms } from './helpers/forms.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const auth = { authorization: `Bearer ${TOKENS.public}`, 'content-type': 'application/json' };

// One contract, two implementations (STYLE rule 3). Redis keys get a random prefix per run.
describe.each(['memory', 'redis'] as const)('the forms Kv on %s', (kind) => {
  let kv: Kv;
  beforeAll(() => {
    kv =
      kind === 'memory'
        ? new MemoryKv()
        : new RedisKv(new Redis(REDIS_URL, { maxRetriesPerRequest: 1 }), `folio:test:${randomBase62(10)}:`);
  });
  afterAll(async () => kv.close());

  it('counts hits in a window and reports the time left', async () => {
    const a = await kv.hit('w1', 60_000);
    const b = await kv.hit('w1', 60_000);
    const other = await kv.hit('w2', 60_000);
    expect([a.count, b.count, other.count]).toEqual([1, 2, 1]);
    expect(b.resetMs).toBeGreaterThan(0);
    expect(b.resetMs).toBeLessThanOrEqual(60_000);
  });

  it('sets a key once until it expires', async () => {
    expect(await kv.setOnce('once', 300_000)).toBe(true);
    expect(await kv.setOnce('once', 300_000)).toBe(false);
    expect(await kv.setOnce('other', 300_000)).toBe(true);
  });

  it('sets many keys at once exactly once each', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => kv.setOnce('race', 300_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });
});

describe('the memory Kv', () => {
  it('starts a new window once the old one has passed, ', async () => {
    let now = 1_000_000;
    const kv = new MemoryKv(() => now);
    await kv.hit('w', 1000);
    expect((await kv.hit('w', 1000)).count).toBe(2);
    now += 1000;
    expect((await kv.hit('w', 1000)).count).toBe(1);
    await kv.close();
  });
});

describe.each(ENGINES)('submission rate limits on %s (spec 8)', (engine) => {
  let t: FormsApp;
  beforeAll(async () => {
    t = await openFormsApp(engine, { rateLimitVisitorPerMinute: 3, rateLimitFormPerMinute: 5 });
    await putForms(t, 'spc_test', [emailForm('a'), emailForm('b')]);
  });
  afterAll(async () => t.close());

  const submit = (app: FastifyInstance, form: string, ip: string, email = 'x@example.com', headers = {}) =>
    app.inject({
      method: 'POST',
      url: `/v1/spc_test/forms/${form}/submissions`,
      payload: JSON.stringify({ email }),
      remoteAddress: ip,
      headers: { ...auth, ...headers },
    });

  it('limits a visitor to its submissions per minute, counting rejected ones too', async () => {
    expect((await submit(t.app, 'a', '198.51.100.1')).statusCode).toBe(200);
    expect((await submit(t.app, 'a', '198.51.100.1', 'invalid')).statusCode).toBe(422);
    expect((await submit(t.app, 'b', '198.51.100.1')).statusCode).toBe(200);
    const limited = await submit(t.app, 'b', '198.51.100.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('rate_limited');
    const retry = Number(limited.headers['retry-after']);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
  });

  it('limits a form across visitors', async () => {
    // Form a has 2 hits from the visitor above; 3 more visitors fill its 5 per minute.
    for (const ip of ['198.51.100.2', '198.51.100.3', '198.51.100.4'])
      expect((await submit(t.app, 'a', ip)).statusCode).toBe(200);
    const limited = await submit(t.app, 'a', '198.51.100.5');
    expect([limited.statusCode, limited.json().error.code]).toEqual([429, 'rate_limited']);
    // The same new visitor can still use another form.
    expect((await submit(t.app, 'b', '198.51.100.5')).statusCode).toBe(200);
  });
});

describe('rate limits shared through Redis by two instances', () => {
  let t: FormsApp;
  let second: FastifyInstance;
  beforeAll(async () => {
    t = await openFormsApp('sqlite', {
      rateLimitVisitorPerMinute: 3,
      rateLimitFormPerMinute: 1000,
      redisUrl: REDIS_URL,
      trustProxy: 1,
    });
    await putForms(t, 'spc_test', [emailForm('a')]);
    second = await buildApp({ config: t.config, store: t.store, blobs: t.blobs });
  });
  afterAll(async () => {
    await second.close();
    await t.close();
  });

  it('counts a visitor on both instances, by the forwarded address behind a trusted proxy', async () => {
    // The Redis keys are HMACs under this store's master key: parallel test runs never share counters.
    const visitor = { 'x-forwarded-for': '192.0.2.10' };
    const other = { 'x-forwarded-for': '192.0.2.11' };
    const post = (app: FastifyInstance, headers: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: '/v1/spc_test/forms/a/submissions',
        payload: JSON.stringify({ email: 'x@example.com' }),
        headers: { ...auth, ...headers },
      });
    expect((await post(t.app, visitor)).statusCode).toBe(200);
    expect((await post(second, visitor)).statusCode).toBe(200);
    expect((await post(t.app, visitor)).statusCode).toBe(200);
    expect((await post(second, visitor)).statusCode).toBe(429);
    expect((await post(second, other)).statusCode).toBe(200);
  });
});

/** A shared Kv that can be switched off, counting the calls that reach it. */
class SwitchableKv implements Kv {
  down = true;
  calls = 0;
  private readonly inner: MemoryKv;
  constructor(now: () => number) {
    this.inner = new MemoryKv(now);
  }
  async hit(key: string, windowMs: number) {
    this.calls += 1;
    if (this.down) throw new Error('connect ECONNREFUSED');
    return this.inner.hit(key, windowMs);
  }
  async setOnce(key: string, ttlMs: number) {
    return this.inner.setOnce(key, ttlMs);
  }
  async close() {
    await this.inner.close();
  }
}

// spec 8: the limits hold while Redis is down; they count per instance until it answers again.
describe('form limits while Redis is unreachable', () => {
  const hashKey = Buffer.alloc(32, 7);

  it('count per instance over a RedisKv on a closed port, with one log line', async () => {
    // Nothing listens on port 1; no reconnection, no offline queue: every command fails at once.
    const redis = new Redis('redis://127.0.0.1:1', {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 200,
      commandTimeout: 200,
      retryStrategy: () => null,
    });
    redis.on('error', () => {});
    const errors: unknown[] = [];
    const limits = new FormLimits(new RedisKv(redis), { perVisitor: 3, perForm: 100 }, hashKey, (err) =>
      errors.push(err),
    );
    try {
      const outcomes = [];
      for (let i = 0; i < 4; i++) outcomes.push(await limits.visitor('spc_test', 'visitor-1'));
      expect(outcomes.map((o) => o.ok)).toEqual([true, true, true, false]);
      const limited = outcomes[3];
      if (limited?.ok !== false) throw new Error('expected the fourth hit to be limited');
      expect(limited.limit).toBe(3);
      expect(limited.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(limited.retryAfterSeconds).toBeLessThanOrEqual(60);
      expect((await limits.visitor('spc_test', 'visitor-2')).ok).toBe(true);
      expect((await limits.form('spc_test', 'a')).ok).toBe(true);
      expect(errors).toHaveLength(1);
    } finally {
      redis.disconnect();
    }
  });

  it('retry Redis once per interval, log at most once a minute, and share counting again when it answers', async () => {
    let now = 1_000_000;
    const kv = new SwitchableKv(() => now);
    const errors: unknown[] = [];
    const limits = new FormLimits(kv, { perVisitor: 2, perForm: 100 }, hashKey, (err) => errors.push(err), {
      now: () => now,
      retryMs: 5_000,
      logEveryMs: 60_000,
    });
    const visit = async () => (await limits.visitor('spc_test', 'v')).ok;

    // The first failure is logged; the requests after it do not wait on Redis.
    expect([await visit(), await visit(), await visit()]).toEqual([true, true, false]);
    expect([kv.calls, errors.length]).toEqual([1, 1]);
    // After retryMs one request tries Redis again: still down, still counted locally, not logged again.
    now += 5_000;
    expect(await visit()).toBe(false);
    expect([kv.calls, errors.length]).toEqual([2, 1]);
    // A minute later the local window has restarted and the outage is logged again.
    now += 60_000;
    expect(await visit()).toBe(true);
    expect([kv.calls, errors.length]).toEqual([3, 2]);
    // Redis is back: after retryMs counting is shared again, from Redis's own window.
    kv.down = false;
    now += 5_000;
    expect([await visit(), await visit(), await visit()]).toEqual([true, true, false]);
    expect([kv.calls, errors.length]).toEqual([6, 2]);
  });

  describe('through the app with REDIS_URL unreachable', () => {
    let t: FormsApp;
    beforeAll(async () => {
      t = await openFormsApp('sqlite', { rateLimitVisitorPerMinute: 10, redisUrl: 'redis://127.0.0.1:1' });
      await putForms(t, 'spc_test', [emailForm('a')]);
    });
    afterAll(async () => t.close());

    const post = (ip: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/spc_test/forms/a/submissions',
        payload: JSON.stringify({ email: 'x@example.com' }),
        remoteAddress: ip,
        headers: auth,
      });

    it('still answers 429 on the 11th submission of a visitor', async () => {
      for (let i = 0; i < 10; i++) expect((await post('198.51.100.20')).statusCode).toBe(200);
      const limited = await post('198.51.100.20');
      expect([limited.statusCode, limited.json().error.code]).toEqual([429, 'rate_limited']);
      expect((await post('198.51.100.21')).statusCode).toBe(200);
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from './helpers/engines.js';
import {
  buildEdgeApp,
  clearRedisPrefix,
  type EdgeTestApp,
  get,
  openEdgeTestApp,
  REDIS_URL,
  uniquePrefix,
} from './helpers/edge.js';
import { TOKENS } from './helpers/fixture.js';

const base = '/v1/spc_test';
const pub = { authorization: `Bearer ${TOKENS.public}` };
const LIMIT = 5;

// The limiter's contract on both counters (STYLE.md rule 3), each on one engine: memory on SQLite (the
// embedded default), Redis on PostgreSQL (scaled out).
const CASES: [Engine, 'memory' | 'redis'][] = [
  ['sqlite', 'memory'],
  ['postgres', 'redis'],
];

describe.each(CASES)('per-token rate limit on %s with %s counters (spec 5, 8)', (engine, counters) => {
  const prefix = uniquePrefix();
  const config = {
    rateLimitPerMinute: LIMIT,
    ...(counters === 'redis' ? { redisUrl: REDIS_URL, redisPrefix: prefix } : {}),
  };
  let t: EdgeTestApp;
  beforeAll(async () => {
    t = await openEdgeTestApp(engine, config);
  });
  afterAll(async () => {
    await t.close();
    await clearRedisPrefix(prefix);
  });

  it('counts every request, cache hits included, and answers the one over the limit 429 rate_limited', async () => {
    const url = `${base}/entries/by-path/about`;
    const layers: unknown[] = [];
    for (let i = 1; i <= LIMIT; i++) {
      const r = await get(t.app, url, pub);
      expect(r.status).toBe(200);
      expect(r.headers['ratelimit-limit']).toBe(String(LIMIT));
      expect(r.headers['ratelimit-remaining']).toBe(String(LIMIT - i));
      expect(Number(r.headers['ratelimit-reset'])).toBeGreaterThan(0);
      expect(Number(r.headers['ratelimit-reset'])).toBeLessThanOrEqual(60);
      layers.push(r.headers['x-svc-cache']);
    }
    expect(layers.slice(1).every((l) => l === 'HIT-L1')).toBe(true);
    const over = await get(t.app, url, pub);
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('rate_limited');
    expect(over.headers['ratelimit-remaining']).toBe('0');
    const retry = Number(over.headers['retry-after']);
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    expect(over.headers['cache-control']).toBe('no-store');
    // Other routes share the token's budget.
    expect((await get(t.app, `${base}/entries/ent_home`, pub)).status).toBe(429);
  });

  it('keeps one budget per token', async () => {
    const other = { authorization: `Bearer ${TOKENS.publicOrigins}` };
    const r = await get(t.app, `${base}/entries/by-path/about`, other);
    expect(r.status).toBe(200);
    expect(r.headers['ratelimit-remaining']).toBe(String(LIMIT - 1));
  });

  it('does not count requests that fail authentication', async () => {
    const bad = await get(t.app, `${base}/entries/by-path/about`, { authorization: 'Bearer folio_pub_nope' });
    expect(bad.status).toBe(401);
    expect(bad.headers['ratelimit-limit']).toBeUndefined();
  });

  it('reports rejections in /metrics', async () => {
    const text = (await get(t.app, '/metrics')).raw;
    expect(text).toMatch(/folio_rate_limit_rejections_total\{scope="token"\} [1-9]/);
    expect(text).toMatch(
      /folio_http_requests_total\{route="\/v1\/:spaceId\/entries\/by-path\/\*",method="GET",status="429"\} 1/,
    );
  });

  if (counters === 'redis') {
    it('shares the counters between instances through Redis', async () => {
      const second = await buildEdgeApp(t.env, config);
      try {
        const r = await get(second, `${base}/entries/by-path/about`, pub);
        expect(r.status).toBe(429);
        const prv = { authorization: `Bearer ${TOKENS.preview}` };
        expect((await get(second, `${base}/entries/ent_home`, prv)).headers['ratelimit-remaining']).toBe(
          String(LIMIT - 1),
        );
        expect((await get(t.app, `${base}/entries/ent_home`, prv)).headers['ratelimit-remaining']).toBe(
          String(LIMIT - 2),
        );
      } finally {
        await second.close();
      }
    });
  }
});

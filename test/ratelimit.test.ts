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
import { SITE_ORIGIN, TOKENS } from './helpers/fixture.js';
import { READ_PATHS } from './helpers/over-http.js';

const base = '/v1/spc_test';
const pub = { authorization: `Bearer ${TOKENS.public}` };
const LIMIT = 5;

// The limiter's contract on both counters (STYLE.md rule 3), each on one engine: memory on SQLite (the
// embedded default), Redis on PostgreSQL (scaled out).
const CASES: [Engine, 'memory' | 'redis'][] = [
  ['sqlite', 'memory'],
  ['postgres', 'redis'],
];

// Hits answered before Fastify (fast hits, over HTTP) count as hits through its pipeline do.
const RUNS = CASES.flatMap(([engine, counters]) =>
  READ_PATHS.map((path) => ({ engine, counters, path, way: path.name })),
);

describe.each(RUNS)(
  'per-token rate limit on $engine with $counters counters, $way (spec 5, 8)',
  ({ engine, counters, path }) => {
    const prefix = uniquePrefix();
    const config = {
      rateLimitPerMinute: LIMIT,
      ...(counters === 'redis' ? { redisUrl: REDIS_URL, redisPrefix: prefix } : {}),
    };
    let t: EdgeTestApp;
    beforeAll(async () => {
      t = await openEdgeTestApp(engine, config, path);
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
        // A cacheable answer carries no budget: a shared cache would replay one client's to every other.
        expect(r.headers['ratelimit-remaining']).toBeUndefined();
        layers.push(r.headers['x-svc-cache']);
      }
      expect(layers.slice(1).every((l) => l === 'HIT-L1')).toBe(true);
      // Every hit within the limit was the front door's when it is on and counts are in memory; with Redis counts
      // the pipeline answers (the count is handed to it, so nothing counts twice).
      expect(t.app.folioEdge.front.answered).toBe(path.fastHits && counters === 'memory' ? LIMIT - 1 : 0);
      const over = await get(t.app, url, pub);
      expect(over.status).toBe(429);
      expect(over.body.error.code).toBe('rate_limited');
      expect(over.headers['ratelimit-limit']).toBe(String(LIMIT));
      expect(over.headers['ratelimit-remaining']).toBe('0');
      expect(Number(over.headers['ratelimit-reset'])).toBeGreaterThan(0);
      expect(Number(over.headers['ratelimit-reset'])).toBeLessThanOrEqual(60);
      const retry = Number(over.headers['retry-after']);
      expect(retry).toBeGreaterThan(0);
      expect(retry).toBeLessThanOrEqual(60);
      expect(over.headers['cache-control']).toBe('no-store');
      // Other routes share the token's budget.
      expect((await get(t.app, `${base}/entries/ent_home`, pub)).status).toBe(429);
    });

    it('keeps one budget per token, and tells it on answers no cache keeps', async () => {
      const other = { authorization: `Bearer ${TOKENS.publicOrigins}` };
      expect((await get(t.app, `${base}/entries/by-path/about`, other)).status).toBe(200);
      // A preview (private, never stored) carries its token's budget.
      const prv = { authorization: `Bearer ${TOKENS.preview}` };
      const draft = await get(t.app, `${base}/entries/by-path/about?draft=1`, prv);
      expect(draft.status).toBe(200);
      expect([draft.headers['ratelimit-limit'], draft.headers['ratelimit-remaining']]).toEqual([
        String(LIMIT),
        String(LIMIT - 1),
      ]);
    });

    it('does not count requests that fail authentication', async () => {
      const bad = await get(t.app, `${base}/entries/by-path/about`, {
        authorization: 'Bearer folio_pub_nope',
      });
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
        const second = await buildEdgeApp(t.env, config, path);
        try {
          const r = await get(second, `${base}/entries/by-path/about`, pub);
          expect(r.status).toBe(429);
          const prv = { authorization: `Bearer ${TOKENS.preview}` };
          const draft = `${base}/entries/ent_home?draft=1`;
          expect((await get(second, draft, prv)).headers['ratelimit-remaining']).toBe(String(LIMIT - 2));
          expect((await get(t.app, draft, prv)).headers['ratelimit-remaining']).toBe(String(LIMIT - 3));
        } finally {
          await second.close();
        }
      });
    }
  },
);

// A token with origins is published in a site's pages; each visitor gets a share of it.
describe.each(CASES)(
  "each visitor's share of a token with origins on %s with %s counters",
  (engine, counters) => {
    const prefix = uniquePrefix();
    const TOKEN_LIMIT = 6;
    const SHARE = 2;
    const config = {
      rateLimitPerMinute: TOKEN_LIMIT,
      rateLimitVisitorSharePerMinute: SHARE,
      ...(counters === 'redis' ? { redisUrl: REDIS_URL, redisPrefix: prefix } : {}),
    };
    const url = `${base}/entries/by-path/about`;
    const fromVisitor = async (address: string, token: string, headers: Record<string, string> = {}) => {
      const res = await t.app.inject({
        method: 'GET',
        url,
        remoteAddress: address,
        headers: { authorization: `Bearer ${token}`, ...headers },
      });
      return { status: res.statusCode, headers: res.headers, body: res.json() };
    };
    let t: EdgeTestApp;
    beforeAll(async () => {
      t = await openEdgeTestApp(engine, config);
    });
    afterAll(async () => {
      await t.close();
      await clearRedisPrefix(prefix);
    });

    it("refuses a client past its share without spending the token's budget; other visitors still get 200", async () => {
      // A script without Origin (nothing refuses it: no Origin is how servers call) copies the site's token.
      const first = await fromVisitor('203.0.113.1', TOKENS.publicOrigins);
      expect(first.status).toBe(200);
      expect((await fromVisitor('203.0.113.1', TOKENS.publicOrigins)).status).toBe(200);
      for (let i = 0; i < 10; i++) {
        const over = await fromVisitor('203.0.113.1', TOKENS.publicOrigins);
        expect(over.status).toBe(429);
        expect(over.body.error.code).toBe('rate_limited');
        expect(over.headers['ratelimit-limit']).toBe(String(SHARE));
        expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      }
      // The ten refused requests did not count against the token: two more visitors get their whole shares.
      for (const visitor of ['203.0.113.2', '203.0.113.3'])
        for (let i = 0; i < SHARE; i++) {
          const r = await fromVisitor(visitor, TOKENS.publicOrigins, { origin: SITE_ORIGIN });
          expect(r.status, `${visitor} #${i + 1}`).toBe(200);
        }
      // The token's own limit (spec 8) still holds over all of them: 6 spent, the next visitor's first is refused.
      const spent = await fromVisitor('203.0.113.4', TOKENS.publicOrigins, { origin: SITE_ORIGIN });
      expect(spent.status).toBe(429);
      expect(spent.headers['ratelimit-limit']).toBe(String(TOKEN_LIMIT));
      expect(spent.headers['ratelimit-remaining']).toBe('0');
    });

    it('leaves a token without origins (server-side rendering from one address) with its own limit alone', async () => {
      for (let i = 1; i <= TOKEN_LIMIT; i++)
        expect((await fromVisitor('198.51.100.1', TOKENS.public)).status).toBe(200);
      const over = await fromVisitor('198.51.100.1', TOKENS.public);
      expect(over.status).toBe(429);
      expect(over.headers['ratelimit-limit']).toBe(String(TOKEN_LIMIT));
    });
  },
);

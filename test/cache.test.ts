import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishEntries, saveDraft } from '../src/content/publish-entries.js';
import { ENGINES } from './helpers/engines.js';
import {
  buildEdgeApp,
  clearRedisPrefix,
  type EdgeTestApp,
  get,
  openEdgeTestApp,
  REDIS_URL,
  redisKeys,
  uniquePrefix,
} from './helpers/edge.js';
import { SITE_ORIGIN, TOKENS } from './helpers/fixture.js';
import { READ_PATHS } from './helpers/over-http.js';

const base = '/v1/spc_test';
const pub = { authorization: `Bearer ${TOKENS.public}` };
const prv = { authorization: `Bearer ${TOKENS.preview}` };

// Each engine, each way a hit is answered: before Fastify (fast hits, over HTTP) and through its pipeline.
const RUNS = ENGINES.flatMap((engine) => READ_PATHS.map((path) => ({ engine, path, way: path.name })));

describe.each(RUNS)('the response cache on $engine, $way (spec 1.2, 8)', ({ engine, path }) => {
  const prefix = uniquePrefix();
  let t: EdgeTestApp;
  let app: FastifyInstance;
  beforeAll(async () => {
    t = await openEdgeTestApp(engine, { redisUrl: REDIS_URL, redisPrefix: prefix }, path);
    app = t.app;
  });
  afterAll(async () => {
    await t.close();
    await clearRedisPrefix(prefix);
  });

  it('answers MISS, then HIT-L1 with the same bytes, headers and ETag', async () => {
    const url = `${base}/entries/by-path/about`;
    const first = await get(app, url, pub);
    expect(first.status).toBe(200);
    expect(first.headers['x-svc-cache']).toBe('MISS');
    const second = await get(app, url, pub);
    expect(second.headers['x-svc-cache']).toBe('HIT-L1');
    expect(second.raw).toBe(first.raw);
    expect(second.headers.etag).toMatch(/^"[\w-]{27}"$/);
    expect(second.headers.etag).toBe(first.headers.etag);
    for (const h of ['content-type', 'cache-control', 'x-folio-cv'])
      expect(second.headers[h]).toBe(first.headers[h]);
    expect(second.headers['cache-control']).toBe('public, max-age=10, stale-while-revalidate=60');
    // HEAD is answered from the cache too, with the same headers and ETag and no body (test/edges.test.ts).
    const head = await app.inject({ method: 'HEAD', url, headers: pub });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['x-folio-cv']).toBe(first.headers['x-folio-cv']);
    expect([head.headers['x-svc-cache'], head.headers.etag]).toEqual(['HIT-L1', first.headers.etag]);
    // Rate limits counted in Redis (as here) leave every request to Fastify's pipeline, fast hits on or off.
    expect(app.folioEdge.front.answered).toBe(0);
  });

  it('falls back to L2 (Redis) when L1 lost the entry, and refills L1 from it', async () => {
    const url = `${base}/entries/ent_post?locale=de`;
    const miss = await get(app, url, pub);
    expect(miss.headers['x-svc-cache']).toBe('MISS');
    await expect.poll(() => redisKeys(prefix)).toBeGreaterThan(0);
    app.folioEdge.cache.clearL1();
    const l2 = await get(app, url, pub);
    expect(l2.headers['x-svc-cache']).toBe('HIT-L2');
    expect(l2.raw).toBe(miss.raw);
    expect(l2.headers.etag).toBe(miss.headers.etag);
    expect((await get(app, url, pub)).headers['x-svc-cache']).toBe('HIT-L1');
    // Another instance on the same Redis answers from L2 without rendering.
    const other = await buildEdgeApp(t.env, { redisUrl: REDIS_URL, redisPrefix: prefix }, path);
    try {
      const fromOther = await get(other, url, pub);
      expect(fromOther.headers['x-svc-cache']).toBe('HIT-L2');
      expect(fromOther.raw).toBe(miss.raw);
    } finally {
      await other.close();
    }
  });

  it('never shares L2 with another installation on the same Redis and prefix', async () => {
    const url = `${base}/entries/by-path/about`;
    await get(app, url, pub);
    const stranger = await openEdgeTestApp(engine, { redisUrl: REDIS_URL, redisPrefix: prefix }, path);
    try {
      // Same space id, same cv, same URL, another store: its own render, never this one's bytes.
      expect((await get(stranger.app, url, pub)).headers['x-svc-cache']).toBe('MISS');
    } finally {
      await stranger.close();
    }
  });

  it('keys on the canonical query: order, the token parameter and default values do not matter', async () => {
    const first = await get(app, `${base}/entries/ent_home?include=author&locale=en`, pub);
    expect(first.headers['x-svc-cache']).toBe('MISS');
    for (const url of [
      `${base}/entries/ent_home?locale=en&include=author`,
      `${base}/entries/ent_home?include=author`,
      `${base}/entries/ent_home?include=author&token=${TOKENS.public}`,
      `${base}/entries/ent_home?include=author&draft=0`,
    ]) {
      const r = await get(app, url, url.includes('token=') ? {} : pub);
      expect(r.headers['x-svc-cache'], url).toBe('HIT-L1');
      expect(r.raw).toBe(first.raw);
    }
    const otherLocale = await get(app, `${base}/entries/ent_home?include=author&locale=de`, pub);
    expect(otherLocale.headers['x-svc-cache']).toBe('MISS');
    expect(otherLocale.body.entry.locale).toBe('de');
  });

  it('answers 304 to If-None-Match, from the cache and on a miss', async () => {
    const url = `${base}/entries/ent_about`;
    const first = await get(app, url, pub);
    const etag = String(first.headers.etag);
    const hit = await get(app, url, { ...pub, 'if-none-match': etag });
    expect(hit.status).toBe(304);
    expect(hit.raw).toBe('');
    expect(hit.headers.etag).toBe(etag);
    expect(hit.headers['x-svc-cache']).toBe('HIT-L1');
    for (const header of [`W/${etag}`, `"nope", ${etag}`, '*'])
      expect((await get(app, url, { ...pub, 'if-none-match': header })).status, header).toBe(304);
    expect((await get(app, url, { ...pub, 'if-none-match': '"other"' })).status).toBe(200);
    // A client that kept the tag across an L1 loss still gets its 304 on the miss that renders again.
    app.folioEdge.cache.clearL1();
    await clearRedisPrefix(prefix);
    const miss = await get(app, url, { ...pub, 'if-none-match': etag });
    expect(miss.headers['x-svc-cache']).toBe('MISS');
    expect(miss.status).toBe(304);
  });

  it('never caches drafts or release previews', async () => {
    for (const q of ['draft=1', 'release=rel_next']) {
      const url = `${base}/entries/ent_home?${q}`;
      for (let i = 0; i < 2; i++) {
        const r = await get(app, url, prv);
        expect(r.status).toBe(200);
        expect(r.headers['x-svc-cache']).toBe('MISS');
        expect(r.headers['cache-control']).toBe('private, no-store');
        expect(r.headers.etag).toBeUndefined();
      }
    }
  });

  it('caches 404 not_found (with its redirect) but never errors that depend on the request', async () => {
    const url = `${base}/entries/by-path/does-not-exist`;
    expect((await get(app, url, pub)).headers['x-svc-cache']).toBe('MISS');
    const again = await get(app, url, pub);
    expect(again.status).toBe(404);
    expect(again.headers['x-svc-cache']).toBe('HIT-L1');
    expect(again.body.error.code).toBe('not_found');
    for (let i = 0; i < 2; i++) {
      const bad = await get(app, `${base}/entries/ent_home?nope=1`, pub);
      expect(bad.status).toBe(400);
      expect(bad.headers['x-svc-cache']).toBe('MISS');
    }
    // Auth runs before the cache: a cached URL still answers 401 without a valid token.
    const noToken = await get(app, `${base}/entries/by-path/about`);
    expect(noToken.status).toBe(401);
    expect(noToken.headers['x-svc-cache']).toBeUndefined();
  });

  it('sets CORS headers per request on hits: the origin is not part of the key', async () => {
    const url = `${base}/globals/footer`;
    await get(app, url, pub);
    const browser = await get(app, url, {
      authorization: `Bearer ${TOKENS.publicOrigins}`,
      origin: SITE_ORIGIN,
    });
    expect(browser.headers['x-svc-cache']).toBe('HIT-L1');
    expect(browser.headers['access-control-allow-origin']).toBe(SITE_ORIGIN);
    expect(browser.headers.vary).toBe('Origin, Authorization');
    const server = await get(app, url, pub);
    expect(server.headers['x-svc-cache']).toBe('HIT-L1');
    expect(server.headers['access-control-allow-origin']).toBeUndefined();
    const denied = await get(app, url, {
      authorization: `Bearer ${TOKENS.publicOrigins}`,
      origin: 'https://evil.example',
    });
    expect(denied.status).toBe(403);
  });

  it('a publish bumps cv: the next request is a MISS with new content; a pinned old cv answers the old bytes', async () => {
    const url = `${base}/entries/by-path/blog/hello`;
    const before = await get(app, url, pub);
    const oldCv = before.body.cv as number;
    expect((await get(app, url, pub)).headers['x-svc-cache']).toBe('HIT-L1');
    await saveDraft(t.env.store, 'spc_test', 'ent_post', { title: { en: 'Hello, cache' } });
    const newCv = await publishEntries(t.env.store, 'spc_test', ['ent_post']);
    expect(newCv).toBe(oldCv + 1);

    const after = await get(app, url, pub);
    expect(after.headers['x-svc-cache']).toBe('MISS');
    expect(after.body.cv).toBe(newCv);
    expect(after.body.entry.content.fields.title).toBe('Hello, cache');
    expect(after.headers['x-folio-cv']).toBe(String(newCv));
    expect((await get(app, url, pub)).headers['x-svc-cache']).toBe('HIT-L1');

    const pinnedUrl = `${url}?cv=${oldCv}`;
    const pinned = await get(app, pinnedUrl, pub);
    expect(pinned.raw).toBe(before.raw);
    expect(pinned.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const pinnedAgain = await get(app, pinnedUrl, pub);
    expect(pinnedAgain.headers['x-svc-cache']).toBe('HIT-L1');
    expect(pinnedAgain.raw).toBe(before.raw);
    expect(pinnedAgain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('counts lookups by layer in /metrics', async () => {
    const text = (await get(app, '/metrics')).raw;
    for (const result of ['hit_l1', 'hit_l2', 'miss', 'bypass']) {
      const m = new RegExp(`folio_cache_lookups_total\\{result="${result}"\\} (\\d+)`).exec(text);
      expect(Number(m?.[1]), result).toBeGreaterThan(0);
    }
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenCache } from '../src/auth/token-cache.js';
import { LocalDirBlobStore } from '../src/blobs/blob-store.js';
import { importBundle } from '../src/bundle/import-bundle.js';
import { randomBase62 } from '../src/lib/ids.js';
import { buildApp } from '../src/server/app.js';
import { loadConfig, type StoreConfig } from '../src/config/config.js';
import { openStore, type Store } from '../src/store/open-store.js';
import { DATABASE_URL } from './helpers/engines.js';
import { type EdgeTestApp, get, openEdgeTestApp, TcpProxy } from './helpers/edge.js';
import { fixtureBundle, fixtureDir, TOKENS } from './helpers/fixture.js';
import { dropSchema } from './helpers/engines.js';

const base = '/v1/spc_test';
const pub = { authorization: `Bearer ${TOKENS.public}` };

describe('operator endpoints', () => {
  let t: EdgeTestApp;
  beforeAll(async () => {
    t = await openEdgeTestApp('sqlite');
  });
  afterAll(async () => t.close());

  it('/healthz is live and /readyz ready when the store answers (Redis not configured)', async () => {
    expect((await get(t.app, '/healthz')).status).toBe(200);
    const ready = await get(t.app, '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ ready: true, checks: { store: 'up', redis: 'not configured' } });
  });

  it('/metrics exposes requests by route and status, latency, cache lookups, in the Prometheus format', async () => {
    await get(t.app, `${base}/entries/ent_home`, pub);
    await get(t.app, `${base}/entries/ent_home`, pub);
    const res = await get(t.app, '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const text = res.raw;
    expect(text).toContain(
      'folio_http_requests_total{route="/v1/:spaceId/entries/:id",method="GET",status="200"} 2',
    );
    expect(text).toContain('# TYPE folio_http_request_duration_seconds histogram');
    expect(text).toMatch(
      /folio_http_request_duration_seconds_bucket\{route="\/v1\/:spaceId\/entries\/:id",le="\+Inf"\} 2/,
    );
    expect(text).toMatch(
      /folio_http_request_duration_seconds_count\{route="\/v1\/:spaceId\/entries\/:id"\} 2/,
    );
    expect(text).toContain('folio_cache_lookups_total{result="hit_l1"} 1');
    expect(text).toContain('folio_process_cpu_seconds_total');
    expect(text).not.toContain('folio_redis_up');
  });
});

describe('Redis unreachable from the start', () => {
  let t: EdgeTestApp;
  beforeAll(async () => {
    // A port nothing listens on: Redis is configured but down.
    t = await openEdgeTestApp('sqlite', { redisUrl: 'redis://127.0.0.1:1', redisPrefix: 'never:' });
  });
  afterAll(async () => t.close());

  it('serves from L1 with local counters, stays ready saying Redis is down, and counts the skipped Redis calls', async () => {
    const url = `${base}/entries/by-path/about`;
    expect((await get(t.app, url, pub)).headers['x-svc-cache']).toBe('MISS');
    const hit = await get(t.app, url, pub);
    expect(hit.status).toBe(200);
    expect(hit.headers['x-svc-cache']).toBe('HIT-L1');
    // Counted locally (a cacheable answer carries no rate-limit headers: a shared cache would replay them).
    expect(hit.headers['ratelimit-remaining']).toBeUndefined();
    const ready = await get(t.app, '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toEqual({ store: 'up', redis: 'down' });
    const text = (await get(t.app, '/metrics')).raw;
    expect(text).toContain('folio_redis_up 0');
    expect(text).toMatch(/folio_redis_errors_total\{op="rate_limit"\} [1-9]/);
  });
});

describe('the store down (PostgreSQL behind a proxy that is cut)', () => {
  const schema = `t_${randomBase62(12).toLowerCase()}`;
  const proxy = new TcpProxy('127.0.0.1', Number(new URL(DATABASE_URL).port || 5432));
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-health-'));
  let store: Store;
  let app: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    const port = await proxy.start();
    const url = new URL(DATABASE_URL);
    url.port = String(port);
    const storeConfig: StoreConfig = { engine: 'postgres', url: url.toString(), schema };
    store = await openStore(storeConfig);
    const blobs = new LocalDirBlobStore(join(dataDir, 'blobs'));
    await importBundle(store, blobs, fixtureBundle(), { baseDir: await fixtureDir() });
    const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), store: storeConfig };
    app = await buildApp({ config, store, blobs });
  });
  afterAll(async () => {
    await proxy.restore();
    await app.close();
    await store.close();
    await proxy.cut();
    await dropSchema(schema);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves cache hits, answers misses 503 unavailable, and recovers without a restart', async () => {
    const cached = `${base}/entries/by-path/about`;
    await get(app, cached, pub);
    expect((await get(app, cached, pub)).headers['x-svc-cache']).toBe('HIT-L1');

    await proxy.cut();
    const hit = await get(app, cached, pub);
    expect(hit.status).toBe(200);
    expect(hit.headers['x-svc-cache']).toBe('HIT-L1');
    const miss = await get(app, `${base}/entries/ent_home`, pub);
    expect(miss.status).toBe(503);
    expect(miss.body).toEqual({ error: { code: 'unavailable', message: expect.any(String) } });
    expect(miss.headers['cache-control']).toBe('no-store');
    const ready = await get(app, '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.checks.store).toBe('down');

    await proxy.restore();
    await expect.poll(async () => (await get(app, `${base}/entries/ent_home`, pub)).status).toBe(200);
    expect((await get(app, `${base}/entries/ent_home`, pub)).headers['x-svc-cache']).toBe('HIT-L1');
    expect((await get(app, '/readyz')).status).toBe(200);
  });

  it('keeps authenticating a token seen before while the store is down', async () => {
    const tokens = new TokenCache(store, 1);
    expect((await tokens.find(TOKENS.public))?.spaceId).toBe('spc_test');
    await proxy.cut();
    try {
      await new Promise((r) => setTimeout(r, 5));
      expect((await tokens.find(TOKENS.public))?.spaceId).toBe('spc_test');
      await expect(tokens.find(TOKENS.preview)).rejects.toThrow();
    } finally {
      await proxy.restore();
    }
  });
});

describe('the store down (SQLite closed under the app)', () => {
  let t: EdgeTestApp;
  beforeAll(async () => {
    t = await openEdgeTestApp('sqlite');
  });
  afterAll(async () => t.close());

  it('serves cache hits and answers misses 503 unavailable', async () => {
    const cached = `${base}/globals/footer`;
    await get(t.app, cached, pub);
    await t.env.store.close();
    const hit = await get(t.app, cached, pub);
    expect(hit.status).toBe(200);
    expect(hit.headers['x-svc-cache']).toBe('HIT-L1');
    const miss = await get(t.app, `${base}/entries/ent_home`, pub);
    expect(miss.status).toBe(503);
    expect(miss.body.error.code).toBe('unavailable');
  });
});

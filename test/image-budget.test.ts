// What an anonymous visitor can make the server derive and keep. `q` snaps to a few steps; the
// blob store keeps derived images within a number per asset and a byte budget, least recently used going first;
// new derivations are limited per visitor (hits stay free); the variants of deleted assets are swept. On both
// engines, the counters in memory and in Redis, the files in a directory and in S3.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlobStore } from '../src/blobs/blob-store.js';
import { importBundle } from '../src/bundle/import-bundle.js';
import type { Config } from '../src/config/config.js';
import { createJobRunner } from '../src/wiring/jobs.js';
import { buildApp } from '../src/server/app.js';
import { BLOB_KINDS, openTestBlobs, type TestBlobs } from './helpers/blobs.js';
import { clearRedisPrefix, REDIS_URL, uniquePrefix } from './helpers/edge.js';
import { type Engine, ENGINES, openTestEnv, type TestEnv } from './helpers/engines.js';
import { expectEnvelope } from './helpers/envelope.js';
import { tempDir } from './helpers/temp-dirs.js';

const SPACE = 'spc_budget';
const ASSETS = ['ast_q', 'ast_lru', 'ast_bytes', 'ast_limit', 'ast_gone', 'ast_kept'] as const;

async function bundleDir(): Promise<string> {
  const dir = tempDir('folio-image-budget-');
  const photo = await sharp({
    create: {
      width: 800,
      height: 600,
      channels: 3,
      background: '#507090',
      noise: { type: 'gaussian', mean: 0, sigma: 20 },
    },
  })
    .jpeg({ quality: 90 })
    .toBuffer();
  writeFileSync(join(dir, 'photo.jpg'), photo);
  return dir;
}

const bundle = (assets: readonly string[] = ASSETS) => ({
  format: 'folio-bundle@1',
  space: { id: SPACE, name: 'Image budget', locales: [{ code: 'en', default: true }] },
  tokens: [],
  types: [],
  assets: assets.map((id) => ({ id, file: 'photo.jpg' })),
  entries: [],
});

type Images = Config['images'];
const LOOSE: Images = { cacheMaxBytes: 1024 * 1024 * 1024, variantsPerAsset: 1000, derivationsPerMinute: 0 };

interface Setup {
  env: TestEnv;
  blobs: BlobStore;
  dir: string;
  app(images?: Partial<Images>, config?: Partial<Config>): Promise<FastifyInstance>;
  close(): Promise<void>;
}

/** A store with the space imported, files in `blobs` (the environment's directory unless given). */
async function setup(engine: Engine, kind?: TestBlobs): Promise<Setup> {
  const env = await openTestEnv(engine);
  const blobs = kind?.blobs ?? env.blobs;
  const dir = await bundleDir();
  await importBundle(env.store, blobs, bundle(), { baseDir: dir });
  const apps: FastifyInstance[] = [];
  return {
    env,
    blobs,
    dir,
    async app(images = {}, config = {}) {
      const app = await buildApp({
        ...env,
        blobs,
        config: { ...env.config, worker: false, ...config, images: { ...LOOSE, ...images } },
      });
      apps.push(app);
      return app;
    },
    async close() {
      for (const app of apps) await app.close();
      await kind?.close();
      await env.close();
    },
  };
}

async function image(app: FastifyInstance, asset: string, query: string, visitor = '203.0.113.1') {
  const res = await app.inject({
    method: 'GET',
    url: `/v1/${SPACE}/assets/${asset}/photo.jpg?${query}`,
    remoteAddress: visitor,
    headers: { accept: 'image/webp' },
  });
  return { status: res.statusCode, headers: res.headers, text: res.body, etag: res.headers.etag };
}

/** The variants the store records for an asset (all assets without one), by key. */
async function stored(s: Setup, asset?: string): Promise<{ key: string; size: number }[]> {
  let q = s.env.store.db.selectFrom('derived_images').select(['blob_key', 'size']).orderBy('blob_key');
  if (asset !== undefined) q = q.where('asset_id', '=', asset);
  return (await q.execute()).map((r) => ({ key: r.blob_key, size: Number(r.size) }));
}

/** Whether the blob store holds a file under `key` (read and released). */
async function exists(blobs: BlobStore, key: string): Promise<boolean> {
  const blob = await blobs.get(key);
  blob?.stream.destroy();
  return blob !== null;
}

describe.each(ENGINES)('derived images in the blob store on %s', (engine) => {
  let s: Setup;
  beforeAll(async () => {
    s = await setup(engine);
  });
  afterAll(async () => s.close());

  it('snaps q to a few steps: q=61 and q=62 are one variant and one file', async () => {
    const app = await s.app();
    const a = await image(app, 'ast_q', 'w=320&q=61');
    const b = await image(app, 'ast_q', 'w=320&q=62');
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.etag).toBe(a.etag);
    // PNG is lossless: q makes no variant of its own there.
    expect((await image(app, 'ast_q', 'w=320&fm=png&q=30')).etag).toBe(
      (await image(app, 'ast_q', 'w=320&fm=png&q=90')).etag,
    );
    expect((await stored(s, 'ast_q')).length).toBe(2);
  });

  it('keeps IMAGE_VARIANTS_PER_ASSET per asset, evicting the least recently used, files included', async () => {
    const first = await s.app({ variantsPerAsset: 2 });
    await image(first, 'ast_lru', 'w=160');
    const older = await stored(s, 'ast_lru');
    await image(first, 'ast_lru', 'w=320');
    const both = await stored(s, 'ast_lru');
    expect(both.length).toBe(2);
    const w320 = both.find((v) => !older.some((o) => o.key === v.key))?.key ?? '';
    // w=160 is used again (a memory hit: free, its use written with the next flush, here the app's close).
    expect((await image(first, 'ast_lru', 'w=160')).status).toBe(200);
    await first.close();
    // Another instance makes a third: the asset keeps two, and w=320, the least recently used, goes.
    const second = await s.app({ variantsPerAsset: 2 });
    expect((await image(second, 'ast_lru', 'w=480')).status).toBe(200);
    const kept = await stored(s, 'ast_lru');
    expect(kept.length).toBe(2);
    expect(kept.map((v) => v.key)).toContain(older[0]?.key);
    expect(kept.map((v) => v.key)).not.toContain(w320);
    expect(await exists(s.blobs, w320)).toBe(false);
    for (const v of kept) expect(await exists(s.blobs, v.key)).toBe(true);
    // An evicted variant is made again when asked for (and another goes).
    expect((await image(second, 'ast_lru', 'w=320')).status).toBe(200);
    expect((await stored(s, 'ast_lru')).length).toBe(2);
  });

  it('holds IMAGE_CACHE_MAX_MB: what every derived image takes never exceeds the budget', async () => {
    // 18 variants of 0.1 to 12 KB (about 31 KB together) against a budget of 15 KB.
    const budget = 15_000;
    const app = await s.app({ cacheMaxBytes: budget });
    const queries = [160, 320, 480].flatMap((w) =>
      ['webp', 'jpeg'].flatMap((fm) => [25, 50, 75].map((q) => `w=${w}&fm=${fm}&q=${q}`)),
    );
    for (const q of queries) {
      expect((await image(app, 'ast_bytes', q)).status).toBe(200);
      const all = await stored(s);
      expect(all.reduce((sum, v) => sum + v.size, 0)).toBeLessThanOrEqual(budget);
    }
    const all = await stored(s);
    expect(all.length).toBeGreaterThan(0);
    expect(all.length).toBeLessThan(queries.length);
    for (const v of all) expect(await exists(s.blobs, v.key)).toBe(true);
  });
});

// The limit's contract on both counters, each on one engine, as test/ratelimit.test.ts does.
const COUNTERS: [Engine, 'memory' | 'redis'][] = [
  ['sqlite', 'memory'],
  ['postgres', 'redis'],
];

describe.each(COUNTERS)('new derivations per visitor on %s with %s counters', (engine, counters) => {
  const prefix = uniquePrefix();
  let s: Setup;
  beforeAll(async () => {
    s = await setup(engine);
  });
  afterAll(async () => {
    await s.close();
    await clearRedisPrefix(prefix);
  });

  it('answers 429 past IMAGE_DERIVATIONS_PER_MINUTE; variants already made stay free; other visitors are not held', async () => {
    const app = await s.app(
      { derivationsPerMinute: 3 },
      counters === 'redis' ? { redisUrl: REDIS_URL, redisPrefix: prefix } : {},
    );
    for (const w of [160, 320, 480]) expect((await image(app, 'ast_limit', `w=${w}`)).status).toBe(200);
    const over = await image(app, 'ast_limit', 'w=640');
    expect(over.status).toBe(429);
    expectEnvelope(over, 'rate_limited');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // Variants made before cost no derivation: served from memory, and from the blob store by another instance.
    for (let i = 0; i < 5; i++) expect((await image(app, 'ast_limit', 'w=320')).status).toBe(200);
    const other = await s.app(
      { derivationsPerMinute: 3 },
      counters === 'redis' ? { redisUrl: REDIS_URL, redisPrefix: prefix } : {},
    );
    expect((await image(other, 'ast_limit', 'w=480')).status).toBe(200);
    // Another visitor makes the variant the first was refused.
    expect((await image(app, 'ast_limit', 'w=640', '203.0.113.2')).status).toBe(200);
    expect((await stored(s, 'ast_limit')).length).toBe(4);
  });
});

describe.each(ENGINES)('the sweep of derived images on %s', (engine) => {
  let s: Setup;
  beforeAll(async () => {
    s = await setup(engine);
  });
  afterAll(async () => s.close());

  it("deletes the variants of deleted assets and of replaced originals, and keeps the others'", async () => {
    const app = await s.app();
    for (const asset of ['ast_gone', 'ast_kept']) expect((await image(app, asset, 'w=160')).status).toBe(200);
    const before = await stored(s);
    expect(before.length).toBe(2);
    // The space imported again: ast_gone is no more, ast_kept is another file (a new original, a new source).
    await importBundle(s.env.store, s.blobs, bundle(ASSETS.filter((a) => a !== 'ast_gone')), {
      baseDir: s.dir,
      replace: true,
    });
    const runner = createJobRunner({ store: s.env.store, blobs: s.blobs, config: s.env.config });
    runner.start();
    await runner.stop();
    expect(await stored(s)).toEqual([]);
    for (const v of before) expect(await exists(s.blobs, v.key)).toBe(false);
    // The new original derives anew.
    expect((await image(app, 'ast_kept', 'w=160')).status).toBe(200);
    expect((await stored(s, 'ast_kept')).length).toBe(1);
  });
});

describe.each(BLOB_KINDS)('the per-asset bound with %s blobs', (kind) => {
  let s: Setup;
  beforeAll(async () => {
    s = await setup('sqlite', await openTestBlobs(kind));
  });
  afterAll(async () => s.close());

  it('deletes the evicted files from the blob store itself', async () => {
    const app = await s.app({ variantsPerAsset: 1 });
    const seen = new Set<string>();
    for (const w of [160, 320, 480]) {
      expect((await image(app, 'ast_lru', `w=${w}`)).status).toBe(200);
      for (const v of await stored(s, 'ast_lru')) seen.add(v.key);
    }
    const kept = await stored(s, 'ast_lru');
    expect([seen.size, kept.length]).toEqual([3, 1]);
    for (const key of seen) expect(await exists(s.blobs, key)).toBe(key === kept[0]?.key);
  });
});

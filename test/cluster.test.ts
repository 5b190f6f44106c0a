import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken, tokenHint } from '../src/auth/tokens.js';
import { LocalDirBlobStore } from '../src/blobs/blob-store.js';
import { importBundle } from '../src/bundle/import-bundle.js';
import { publishEntries, saveDraft } from '../src/content/publish-entries.js';
import { newId, randomBase62 } from '../src/lib/ids.js';
import { openStore, type Store } from '../src/store/open-store.js';
import { insertToken } from '../src/store/tokens-repo.js';
import { DATABASE_URL } from './helpers/engines.js';
import { fixtureBundle, fixtureDir, TOKENS } from './helpers/fixture.js';
import { type FolioProcess, freePort, RedisServer, runFolio, serveFolio } from './helpers/processes.js';
import { dropSchema } from './helpers/engines.js';

// Two real `folio serve` processes on one PostgreSQL schema and one Redis of the test's own.
const schema = `t_${randomBase62(12).toLowerCase()}`;
const dataDir = mkdtempSync(join(tmpdir(), 'folio-cluster-'));
let redis: RedisServer;
let store: Store;
let a: FolioProcess;
let b: FolioProcess;

async function get(p: FolioProcess, path: string, token = TOKENS.public) {
  const res = await fetch(`${p.base}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  return {
    status: res.status,
    layer: res.headers.get('x-svc-cache'),
    remaining: res.headers.get('ratelimit-remaining'),
    text,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test bodies are read loosely
    json: (): any => JSON.parse(text),
  };
}

async function newToken(kind: 'public' | 'preview' = 'public'): Promise<string> {
  const value = `folio_${kind === 'public' ? 'pub' : 'prv'}_${randomBase62(32)}`;
  await insertToken(store.db, {
    id: newId('tok'),
    spaceId: 'spc_test',
    kind,
    hash: hashToken(value),
    hint: tokenHint(value),
    name: null,
    origins: [],
    createdAt: new Date().toISOString(),
  });
  return value;
}

const env = (): Record<string, string> => ({
  DATABASE_URL,
  DATABASE_SCHEMA: schema,
  REDIS_URL: redis.url,
  REDIS_PREFIX: `${schema}:`,
  DATA_DIR: dataDir,
});

beforeAll(async () => {
  redis = new RedisServer(await freePort());
  await redis.start();
  store = await openStore({ engine: 'postgres', url: DATABASE_URL, schema });
  const blobs = new LocalDirBlobStore(join(dataDir, 'blobs'));
  await importBundle(store, blobs, fixtureBundle(), { baseDir: await fixtureDir() });
  [a, b] = await Promise.all([serveFolio(env()), serveFolio(env())]);
}, 60_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await redis?.kill();
  await store?.close();
  await dropSchema(schema);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('two instances on one PostgreSQL and one Redis', () => {
  it('share L2: what one rendered, the other serves as HIT-L2', async () => {
    const path = '/v1/spc_test/entries/by-path/about';
    const first = await get(b, path);
    expect([first.status, first.layer]).toEqual([200, 'MISS']);
    const other = await get(a, path);
    expect(other.layer).toBe('HIT-L2');
    expect(other.text).toBe(first.text);
    expect((await get(a, path)).layer).toBe('HIT-L1');
  });

  it('a publish elsewhere is visible on both within moments: new cv, new content, a MISS', async () => {
    const path = '/v1/spc_test/entries/by-path/blog/hello';
    const before = (await get(b, path)).json();
    expect((await get(b, path)).layer).toBe('HIT-L1');
    await saveDraft(store, 'spc_test', 'ent_post', { title: { en: 'Hello from elsewhere' } });
    const cv = await publishEntries(store, 'spc_test', ['ent_post']);
    const published = performance.now(); // committed
    let seen = 0;
    for (;;) {
      const r = await get(b, path);
      if (r.json().cv === cv) {
        seen = performance.now();
        expect(r.layer).toBe('MISS');
        expect(r.json().entry.content.fields.title).toBe('Hello from elsewhere');
        break;
      }
      expect(performance.now() - published).toBeLessThan(5000);
    }
    console.log(
      `publish committed → fresh content served by another instance: ${(seen - published).toFixed(1)} ms`,
    );
    expect(before.cv).toBe(cv - 1);
    // The other instance hears of the publish on its own notification, which may come a moment after b's (a busy
    // machine): it too must serve the new content within the bound, not at the same instant.
    for (;;) {
      const r = (await get(a, path)).json();
      if (r.cv === cv) {
        expect(r.entry.content.fields.title).toBe('Hello from elsewhere');
        break;
      }
      expect(performance.now() - published).toBeLessThan(5000);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    // The old cv stays pinned to the old bytes.
    expect((await get(a, `${path}?cv=${before.cv}`)).json()).toEqual(before);
  });

  it('sees `folio import --replace` from a third process', async () => {
    const bundle = fixtureBundle() as { entries: { id: string; fields: Record<string, unknown> }[] };
    const about = bundle.entries.find((e) => e.id === 'ent_about');
    if (!about) throw new Error('fixture changed');
    about.fields.title = { en: 'About, replaced' };
    const dir = await fixtureDir();
    writeFileSync(join(dir, 'b.json'), JSON.stringify(bundle));
    const r = await runFolio(['import', join(dir, 'b.json'), '--replace'], env());
    expect(r.code, r.out).toBe(0);
    for (const p of [a, b]) {
      await expect
        .poll(
          async () => (await get(p, '/v1/spc_test/entries/by-path/about')).json().entry.content.fields.title,
        )
        .toBe('About, replaced');
    }
  });

  it('holds one limit of 1,200 requests per minute per token across both: the 1,201st is rejected', async () => {
    const token = await newToken();
    const path = '/v1/spc_test/entries/by-path/about';
    const statuses: number[] = [];
    for (let i = 0; i < 1200; i += 20) {
      const batch = await Promise.all(
        Array.from({ length: 20 }, (_, j) => get((i + j) % 2 === 0 ? a : b, path, token)),
      );
      statuses.push(...batch.map((x) => x.status));
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(1200);
    for (const p of [a, b]) {
      const over = await get(p, path, token);
      expect(over.status).toBe(429);
      expect(over.json().error.code).toBe('rate_limited');
    }
  });

  it('keeps serving when Redis dies (L1, local counters, a warning, a metric) and recovers when it returns', async () => {
    const cached = '/v1/spc_test/entries/by-path/about';
    expect((await get(a, cached)).status).toBe(200);
    await redis.kill();
    for (const p of [a, b]) {
      const hit = await get(p, cached);
      expect([hit.status, hit.layer]).toEqual([200, 'HIT-L1']);
      // Counted by the instance alone: a preview's answer (never cached anywhere) carries its budget.
      const fresh = await get(p, '/v1/spc_test/globals/footer?draft=1', TOKENS.preview);
      expect(fresh.status).toBe(200);
      expect(fresh.remaining).not.toBeNull();
      // Ready all the same (the store answers): the body says Redis is down.
      const ready = await fetch(`${p.base}/readyz`);
      expect(ready.status).toBe(200);
      expect(((await ready.json()) as { checks: { redis: string } }).checks.redis).toBe('down');
      const metrics = await (await fetch(`${p.base}/metrics`)).text();
      expect(metrics).toContain('folio_redis_up 0');
      await expect.poll(() => p.output()).toContain('Redis is unreachable');
    }

    await redis.start();
    for (const p of [a, b])
      await expect
        .poll(
          async () =>
            ((await (await fetch(`${p.base}/readyz`)).json()) as { checks: { redis: string } }).checks.redis,
          {
            timeout: 10_000,
          },
        )
        .toBe('up');
    // Shared again: one instance's render is the other's L2 hit, and counters are one.
    const path = '/v1/spc_test/globals/footer?locale=de';
    expect((await get(a, path)).layer).toBe('MISS');
    expect((await get(b, path)).layer).toBe('HIT-L2');
    const token = await newToken('preview');
    const draft = '/v1/spc_test/globals/footer?draft=1';
    expect((await get(a, draft, token)).remaining).toBe('1199');
    expect((await get(b, draft, token)).remaining).toBe('1198');
    expect(await (await fetch(`${a.base}/metrics`)).text()).toContain('folio_redis_up 1');
  });
});

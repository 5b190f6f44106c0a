import type { KyselyPlugin, RawNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBundle } from '../src/bundle/import-bundle.js';
import { buildApp } from '../src/server/app.js';
import type { FastifyInstance } from 'fastify';
import { ENGINES, openTestEnv, type TestEnv } from './helpers/engines.js';
import { LIST_SPACE, LIST_TOKENS, listBundle } from './helpers/list-fixture.js';

// A list's `total` is counted once per space, cv and selection (issue 17): requests that arrive while it is being
// counted wait for that count. Measured before: 64 connections on a new selection ran 64 counts at once.
describe.each(ENGINES)('list totals under concurrent requests (%s)', (engine) => {
  let env: TestEnv;
  let app: FastifyInstance;
  let counts = 0;
  const countingPlugin: KyselyPlugin = {
    transformQuery: (args) => {
      const node = args.node as { kind: string };
      if (node.kind === 'RawNode' && (node as RawNode).sqlFragments[0]?.startsWith('select count(*)'))
        counts++;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };

  beforeAll(async () => {
    env = await openTestEnv(engine);
    await importBundle(env.store, env.blobs, listBundle(), { baseDir: env.dataDir });
    const store = { ...env.store, db: env.store.db.withPlugin(countingPlugin) };
    app = await buildApp({
      ...env,
      store,
      config: { ...env.config, cache: { ...env.config.cache, l1MaxBytes: 1 } },
    });
  });
  afterAll(async () => {
    await app.close();
    await env.close();
  });

  const get = (url: string) =>
    app.inject({ url, headers: { authorization: `Bearer ${LIST_TOKENS.public}` } }).then((r) => ({
      status: r.statusCode,
      body: r.json() as { total: number; items: unknown[] },
    }));

  it('counts a new selection once however many requests ask at the same time, and again for another', async () => {
    const base = `/v1/${LIST_SPACE}/entries?type=item&limit=1`;
    counts = 0;
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => get(`${base}&sort=${i % 2 ? 'name' : '-publishedAt'}&locale=en`)),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const totals = new Set(answers.map((a) => a.body.total));
    expect(totals.size).toBe(1);
    expect([...totals][0]).toBeGreaterThan(1);
    expect(counts).toBe(1);
    // Another selection is counted on its own, once.
    const other = await Promise.all(Array.from({ length: 6 }, () => get(`${base}&filter[tags][in]=sale`)));
    expect(other.every((a) => a.status === 200)).toBe(true);
    expect(counts).toBe(2);
  });
});

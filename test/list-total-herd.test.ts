import type { KyselyPlugin, RawNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBundle } from '../src/bundle/import-bundle.js';
import { closePublishedEntry, withPublish } from '../src/content/publish-log.js';
import { buildApp } from '../src/server/app.js';
import type { ContentTypeDef } from '../src/content/model.js';
import { putDocVersion, readDocsAt } from '../src/store/log-repo.js';
import type { FastifyInstance } from 'fastify';
import { ENGINES, openTestEnv, type TestEnv } from './helpers/engines.js';
import { LIST_SPACE, LIST_TOKENS, listBundle } from './helpers/list-fixture.js';

// A list's `total` is counted once per space, cv and selection: requests that arrive while it is being
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
      // The SQL counts are what this measures: with the rows index on, lists of `item` count in memory once its
      // table is loaded (test/rows-index.test.ts covers that path).
      config: { ...env.config, cache: { ...env.config.cache, l1MaxBytes: 1 }, listIndexMb: 0 },
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

  it('carries a total across a publish that changed no entry, and counts again after one that did', async () => {
    const url = (cv: number) => `/v1/${LIST_SPACE}/entries?type=item&limit=1&locale=de&cv=${cv}`;
    const { cv: start } = await withPublish(env.store, LIST_SPACE, async () => undefined);
    counts = 0;
    const first = await get(url(start));
    expect(first.status).toBe(200);
    expect(counts).toBe(1);
    // A publish of nothing but the cv (as a menu, redirect, form or asset publish is, for the entry lists).
    const { cv: quiet } = await withPublish(env.store, LIST_SPACE, async () => undefined);
    const second = await get(url(quiet));
    expect(second.body.total).toBe(first.body.total);
    expect(counts).toBe(1);
    // An entry of the list leaves: the next cv counts again, and the count is one less.
    const leaving = (first.body.items[0] as { id: string }).id;
    const { cv: changed } = await withPublish(env.store, LIST_SPACE, (tx, cv) =>
      closePublishedEntry(tx, env.store.dialect, LIST_SPACE, leaving, cv),
    );
    const third = await get(url(changed));
    expect(counts).toBe(2);
    expect(third.body.total).toBe(first.body.total - 1);
    // And a later quiet publish carries the new count, not the old one.
    const { cv: after } = await withPublish(env.store, LIST_SPACE, async () => undefined);
    expect((await get(url(after))).body.total).toBe(first.body.total - 1);
    expect(counts).toBe(2);
    // A pinned read of the first cv still answers that cv's count.
    expect((await get(url(quiet))).body.total).toBe(first.body.total);
    // A publish of the type definitions alone (a field added) is no entry change, but counts again: what a
    // filter means and which slot answers it follow from the types.
    const types = (await readDocsAt<ContentTypeDef[]>(env.store, LIST_SPACE, 'types', ['*'], after)).get('*');
    if (!types) throw new Error('no types');
    const added = types.map((t) =>
      t.key === 'item' ? { ...t, fields: [...t.fields, { key: 'extra', type: 'text' as const }] } : t,
    );
    const { cv: retyped } = await withPublish(env.store, LIST_SPACE, (tx, cv) =>
      putDocVersion(tx, LIST_SPACE, cv, 'types', '*', added),
    );
    expect((await get(url(retyped))).body.total).toBe(first.body.total - 1);
    expect(counts).toBe(3);
    // A list of every type, counted now; then an entry of another type (a maker) leaves.
    const everyType = (cv: number) => `/v1/${LIST_SPACE}/entries?limit=1&locale=de&cv=${cv}`;
    const all = (await get(everyType(retyped))).body.total;
    expect(counts).toBe(4);
    const { cv: otherType } = await withPublish(env.store, LIST_SPACE, (tx, cv) =>
      closePublishedEntry(tx, env.store.dialect, LIST_SPACE, 'ent_m1', cv),
    );
    // The items' count is carried (no item changed); the list of every type counts again, one less.
    expect((await get(url(otherType))).body.total).toBe(first.body.total - 1);
    expect(counts).toBe(4);
    expect((await get(everyType(otherType))).body.total).toBe(all - 1);
    expect(counts).toBe(5);
  });
});

import type { FastifyInstance } from 'fastify';
import type { KyselyPlugin, RawNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBundle } from '../src/bundle/import-bundle.js';
import { ConfigError, loadConfig } from '../src/config/config.js';
import { closePublishedEntry, withPublish } from '../src/content/publish-log.js';
import { buildApp } from '../src/server/app.js';
import { bundle, SPACE, TOKEN } from './helpers/rows-fixture.js';
import { fragments } from './helpers/sql-fragments.js';
import { ENGINES, openTestEnv, type TestEnv } from './helpers/engines.js';

// The rows index (LIST_INDEX_MB) in the app: which lists it answers, when it loads and reloads a table, what SQL
// answers meanwhile, and what /metrics reports. That its answers equal the SQL's: test/rows-index.test.ts.

describe.each(ENGINES)('the rows index in the app (%s)', (engine) => {
  let env: TestEnv;
  let app: FastifyInstance;
  let sqlOnly: FastifyInstance;
  // The list statements the app ran on list_rows since the last reset: counts, pages, and loads of a table.
  const ran = { counts: 0, pages: 0, loads: 0 };
  const spy: KyselyPlugin = {
    transformQuery: (args) => {
      const node = args.node as { kind: string };
      if (node.kind === 'RawNode') {
        const text = fragments(node as RawNode).join(' ');
        if (text.includes('list_rows r')) {
          if (text.includes('count(*)')) ran.counts++;
          else if (text.includes('select r.cv_from, r.published_at')) ran.loads++;
          else ran.pages++;
        }
      }
      return args.node;
    },
    transformResult: async (args) => args.result,
  };

  beforeAll(async () => {
    env = await openTestEnv(engine);
    await importBundle(env.store, env.blobs, bundle(), { baseDir: env.dataDir });
    const noCache = { ...env.config.cache, l1MaxBytes: 1 };
    app = await buildApp({
      ...env,
      store: { ...env.store, db: env.store.db.withPlugin(spy) },
      config: { ...env.config, cache: noCache },
    });
    sqlOnly = await buildApp({ ...env, config: { ...env.config, cache: noCache, listIndexMb: 0 } });
  }, 60_000);
  afterAll(async () => {
    await app.close();
    await sqlOnly.close();
    await env.close();
  });

  const get = async (server: FastifyInstance, url: string) => {
    const r = await server.inject({ url, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(r.statusCode, r.body).toBe(200);
    return r.json() as { total: number; items: { id: string }[]; nextCursor: string | null; cv: number };
  };
  const list = (filter: string, cv: number) =>
    `/v1/${SPACE}/entries?type=thing&limit=7&locale=de&cv=${cv}&filter[fields.size][eq]=m&${filter}`;
  const reset = () => Object.assign(ran, { counts: 0, pages: 0, loads: 0 });

  /** Asks new selections until one is answered without a list statement (the table loaded), for up to 3 s. */
  async function fromMemory(
    cv: number,
    url = (n: number) => list(`filter[fields.score][gte]=${n % 40}&filter[fields.weight][lt]=${n}`, cv),
  ): Promise<void> {
    const until = Date.now() + 3000;
    for (let score = 0; Date.now() < until; score++) {
      reset();
      await get(app, url(score));
      if (ran.counts === 0 && ran.pages === 0) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('never answered from memory');
  }

  /** The same list from the app and from the SQL-only app, page by page: equal bodies. */
  async function sameAsSql(url: string): Promise<number> {
    let next: string | null = null;
    let pages = 0;
    do {
      const at: string = next === null ? url : `${url}&cursor=${encodeURIComponent(next)}`;
      const mine = await get(app, at);
      expect(mine).toEqual(await get(sqlOnly, at));
      next = mine.nextCursor;
      pages++;
    } while (next !== null);
    return pages;
  }

  it('answers from memory once the table is loaded, carries it over quiet publishes, reloads after a change', async () => {
    const { cv: start } = await withPublish(env.store, SPACE, async () => undefined);
    reset();
    const first = await get(app, list('filter[fields.color][ne]=red', start));
    // The first list of the type is SQL and starts the load.
    expect(ran.counts).toBe(1);
    await fromMemory(start);
    expect(await sameAsSql(list('filter[fields.color][gte]=blue', start))).toBeGreaterThan(2);

    // A publish of no entry (a menu, a redirect): the same table answers the next cv.
    const { cv: quiet } = await withPublish(env.store, SPACE, async () => undefined);
    reset();
    const carried = await get(app, list('filter[fields.color][ne]=red', quiet));
    expect(carried.total).toBe(first.total);
    expect(ran).toEqual({ counts: 0, pages: 0, loads: 0 });

    // An entry of the type leaves: SQL answers until the table of the new cv is loaded, then memory again.
    const leaving = first.items[0]!.id;
    const { cv: changed } = await withPublish(env.store, SPACE, (tx, cv) =>
      closePublishedEntry(tx, env.store.dialect, SPACE, leaving, cv),
    );
    reset();
    const after = await get(app, list('filter[fields.color][ne]=red', changed));
    expect(after.total).toBe(first.total - 1);
    expect(after.items.map((i) => i.id)).not.toContain(leaving);
    expect(ran.counts).toBe(1);
    await fromMemory(changed);
    expect(ran.loads).toBe(0);
    expect(await sameAsSql(list('filter[fields.day][lt]=2026-05-01', changed))).toBeGreaterThan(1);
    // Sorted by a number or a date field: from memory too (few candidates), page by page as the SQL sorts them.
    for (const sort of ['-fields.score', 'fields.day']) {
      reset();
      expect(
        await sameAsSql(`${list('filter[fields.color][ne]=blue', changed)}&sort=${sort}`),
      ).toBeGreaterThan(2);
      expect(ran.pages + ran.counts).toBe(0);
    }
    // A type without a localized slotted field answers lists without a driving filter, sorted by a field.
    const plainList = (n: number) =>
      `/v1/${SPACE}/entries?type=plain&limit=9&cv=${changed}&sort=-fields.weight&filter[fields.score][gte]=${n % 30}`;
    await get(app, plainList(0));
    await fromMemory(changed, plainList);
    reset();
    expect(
      await sameAsSql(`/v1/${SPACE}/entries?type=plain&limit=9&cv=${changed}&sort=fields.day`),
    ).toBeGreaterThan(5);
    expect(ran.pages + ran.counts).toBe(0);

    // A request pinned to the cv before the change still sees the entry.
    reset();
    const pinned = await get(
      app,
      list('filter[fields.color][ne]=red&filter[fields.score][exists]=true', quiet),
    );
    expect(pinned).toEqual(
      await get(sqlOnly, list('filter[fields.color][ne]=red&filter[fields.score][exists]=true', quiet)),
    );
    expect(ran.loads).toBe(0);

    // What it did is on /metrics: three loads (the first cv's table of things, the changed one's, the plain
    // type's), lists by answer.
    const metrics = (await app.inject({ url: '/metrics' })).body;
    const value = (line: string) =>
      Number(new RegExp(`^${line.replace(/[{}]/g, '\\$&')} (\\d+)`, 'm').exec(metrics)?.[1]);
    expect(value('folio_list_index_loads_total{result="loaded"}')).toBe(3);
    expect(value('folio_list_index_tables')).toBeGreaterThanOrEqual(2);
    expect(value('folio_list_index_bytes')).toBeGreaterThan(10_000);
    expect(value('folio_list_index_lists_total{answer="memory"}')).toBeGreaterThan(3);
    expect(value('folio_list_index_lists_total{answer="sql"}')).toBeGreaterThanOrEqual(2);
    // The app without the index reports none of it.
    expect((await sqlOnly.inject({ url: '/metrics' })).body).not.toContain('folio_list_index');
  });

  it('LIST_INDEX_MB: 128 by default, 0 turns the index off', () => {
    expect(loadConfig({}).listIndexMb).toBe(128);
    expect(loadConfig({ LIST_INDEX_MB: '0' }).listIndexMb).toBe(0);
    expect(() => loadConfig({ LIST_INDEX_MB: '-1' })).toThrow(ConfigError);
  });
});

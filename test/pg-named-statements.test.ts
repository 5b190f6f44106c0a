import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/config.js';
import { prepared, preparedShape, SHAPES_PER_CONNECTION } from '../src/store/dialect/pg-named-statements.js';
import { buildApp } from '../src/server/app.js';
import { importBundle } from '../src/bundle/import-bundle.js';
import { LIST_SPACE, LIST_TOKENS, listBundle } from './helpers/list-fixture.js';
import { openTestEnv } from './helpers/engines.js';
import type { ContentTypeDef, TypeMap } from '../src/content/model.js';
import { parseListQuery } from '../src/delivery/list/list-params.js';
import { countList, pageList } from '../src/delivery/list/list-query-repo.js';
import { listPlan } from '../src/delivery/list/list-service.js';
import { readEntriesAtCached, readEntryAtPathCached } from '../src/store/entry-version-cache.js';
import { openStore, type Store } from '../src/store/open-store.js';
import { readEntriesAt } from '../src/store/log-repo.js';
import { getSpace } from '../src/store/spaces-repo.js';
import { randomBase62 } from '../src/lib/ids.js';
import { DATABASE_URL, dropSchema } from './helpers/engines.js';
import { openManagementApp } from './helpers/management.js';

/** The prepared statements of the connection the callback runs on, after it ran. */
async function preparedAfter(store: Store, run: (db: Store['db']) => Promise<unknown>) {
  return store.db.connection().execute(async (db) => {
    await run(db);
    const { rows } = await sql<{ name: string; statement: string; generic_plans: number | string }>`
      select name, statement, generic_plans from pg_prepared_statements order by name`.execute(db);
    return rows;
  });
}

describe('named statements on PostgreSQL', () => {
  const schemas: string[] = [];
  const stores: Store[] = [];
  afterAll(async () => {
    for (const s of stores) await s.close();
    for (const s of schemas) await dropSchema(s);
  });
  async function open(namedStatements?: boolean): Promise<Store> {
    const schema = `t_${randomBase62(12).toLowerCase()}`;
    schemas.push(schema);
    const store = await openStore({
      engine: 'postgres',
      url: DATABASE_URL,
      schema,
      ...(namedStatements === undefined ? {} : { namedStatements }),
    });
    stores.push(store);
    return store;
  }

  it('runs a marked statement named, once parsed per connection, and leaves unmarked ones unnamed', async () => {
    const store = await open();
    const rows = await preparedAfter(store, async (db) => {
      for (let n = 0; n < 8; n++) {
        const marked = await prepared(sql<{ n: number }>`select ${n}::int + 1 as n`).execute(db);
        expect(marked.rows).toEqual([{ n: n + 1 }]);
        await sql`select ${n}::int + 2 as unmarked`.execute(db);
      }
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]?.name).toMatch(/^folio_[\w-]{27}$/);
    expect(rows[0]?.statement).toContain('::int + 1 as n');
    // Eight executions: past the five custom plans PostgreSQL tries first, it keeps the generic one.
    expect(Number(rows[0]?.generic_plans)).toBeGreaterThan(0);
  });

  it('names nothing when turned off', async () => {
    const store = await open(false);
    const rows = await preparedAfter(store, (db) => prepared(sql`select 1 as n`).execute(db));
    expect(rows).toEqual([]);
  });

  it('serves by-path and small entry reads through named statements, with the same answers as unnamed ones', async () => {
    const t = await openManagementApp('postgres');
    try {
      const cv = (await getSpace(t.store, 'spc_test'))?.cv ?? 0;
      const { byPath, byId, rows } = await t.store.db.connection().execute(async (db) => {
        // The store on one connection, so its prepared statements can be seen (a cache of its own, so both ask).
        const pinned: Store = { ...t.store, db };
        const path = await readEntryAtPathCached(pinned, 'spc_test', 'en', '/blog/hello', cv);
        // Another entry: the one by-path read is cached now, and would need no statement.
        const ids = await readEntriesAtCached(pinned, 'spc_test', ['ent_bob'], cv);
        const seen = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(
          db,
        );
        return { byPath: path, byId: ids, rows: seen.rows };
      });
      expect(byPath?.id).toBe('ent_post');
      expect(byId.get('ent_bob')?.id).toBe('ent_bob');
      // The same answers as the unnamed statements give.
      expect(byPath).toEqual((await readEntriesAt(t.store, 'spc_test', ['ent_post'], cv)).get('ent_post'));
      expect(byId.get('ent_bob')).toEqual(
        (await readEntriesAt(t.store, 'spc_test', ['ent_bob'], cv)).get('ent_bob'),
      );
      expect(rows.map((r) => r.statement)).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/folio:prepared[\s\S]*from entry_paths p join entry_versions v/),
          expect.stringMatching(/select \/\* folio:prepared \*\/ "entry_id"[\s\S]*from "entry_versions"/),
        ]),
      );
      expect(rows).toHaveLength(2);
    } finally {
      await t.close();
    }
  });

  it('keeps the 64 shape statements a connection used last, deallocating the one that falls out', async () => {
    const store = await open();
    const shape = (n: number) =>
      preparedShape(sql<{ n: number; shape: number }>`select ${n}::int as n, ${sql.lit(n)} as shape`);
    const rows = await preparedAfter(store, async (db) => {
      for (let n = 0; n < SHAPES_PER_CONNECTION + 6; n++)
        expect((await shape(n).execute(db)).rows).toEqual([{ n, shape: n }]);
      // Shapes 0–5 fell out; 0 is prepared again under its name (pushing 6 out), and 7 is the next to go.
      expect((await shape(0).execute(db)).rows).toEqual([{ n: 0, shape: 0 }]);
      expect((await shape(10).execute(db)).rows).toEqual([{ n: 10, shape: 10 }]);
    });
    expect(rows).toHaveLength(SHAPES_PER_CONNECTION);
    const shapes = rows.map((r) =>
      Number(/as shape.*?(\d+)|(\d+) as shape/.exec(r.statement)?.slice(1).find(Boolean)),
    );
    expect(shapes).toContain(0);
    expect(shapes).toContain(10);
    for (const gone of [1, 2, 3, 4, 5, 6]) expect(shapes).not.toContain(gone);
    expect(shapes).toContain(7);
  });

  it('plans named statements generically, and leaves the setting alone when turned off', async () => {
    const setting = async (store: Store) =>
      (await sql<{ plan_cache_mode: string }>`show plan_cache_mode`.execute(store.db)).rows[0]
        ?.plan_cache_mode;
    expect(await setting(await open())).toBe('force_generic_plan');
    expect(await setting(await open(false))).toBe('auto');
  });

  it('answers lists through named list_rows statements as without them', async () => {
    const env = await openTestEnv('postgres');
    const off = await openStore({ ...env.storeConfig, namedStatements: false } as typeof env.storeConfig);
    stores.push(off);
    await importBundle(env.store, env.blobs, listBundle(), { baseDir: env.dataDir });
    const apps = [await buildApp({ ...env }), await buildApp({ ...env, store: off })];
    try {
      const urls = [
        'type=item&filter[fields.color][eq]=red&sort=-publishedAt',
        'type=item&filter[fields.color][in]=red,blue&filter[fields.price][gte]=10&sort=fields.price',
        'type=item&filter[fields.color][in]=red,blue,green&sort=-fields.price&limit=1',
        'type=item&filter[fields.color][eq]=blue&locale=de',
      ].map((q) => `/v1/${LIST_SPACE}/entries?${q}`);
      for (const url of urls) {
        const [named, unnamed] = await Promise.all(
          apps.map((app) => app.inject({ url, headers: { authorization: `Bearer ${LIST_TOKENS.public}` } })),
        );
        expect(named?.statusCode, url).toBe(200);
        expect(named?.json(), url).toEqual(unnamed?.json());
      }
      // On one connection, to see its prepared statements: the count and the page of a list_rows list.
      const types: TypeMap = new Map((listBundle().types as ContentTypeDef[]).map((d) => [d.key, d]));
      const cv = (await getSpace(env.store, LIST_SPACE))?.cv ?? 0;
      const query = { type: 'item', 'filter[fields.color][eq]': 'red', sort: '-publishedAt' };
      const plan = listPlan(parseListQuery(query, types, 'en'), types, {
        spaceId: LIST_SPACE,
        cv,
        locale: 'en',
        under: null,
        after: null,
      });
      const statements = await env.store.db.connection().execute(async (db) => {
        const pinned: Store = { ...env.store, db };
        expect(await countList(pinned, plan)).toBeGreaterThan(0);
        expect((await pageList(pinned, plan, false)).length).toBeGreaterThan(0);
        return (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(db))
          .rows;
      });
      // Besides what else the pool's connection ran for the apps (entry reads, by-path, other lists).
      expect(statements.map((r) => r.statement)).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^\/\* folio:prepared-shape \*\/ select count\(\*\) as n from list_rows r/),
          expect.stringMatching(
            /^\/\* folio:prepared-shape \*\/ select r\.vid as vid[\s\S]*from list_rows r[\s\S]*"s4" in \(\$6\) order by "r"\."published_at" desc/,
          ),
        ]),
      );
    } finally {
      for (const app of apps) await app.close();
      await env.close();
    }
  });

  it('is DATABASE_NAMED_STATEMENTS, on unless turned off', () => {
    const url = 'postgres://db.example/folio';
    const named = (env: Record<string, string>) => {
      const { store } = loadConfig({ DATABASE_URL: url, ...env });
      return store.engine === 'postgres' ? store.namedStatements : undefined;
    };
    expect(named({})).toBe(true);
    expect(named({ DATABASE_NAMED_STATEMENTS: 'off' })).toBe(false);
    expect(named({ DATABASE_NAMED_STATEMENTS: 'true' })).toBe(true);
    expect(() => named({ DATABASE_NAMED_STATEMENTS: 'sometimes' })).toThrow(ConfigError);
  });
});

import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import type { KyselyPlugin, RawNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBundle } from '../src/bundle/import-bundle.js';
import { ConfigError, loadConfig } from '../src/config/config.js';
import { closePublishedEntry, withPublish } from '../src/content/publish-log.js';
import { buildApp } from '../src/server/app.js';
import type { ContentTypeDef, TypeMap } from '../src/content/model.js';
import { parseListQuery } from '../src/delivery/list/list-params.js';
import { countList, pageList } from '../src/delivery/list/list-query-repo.js';
import { listPlan } from '../src/delivery/list/list-service.js';
import { rowsLayout } from '../src/delivery/list/list-sources-repo.js';
import type { ListPlan } from '../src/delivery/list/plan.js';
import { RowsIndex } from '../src/delivery/list/rows-index.js';
import {
  answerable,
  compileSelection,
  countSelection,
  publishOrderPage,
  slotOrderPage,
  sortedBySlot,
} from '../src/delivery/list/rows-selection.js';
import { type RowsTable, utf8Compare } from '../src/delivery/list/rows-table.js';
import { fragments } from './helpers/sql-fragments.js';
import { ENGINES, openTestEnv, type TestEnv } from './helpers/engines.js';

// Lists answered from list rows in memory (LIST_INDEX_MB) must answer exactly what the SQL answers on the same
// rows: the same total, the same pages in the same order with the same cursor values, for every slot filter the
// API accepts, text compared in UTF-8 byte order, missing values outside every test and inside its negation.

describe('utf8Compare', () => {
  const sign = (n: number) => Math.sign(n);
  it('orders like the bytes of UTF-8 (SQLite BINARY, PostgreSQL "C"), surrogate pairs included', () => {
    const unit = fc.constantFrom('a', 'B', 'é', 'z', '\uE000', '\uFB00', '\uFFFD', '😀', '𝒳', '\u0800', '0');
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit })),
        fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit })),
        (a, b) => sign(utf8Compare(a, b)) === sign(Buffer.compare(Buffer.from(a), Buffer.from(b))),
      ),
      { numRuns: 2000 },
    );
  });
});

const SPACE = 'spc_rowsidx';
const TOKEN = 'folio_pub_RowsIndexPublicToken0000001';
const N = 700;
// Option values whose UTF-16 order differs from their UTF-8 order (U+FB00 against a surrogate pair).
const COLORS = ['red', 'Red', 'érable', 'zebra', '𝒳wing', 'ﬀlat', 'blue'];
const SIZES = ['s', 'm', 'l', 'xl'];
const MAKERS = ['ent_mk1', 'ent_mk2', 'ent_mk3'];

const option = (key: string, values: string[], localized = false) => ({
  key,
  type: 'option',
  ...(localized ? { localized: true } : {}),
  options: values.map((value) => ({ value, label: { en: value } })),
});

const thingType = {
  key: 'thing',
  kind: 'collection',
  pages: false,
  fields: [
    option('size', SIZES),
    option('color', COLORS, true),
    { key: 'maker', type: 'reference', to: ['maker'] },
    { key: 'day', type: 'date' },
    // A fifth string-slotted field finds the four string slots taken: its filters are list_values probes.
    { key: 'flag', type: 'boolean' },
    { key: 'score', type: 'number' },
    { key: 'weight', type: 'number' },
  ],
};

/** Deterministic values with ties, gaps and a localized field missing in one locale now and then. */
function thing(i: number): Record<string, unknown> {
  const pick = <T>(xs: readonly T[], k: number): T => xs[k % xs.length] as T;
  const fields: Record<string, unknown> = {};
  if (i % 11 !== 3) fields.size = pick(SIZES, (i * 7) % 13);
  if (i % 5 !== 1) {
    const en = pick(COLORS, i * 3);
    fields.color = i % 4 === 0 ? { en } : { en, de: pick(COLORS, i * 5 + 1) };
  }
  if (i % 6 !== 2) fields.flag = i % 3 === 0;
  if (i % 7 !== 0) fields.day = `2026-0${1 + (i % 9)}-${String(1 + (i % 28)).padStart(2, '0')}`;
  if (i % 8 !== 5) fields.maker = pick(MAKERS, i);
  if (i % 9 !== 4) fields.score = (i * 37) % 40;
  if (i % 10 !== 6) fields.weight = ((i * 13) % 17) / 4 - 1;
  return fields;
}

// The same fields with nothing localized: one row per version in `*`, so lists without a driving filter (the type
// alone, negations, ranges) are answered from memory too.
const plainType = {
  ...thingType,
  key: 'plain',
  fields: thingType.fields.map((f) => (f.key === 'color' ? option('color', COLORS) : f)),
};
const PLAIN = 300;

function plain(i: number): Record<string, unknown> {
  const fields = thing(i);
  const color = fields.color as { en: string } | undefined;
  return color ? { ...fields, color: color.en } : fields;
}

/** An entry of the bundle, published at one of 40 times (many ties, which the entry id breaks). */
function entry(id: string, type: string, i: number, time: number, fields: Record<string, unknown>) {
  const at = `2026-03-${String(1 + (time % 20)).padStart(2, '0')}T${time % 2 ? '10' : '11'}:00:00.000Z`;
  const name = `${type} ${i}`;
  return {
    id,
    type,
    name,
    slug: `${type}-${i}`,
    parent: null,
    position: i,
    tags: [],
    published: { at, firstAt: at },
    fields,
  };
}

function bundle(): Record<string, unknown> {
  return {
    format: 'folio-bundle@1',
    space: {
      id: SPACE,
      name: 'Rows index',
      locales: [{ code: 'en', default: true }, { code: 'de' }],
    },
    tokens: [{ kind: 'public', value: TOKEN }],
    types: [{ key: 'maker', kind: 'collection', pages: false, fields: [] }, thingType, plainType],
    assets: [],
    entries: [
      ...MAKERS.map((id, i) => entry(id, 'maker', i, i, {})),
      ...Array.from({ length: N }, (_, i) =>
        entry(`ent_t${String((i * 7919) % 10007).padStart(5, '0')}`, 'thing', i, i, thing(i)),
      ),
      ...Array.from({ length: PLAIN }, (_, i) =>
        entry(`ent_p${String((i * 31) % 1009).padStart(4, '0')}`, 'plain', i, i * 3, plain(i)),
      ),
    ],
    menus: [],
    redirects: [],
    forms: [],
    webhooks: [],
  };
}

/** One filter of the query string, drawn from what the API accepts on the slotted fields. */
const filterArb: fc.Arbitrary<[string, string]> = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('eq', 'ne', 'in', 'nin', 'gt', 'gte', 'lt', 'lte'),
      fc.subarray([...COLORS, 'nope', 'Z'], { minLength: 1, maxLength: 3 }),
    )
    .map(([op, vs]): [string, string] => [
      `filter[fields.color][${op}]`,
      op === 'in' || op === 'nin' ? vs.join(',') : (vs[0] ?? 'red'),
    ]),
  fc.constantFrom<[string, string]>(
    ['filter[fields.color][exists]', 'true'],
    ['filter[fields.color][exists]', 'false'],
    ['filter[fields.flag][eq]', 'true'],
    ['filter[fields.flag][ne]', 'true'],
    ['filter[fields.flag][exists]', 'false'],
    ['filter[fields.maker][eq]', 'ent_mk2'],
    ['filter[fields.maker][ne]', 'ent_mk1'],
    ['filter[fields.maker][in]', 'ent_mk1,ent_mk3'],
    ['filter[fields.score][exists]', 'false'],
    ['filter[fields.weight][exists]', 'true'],
  ),
  fc
    .tuple(
      fc.constantFrom('gt', 'gte', 'lt', 'lte', 'eq', 'ne'),
      fc.date({ min: new Date('2026-01-01'), max: new Date('2026-10-01'), noInvalidDate: true }),
    )
    .map(([op, d]): [string, string] => [`filter[fields.day][${op}]`, d.toISOString().slice(0, 10)]),
  fc
    .tuple(
      fc.constantFrom('gt', 'gte', 'lt', 'lte', 'eq', 'ne', 'in', 'nin'),
      fc.integer({ min: -2, max: 42 }),
      fc.integer({ min: 0, max: 40 }),
    )
    .map(([op, a, b]): [string, string] => [
      `filter[fields.${a % 2 ? 'score' : 'weight'}][${op}]`,
      op === 'in' || op === 'nin' ? `${a},${b}` : a % 2 ? String(a) : String(a / 4 - 1),
    ]),
);

/** A driving filter: a positive eq/in on a string slot (what makes a list read list_rows). */
const driverArb: fc.Arbitrary<[string, string]> = fc.oneof(
  fc
    .subarray([...SIZES, 'xxl'], { minLength: 1, maxLength: 3 })
    .map((vs): [string, string] => [
      vs.length === 1 ? 'filter[fields.size][eq]' : 'filter[fields.size][in]',
      vs.join(','),
    ]),
  fc.constantFrom<[string, string]>(
    ['filter[fields.maker][eq]', 'ent_mk3'],
    ['filter[fields.color][in]', 'red,Red,ﬀlat,𝒳wing'],
  ),
);

const queryArb = fc.record({
  type: fc.constantFrom('thing', 'plain'),
  driver: fc.option(driverArb, { freq: 3 }),
  filters: fc.array(filterArb, { maxLength: 3 }),
  sort: fc.constantFrom(
    '-publishedAt',
    'publishedAt',
    'fields.score',
    '-fields.score',
    'fields.weight',
    '-fields.weight',
    'fields.day',
    '-fields.day',
  ),
  limit: fc.integer({ min: 1, max: 60 }),
  locale: fc.constantFrom('en', 'de'),
});

describe.each(ENGINES)('list rows in memory answer as SQL does (%s)', (engine) => {
  let env: TestEnv;
  let types: TypeMap;
  let cv: number;
  const tables = new Map<string, RowsTable>();

  beforeAll(async () => {
    env = await openTestEnv(engine);
    await importBundle(env.store, env.blobs, bundle(), { baseDir: env.dataDir });
    const space = await env.store.db
      .selectFrom('spaces')
      .select('cv')
      .where('id', '=', SPACE)
      .executeTakeFirstOrThrow();
    cv = Number(space.cv);
    // Literals of the bundle's shape, checked by the import above.
    types = new Map([thingType, plainType].map((t) => [t.key, t as unknown as ContentTypeDef] as const));
  }, 60_000);
  afterAll(async () => env.close());

  async function tableOf(plan: ListPlan): Promise<RowsTable> {
    const key = `${plan.type} ${plan.locale}`;
    let table = tables.get(key);
    if (!table) {
      const loaded = await new RowsIndex(env.store, 64 * 1024 * 1024).load(plan, 'test');
      if (!loaded) throw new Error('no table');
      tables.set(key, (table = loaded));
    }
    return table;
  }

  it('counts and pages every generated selection like the SQL, cursor by cursor', async () => {
    await fc.assert(
      fc.asyncProperty(queryArb, async ({ type, driver, filters, sort, limit, locale }) => {
        const query: Record<string, string> = { type, sort, limit: String(limit) };
        for (const [k, v] of driver === null ? filters : [driver, ...filters]) query[k] = v;
        const q = parseListQuery(query, types, locale);
        const plan = listPlan(q, types, { spaceId: SPACE, cv, locale, under: null, after: null });
        const layout = plan.layout;
        expect(layout?.perLocale).toBe(type === 'thing');
        // With a driving filter (a positive eq/in on a string slot) the SQL reads list_rows too; without one it
        // reads list_entries and list_values.
        const drives = rowsLayout(plan) !== null;
        if (driver !== null) expect(drives).toBe(true);
        const table = await tableOf(plan);
        const selection = compileSelection(table, plan, layout!);
        // Every generated filter but those on `flag` (no slot) is a slot test the table answers; a list without a
        // driving filter is answered only for the type whose rows cover every entry (nothing localized).
        const probes = filters.some(([k]) => k.includes('fields.flag'));
        expect(selection === null).toBe(probes || (!drives && type === 'thing'));
        // What the service checks before it loads a table says the same from the plan alone.
        expect(answerable(plan, layout!)).toBe(selection !== null);
        if (selection === null) return;
        const total = await countList(env.store, plan);
        expect(countSelection(selection!)).toBe(total);
        let after: ListPlan['after'] = null;
        for (let page = 0; page < 5; page++) {
          const at = { ...plan, after };
          const sql = await pageList(env.store, at, total <= 1000);
          const slot = sortedBySlot(plan, layout!);
          expect(slot === null).toBe(sort.endsWith('publishedAt'));
          const memory =
            slot === null
              ? publishOrderPage(table, selection!, at)
              : slotOrderPage(table, selection!, at, slot);
          expect(memory).toEqual(sql.map((r) => ({ entryId: r.entryId, cvFrom: r.cvFrom, after: r.after })));
          if (sql.length <= limit) break;
          after = sql[limit - 1]!.after;
        }
      }),
      { numRuns: 120 },
    );
  }, 120_000);

  it('answers a table too large for its budget with nothing, so SQL answers', async () => {
    const q = parseListQuery({ type: 'thing', 'filter[fields.size][eq]': 'm' }, types, 'en');
    const plan = listPlan(q, types, { spaceId: SPACE, cv, locale: 'en', under: null, after: null });
    const small = new RowsIndex(env.store, 20_000);
    expect(await small.load(plan, 'test')).toBeNull();
    expect(await small.tableFor(plan, 'test')).toBeNull();
    const enough = new RowsIndex(env.store, 8 * 1024 * 1024);
    const table = await enough.load(plan, 'test');
    expect(table?.size).toBe(N);
    expect(await enough.tableFor(plan, 'test')).toBe(table);
  });
});

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

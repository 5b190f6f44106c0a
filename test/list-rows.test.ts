import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentTypeDef, TypeMap } from '../src/content/model.js';
import { parseListQuery } from '../src/delivery/list/list-params.js';
import { compileList, countList, firstSearchPage, pageList } from '../src/delivery/list/list-query-repo.js';
import type { ListPlan } from '../src/delivery/list/plan.js';
import { listPlan } from '../src/delivery/list/list-service.js';
import { backfillListTables, clearAllListTables } from '../src/delivery/list/list-write-repo.js';
import type { TestApp } from './helpers/app.js';
import { ENGINES } from './helpers/engines.js';
import { call } from './helpers/management.js';
import { LIST_SPACE, LIST_TOKENS, listBundle, openListApp } from './helpers/list-fixture.js';

/**
 * list_rows (migration 0007) beyond the catalog's own filters: a localized slotted field (one row per
 * locale, values after fallback), option values longer than a slot holds, which statement serves a slotted
 * list, pinned cvs after a publish, and rebuilding the list tables from the published log.
 */

const MGT = 'folio_mgt_ListRowsManagementToken0001';
const pub = { authorization: `Bearer ${LIST_TOKENS.public}` };
const prv = { authorization: `Bearer ${LIST_TOKENS.preview}` };
const mgt = { authorization: `Bearer ${MGT}` };
// Two options sharing their first 120 characters: equal once cut to a slot's 100.
const LONG1 = `${'L'.repeat(120)}1`;
const LONG2 = `${'L'.repeat(120)}2`;
const GRADES: Record<string, Record<string, string>> = {
  ent_i1: { en: 'a', de: 'b' },
  ent_i2: { en: 'b' },
  ent_i3: { de: 'a' },
  ent_i4: { en: LONG1 },
  ent_i5: { en: LONG2 },
};

/** The catalog with a localized option `grade` as the item type's first field (slot s1, rows per locale). */
function gradedBundle(): Record<string, unknown> {
  const bundle = listBundle();
  const types = bundle.types as ContentTypeDef[];
  const item = types.find((t) => t.key === 'item');
  if (!item) throw new Error('no item type');
  item.fields.unshift({
    key: 'grade',
    type: 'option',
    localized: true,
    options: ['a', 'b', LONG1, LONG2].map((value) => ({ value, label: { en: value } })),
  });
  item.fields.push({ key: 'rank', type: 'number' });
  for (const e of bundle.entries as { id: string; fields: Record<string, unknown> }[]) {
    const grade = GRADES[e.id];
    if (grade) e.fields.grade = grade;
    if (e.id.startsWith('ent_i')) e.fields.rank = Number(e.id.slice(5));
    // A word many items share, for searches with more matches than a page.
    if (/^ent_i[2-6]$/.test(e.id)) e.fields.blurb = `${String(e.fields.blurb ?? '')} catalog piece`.trim();
  }
  bundle.tokens = [...(bundle.tokens as object[]), { kind: 'management', value: MGT }];
  return bundle;
}

const ids = (...n: number[]) => n.map((i) => `ent_i${i}`);
const LONG = (s: string) => encodeURIComponent(s);
const CASES: [string, string[]][] = [
  ['filter[fields.grade][eq]=a', ids(1)],
  ['filter[fields.grade][eq]=a&locale=de', ids(3)],
  // de-ch falls back to de, then to the default en: i1 is "b" there (de), i2 "b" (en), i3 "a" (de).
  ['filter[fields.grade][eq]=a&locale=de-ch', ids(3)],
  ['filter[fields.grade][eq]=b&locale=de-ch', ids(1, 2)],
  ['filter[fields.grade][in]=a,b', ids(1, 2)],
  ['filter[fields.grade][in]=a,b&filter[fields.rank][gte]=2', ids(2)],
  ['filter[fields.grade][in]=a,b&filter[fields.color][ne]=red', ids(2)],
  ['filter[fields.grade][ne]=a&filter[fields.active]=true', ids(3, 6)],
  // Long values: the filter takes list_values, never the cut slot, so the two stay apart.
  [`filter[fields.grade][eq]=${LONG(LONG1)}`, ids(4)],
  [`filter[fields.grade][eq]=${LONG(LONG2)}`, ids(5)],
  [`filter[fields.grade][in]=a,${LONG(LONG2)}`, ids(1, 5)],
  // A short bound compares the same on the cut value as on the whole one.
  ['filter[fields.color][in]=red,blue,green&filter[fields.grade][lt]=M', ids(5)],
  ['filter[fields.color][in]=red,blue,green&filter[fields.grade][gt]=L', ids(1, 2, 5)],
  ['filter[fields.color][in]=red,blue,green&filter[fields.grade][exists]=false', ids(3, 6)],
];

const types: TypeMap = new Map((gradedBundle().types as ContentTypeDef[]).map((d) => [d.key, d]));
/** The plan the service builds for a query string at a cv. */
function planOf(q: string, cv = 1): ListPlan {
  const query = Object.fromEntries(new URLSearchParams(q));
  const locale = query.locale ?? 'en';
  return listPlan(parseListQuery(query, types, locale), types, {
    spaceId: LIST_SPACE,
    cv,
    locale,
    under: null,
    after: null,
  });
}

describe.each(ENGINES)('list rows on %s', (engine) => {
  let t: TestApp;
  const list = (q: string) => `/v1/${LIST_SPACE}/entries?type=item&limit=100&sort=name&${q}`;
  const sorted = (body: { items: { id: string }[] }) => body.items.map((i) => i.id).sort();

  beforeAll(async () => {
    t = await openListApp(engine, {}, gradedBundle());
  });
  afterAll(async () => t.close());

  async function expectCases(cv?: number): Promise<void> {
    for (const [q, expected] of CASES) {
      const r = await t.get(list(q) + (cv === undefined ? '' : `&cv=${cv}`), pub);
      expect(r.status, `${q}: ${JSON.stringify(r.body)}`).toBe(200);
      expect(sorted(r.body), q).toEqual(expected);
      expect(r.body.total, q).toBe(expected.length);
    }
  }

  it('filters a localized slotted field per locale, with long values exact', async () => {
    await expectCases();
    for (const [q, expected] of CASES) {
      const draft = await t.get(`${list(q)}&draft=1&filter[id][ne]=ent_unpublished`, prv);
      expect(sorted(draft.body), `${q} (draft)`).toEqual(expected);
    }
  });

  it('serves a typed eq from a slot index of list_rows, checking the other slots inside it', async () => {
    const [count] = compileList(
      t.store,
      planOf('type=item&filter[fields.grade][eq]=a&filter[fields.rank][gte]=2'),
      true,
    );
    expect(count?.sql).toMatch(/from list_rows r where/);
    expect(count?.sql).not.toMatch(/list_values/);
    // `maker` is the sixth short field: no slot left, so list_values answers it.
    const [unslotted] = compileList(t.store, planOf('type=item&filter[fields.maker][eq]=ent_m1'), true);
    expect(unslotted?.sql).not.toMatch(/list_rows/);
    if (engine === 'sqlite' && count) {
      const { rows } = await t.store.db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${count.sql}`, [...count.parameters]),
      );
      expect(rows.map((r) => r.detail)).toEqual([expect.stringMatching(/COVERING INDEX list_rows_s1 /)]);
    }
  });

  it('walks list_rows in order for a dense page by publish time only; any other sort reads the slot index range', async () => {
    const q = 'type=item&filter[fields.grade][eq]=a&filter[fields.rank][gte]=2';
    const page = (sort: string, filter = q) =>
      compileList(t.store, planOf(`${filter}&sort=${sort}`), false)[1]?.sql ?? '';
    // One value's rows come from its slot index in publish order (migration 0016); several values' rows do not, so
    // `|| ''` hides the slot index and the walk index is taken (a rating sort walked every row).
    expect(page('-publishedAt')).not.toMatch(/\|\| ''/);
    const several = 'type=item&filter[fields.grade][in]=a,b&filter[fields.rank][gte]=2';
    expect(page('-publishedAt', several)).toMatch(/\|\| ''/);
    expect(page('fields.rank')).not.toMatch(/\|\| ''/);
    expect(page('-fields.rank')).not.toMatch(/\|\| ''/);
    if (engine === 'sqlite') {
      const plan = async (filter: string, sort: string) => {
        const statement = compileList(t.store, planOf(`${filter}&sort=${sort}`), false)[1];
        if (!statement) throw new Error('no page statement');
        const { rows } = await t.store.db.executeQuery<{ detail: string }>(
          CompiledQuery.raw(`explain query plan ${statement.sql}`, [...statement.parameters]),
        );
        return rows.map((r) => r.detail);
      };
      // In order from the slot's index: no sort step, so the page stops after limit + 1 rows.
      expect(await plan(q, '-publishedAt')).toEqual([expect.stringMatching(/COVERING INDEX list_rows_s1 /)]);
      expect(await plan(several, '-publishedAt')).toEqual([
        expect.stringMatching(/COVERING INDEX list_rows_walk /),
      ]);
      const sorted = compileList(t.store, planOf(`${q}&sort=fields.rank`), false)[1];
      if (!sorted) throw new Error('no page statement');
      const { rows } = await t.store.db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${sorted.sql}`, [...sorted.parameters]),
      );
      expect(rows.map((r) => r.detail)).toContainEqual(expect.stringMatching(/list_rows_s\d .*s\d=\?/));
    }
    for (const sort of ['fields.rank', '-fields.rank']) {
      const r = await t.get(
        `/v1/${LIST_SPACE}/entries?type=item&filter[fields.grade][in]=a,b&sort=${sort}`,
        pub,
      );
      expect(r.status).toBe(200);
      const ranks = (r.body.items as { content: { fields: { rank: number } } }[]).map(
        (i) => i.content.fields.rank,
      );
      const expected = [...ranks].sort((a, b) => (sort.startsWith('-') ? b - a : a - b));
      expect(ranks).toEqual(expected);
      expect(ranks.length).toBeGreaterThan(1);
    }
  });

  it('counts a search in its first page as the separate count does', async () => {
    let nonEmpty = 0;
    for (const q of [
      'search=lamp',
      'search=catalog',
      'search=catalog&locale=de-ch&sort=name',
      'search=reading&locale=de',
      'type=item&search=lamp&sort=-publishedAt',
      'type=item&search=chair&filter[fields.color][eq]=blue',
      'type=item&search=lamp&filter[fields.grade][in]=a,b&sort=fields.rank',
      'search=nothing',
    ]) {
      const plan = planOf(`limit=1&${q}`);
      const once = await firstSearchPage(t.store, plan);
      expect(once.total, q).toBe(await countList(t.store, plan));
      expect(once.rows, q).toEqual(await pageList(t.store, plan, false));
      if (once.total > 1) nonEmpty++;
    }
    expect(nonEmpty).toBe(2);
  });

  it('keeps pinned cvs after a publish changes a slotted value and the text', async () => {
    const before = await t.get(list('filter[fields.grade][eq]=a'), pub);
    const cv = Number(before.body.cv);
    const entry = (gradedBundle().entries as { id: string; fields: Record<string, unknown> }[]).find(
      (e) => e.id === 'ent_i1',
    );
    const fields = { ...entry?.fields, grade: { en: 'b', de: 'b' }, blurb: 'A dim reading lamp' };
    const patched = await call(t.app, 'PATCH', `/v1/spaces/${LIST_SPACE}/entries/ent_i1`, mgt, { fields });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const published = await call(t.app, 'POST', `/v1/spaces/${LIST_SPACE}/entries/ent_i1/publish`, mgt);
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    const now = await t.get(list('filter[fields.grade][eq]=b'), pub);
    expect(now.body.cv).toBeGreaterThan(cv);
    expect(sorted(now.body)).toEqual(ids(1, 2));
    expect(sorted((await t.get(list('filter[fields.grade][eq]=a'), pub)).body)).toEqual([]);
    // The version closed at the new cv still answers at the old one, in filters and in full-text search.
    await expectCases(cv);
    const search = (at: string) => t.get(`/v1/${LIST_SPACE}/entries?search=bright${at}`, pub);
    expect(sorted((await search('')).body)).toEqual([]);
    expect(sorted((await search(`&cv=${cv}`)).body)).toEqual(ids(1));
    expect(sorted((await search('&type=item&sort=-publishedAt')).body)).toEqual([]);
    expect(sorted((await search(`&cv=${cv}&type=item&sort=-publishedAt`)).body)).toEqual(ids(1));
  });

  it('rebuilds the list tables from the published log with the same answers', async () => {
    const count = async () =>
      (
        await t.store.db
          .selectFrom('list_rows')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirst()
      )?.n;
    const rowsBefore = Number(await count());
    expect(rowsBefore).toBeGreaterThan(0);
    const cvNow = Number((await t.get(list('filter[fields.grade][eq]=b'), pub)).body.cv);
    // Asked of the repository, past the response and total caches: every case at the first cv and now.
    const answers = async () => {
      const out: [string, number, string[]][] = [];
      for (const [q] of CASES)
        for (const cv of [1, cvNow]) {
          const plan = planOf(`type=item&limit=100&sort=name&${decodeURIComponent(q)}`, cv);
          const page = await pageList(t.store, plan, true);
          out.push([`${q} @${cv}`, await countList(t.store, plan), page.map((r) => r.entryId)]);
        }
      return out;
    };
    const before = await answers();
    expect(before.filter(([, n]) => n > 0).length).toBeGreaterThan(CASES.length);
    // Rows of the full-text index (responses and totals are cached per cv, so the tables are asked directly).
    const searched = async () => {
      const table = engine === 'sqlite' ? 'list_fts' : 'list_search';
      const { rows } = await t.store.db.executeQuery<{ n: number | string }>(
        CompiledQuery.raw(`select count(*) as n from ${table}`, []),
      );
      return Number(rows[0]?.n);
    };
    const searchRows = await searched();
    expect(searchRows).toBeGreaterThan(0);
    await t.store.db.transaction().execute((tx) => clearAllListTables(tx, t.store.dialect));
    expect(Number(await count())).toBe(0);
    expect(await searched()).toBe(0);
    await t.store.db.transaction().execute((tx) => backfillListTables(tx, t.store.dialect));
    expect(await searched()).toBe(searchRows);
    expect(Number(await count())).toBe(rowsBefore);
    // Every version at its own cv: the first cv's answers and the current ones all come back.
    expect(await answers()).toEqual(before);
  });
});

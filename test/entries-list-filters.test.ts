import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers/app.js';
import { ENGINES } from './helpers/engines.js';
import type { ContentTypeDef } from '../src/content/model.js';
import { parseListQuery } from '../src/delivery/list/list-params.js';
import { pageList } from '../src/delivery/list/list-query-repo.js';
import { listPlan } from '../src/delivery/list/list-service.js';
import type { ListPlan, Scalar } from '../src/delivery/list/plan.js';
import { LIST_SPACE, LIST_TOKENS, listBundle, openListApp } from './helpers/list-fixture.js';

const base = `/v1/${LIST_SPACE}/entries?type=item&limit=100`;
const pub = { authorization: `Bearer ${LIST_TOKENS.public}` };
const prv = { authorization: `Bearer ${LIST_TOKENS.preview}` };
const ids = (...n: number[]) => n.map((i) => `ent_i${i}`);

/**
 * spec 4.3: every operator on every filterable field type, with the values a client of the locale receives
 * (after fallback). [query, expected ids in any order]. Missing values: i4 has no active/color/maker/updated,
 * i6 no price/released, i5 no English title; 9 < 10 only when compared as numbers.
 */
const FILTERS: [string, string[]][] = [
  // text (localized)
  ['filter[fields.title][eq]=Alpha lamp', ids(1)],
  ['filter[fields.title]=Alpha lamp', ids(1)],
  ['filter[fields.title][eq]=Alpha Lampe&locale=de', ids(1)],
  ['filter[fields.title][eq]=Beta chair&locale=de', ids(2)],
  ['filter[fields.title][eq]=Gamma Pult&locale=de-ch', ids(3)],
  ['filter[fields.title][eq]=Epsilon Uhr&locale=de-ch', ids(5)],
  ['filter[fields.title][ne]=Alpha lamp', ids(2, 3, 4, 5, 6)],
  ['filter[fields.title][in]=Alpha lamp,Gamma desk', ids(1, 3)],
  ['filter[fields.title][nin]=Alpha lamp,Gamma desk', ids(2, 4, 5, 6)],
  ['filter[fields.title][contains]=ta', ids(2, 4, 6)],
  ['filter[fields.title][contains]=alpha', []],
  ['filter[fields.title][gt]=Gamma desk', ids(4, 6)],
  ['filter[fields.title][gte]=Gamma desk', ids(3, 4, 6)],
  ['filter[fields.title][lt]=Beta chair', ids(1)],
  ['filter[fields.title][lte]=Beta chair', ids(1, 2)],
  ['filter[fields.title][exists]=true', ids(1, 2, 3, 4, 6)],
  ['filter[fields.title][exists]=false', ids(5)],
  ['filter[fields.title][exists]=false&locale=de', []],
  // number
  ['filter[fields.price][eq]=10', ids(1)],
  ['filter[fields.price][ne]=10', ids(2, 3, 4, 5, 6)],
  ['filter[fields.price][in]=9,100', ids(3, 4)],
  ['filter[fields.price][nin]=9,100', ids(1, 2, 5, 6)],
  ['filter[fields.price][gt]=9', ids(1, 2, 3)],
  ['filter[fields.price][gte]=9', ids(1, 2, 3, 4)],
  ['filter[fields.price][lt]=10', ids(4, 5)],
  ['filter[fields.price][lte]=25.5', ids(1, 2, 4, 5)],
  ['filter[fields.price][gt]=-3.5', ids(1, 2, 3, 4, 5)],
  ['filter[fields.price][exists]=true', ids(1, 2, 3, 4, 5)],
  ['filter[fields.price][exists]=false', ids(6)],
  // date
  ['filter[fields.released][eq]=2024-01-15', ids(1)],
  ['filter[fields.released][ne]=2024-01-15', ids(2, 3, 4, 5, 6)],
  ['filter[fields.released][in]=2024-01-15,2025-06-30', ids(1, 5)],
  ['filter[fields.released][nin]=2024-01-15,2025-06-30', ids(2, 3, 4, 6)],
  ['filter[fields.released][gt]=2024-01-02', ids(1, 2, 5)],
  ['filter[fields.released][gte]=2024-01-02', ids(1, 2, 4, 5)],
  ['filter[fields.released][lt]=2024-01-01', ids(3)],
  ['filter[fields.released][lte]=2024-01-15', ids(1, 3, 4)],
  ['filter[fields.released][exists]=false', ids(6)],
  // datetime (a bare date is the start of that day, UTC; offsets are normalised)
  ['filter[fields.updated][gte]=2024-01-01', ids(1, 2, 5, 6)],
  ['filter[fields.updated][lt]=2024-01-01T00:00:00Z', ids(3)],
  ['filter[fields.updated][eq]=2024-01-15T09:00:00%2B01:00', ids(1)],
  ['filter[fields.updated][lte]=2024-03-01T12:30:00.000Z', ids(1, 2, 3)],
  ['filter[fields.updated][exists]=false', ids(4)],
  // boolean
  ['filter[fields.active]=true', ids(1, 3, 6)],
  ['filter[fields.active][eq]=false', ids(2, 5)],
  ['filter[fields.active][ne]=true', ids(2, 4, 5)],
  ['filter[fields.active][exists]=false', ids(4)],
  // option
  ['filter[fields.color][eq]=red', ids(1, 5)],
  ['filter[fields.color][ne]=blue', ids(1, 3, 4, 5)],
  ['filter[fields.color][in]=red,green', ids(1, 3, 5)],
  ['filter[fields.color][nin]=red,green', ids(2, 4, 6)],
  ['filter[fields.color][contains]=re', ids(1, 3, 5)],
  ['filter[fields.color][gt]=green', ids(1, 5)],
  ['filter[fields.color][exists]=false', ids(4)],
  // reference
  ['filter[fields.maker][eq]=ent_m1', ids(1, 3, 6)],
  ['filter[fields.maker][ne]=ent_m1', ids(2, 4, 5)],
  ['filter[fields.maker][in]=ent_m2', ids(2, 5)],
  ['filter[fields.maker][nin]=ent_m1,ent_m2', ids(4)],
  ['filter[fields.maker][exists]=true', ids(1, 2, 3, 5, 6)],
  // reference, many: a test holds when any element passes
  ['filter[fields.related][contains]=ent_i2', ids(1, 6)],
  ['filter[fields.related][eq]=ent_i1', ids(2)],
  ['filter[fields.related][in]=ent_i1,ent_i4', ids(2, 5)],
  ['filter[fields.related][nin]=ent_i2', ids(2, 3, 4, 5)],
  ['filter[fields.related][ne]=ent_i2', ids(2, 3, 4, 5)],
  ['filter[fields.related][exists]=true', ids(1, 2, 5, 6)],
  ['filter[fields.related][exists]=false', ids(3, 4)],
  // tags
  ['filter[tags][contains]=new', ids(1, 4, 6)],
  ['filter[tags][eq]=sale', ids(1, 2, 6)],
  ['filter[tags][in]=clearance,new', ids(1, 4, 5, 6)],
  ['filter[tags][nin]=sale', ids(3, 4, 5)],
  ['filter[tags][exists]=false', ids(3)],
  ['tags=new,sale', ids(1, 6)],
  ['tags=sale&filter[tags][ne]=new', ids(2)],
  // entry members
  ['filter[name][eq]=Desk', ids(3)],
  ['filter[name][gte]=a', ids(2, 4)],
  ['filter[id][in]=ent_i2,ent_i5,ent_nope', ids(2, 5)],
  ['filter[parentId][eq]=ent_sale', ids(5, 6)],
  ['filter[parentId][ne]=ent_sale', ids(1, 2, 3, 4)],
  ['filter[position][lte]=1', ids(2, 5, 6)],
  ['filter[publishedAt][gte]=2026-02-14', ids(5, 6)],
  ['filter[firstPublishedAt][lt]=2025-12-19', ids(4, 5, 6)],
  // combinations, folders
  ['filter[fields.color][eq]=blue&filter[fields.active]=true', ids(6)],
  ['filter[fields.price][gte]=9&filter[fields.price][lt]=100&tags=sale', ids(1, 2)],
  ['under=/shop', ids(1, 2, 3, 4, 5, 6)],
  ['under=/shop/sale', ids(5, 6)],
  ['under=/Laden/Sale/&locale=de', ids(5, 6)],
  ['under=/shop&filter[fields.maker][eq]=ent_m1', ids(1, 3, 6)],
  ['search=lamp', ids(1)],
  ['search=Lampe&locale=de', ids(1)],
  ['search=comfortable', ids(2)],
  ['search=reading lamp', ids(1)],
  ['search=lamp chair', []],
];

/**
 * A list of one type with an `eq`/`in` on a slotted field (option, date, datetime, boolean: src/delivery/list/
 * slots.ts) reads list_rows, where the other filters are slot columns or list_values probes. Combined with such
 * a driver, every filter above must select exactly the intersection of the two single answers.
 */
const DRIVERS = [
  'filter[fields.color][eq]=red',
  'filter[fields.color][in]=red,green',
  'filter[fields.active]=true',
  'filter[fields.active][eq]=false',
  'filter[fields.released][in]=2024-01-15,2025-06-30',
];
// Sorts on slots (price, released, active, updated), on the row's publishedAt, and on list_entries' name.
const SLOT_SORTS = ['-publishedAt', 'fields.price', '-fields.released,name', 'fields.active,-fields.updated'];
const answer = (q: string): string[] => {
  const found = FILTERS.find(([f]) => f === q);
  if (!found) throw new Error(`no single answer for ${q}`);
  return found[1];
};
const paramNames = (q: string) => q.split('&').map((p) => p.split('=')[0]);
const COMBINED: [string, string[]][] = DRIVERS.flatMap((d) =>
  FILTERS.filter(([q]) => !paramNames(q).some((n) => paramNames(d).includes(n))).map(
    ([q, ids]): [string, string[]] => [`${d}&${q}`, ids.filter((id) => answer(d).includes(id))],
  ),
);

// Table-driven: hundreds of selections per test, each a request or a paged walk (seconds on a quiet machine,
// near 20 s on a loaded two-core one).
describe.each(ENGINES)('entry list filters on %s', { timeout: 90_000 }, (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    // Thousands of requests per token: the per-token rate limit is not what these tests are about.
    t = await openListApp(engine, { rateLimitPerMinute: 1_000_000 });
  });
  afterAll(async () => t.close());

  const sorted = (items: { id: string }[]) => items.map((i) => i.id).sort();

  it.each(FILTERS)('%s', async (raw, expected) => {
    const query = raw.replaceAll(' ', '%20');
    const r = await t.get(`${base}&${query}`, pub);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(sorted(r.body.items)).toEqual([...expected].sort());
    expect(r.body.total).toBe(expected.length);
    // Draft previews are evaluated in memory: the same answers as the SQL of published lists (the never
    // published item, only in drafts, is filtered out).
    const preview = await t.get(`${base}&${query}&draft=1&filter[id][ne]=ent_unpublished`, prv);
    expect(sorted(preview.body.items)).toEqual([...expected].sort());
    expect(preview.body.total).toBe(expected.length);
  });

  it('answers every filter combined with a slotted driver with the intersection of both', async () => {
    for (const [raw, expected] of COMBINED) {
      const query = raw.replaceAll(' ', '%20');
      const r = await t.get(`${base}&${query}`, pub);
      expect(r.status, `${raw}: ${JSON.stringify(r.body)}`).toBe(200);
      expect(sorted(r.body.items), raw).toEqual([...expected].sort());
      expect(r.body.total, raw).toBe(expected.length);
      const preview = await t.get(`${base}&${query}&draft=1&filter[id][ne]=ent_unpublished`, prv);
      expect(sorted(preview.body.items), `${raw} (draft)`).toEqual([...expected].sort());
    }
    expect(COMBINED.length).toBeGreaterThan(400);
  });

  it('pages slotted lists alike from the driver index (sparse), the sorted walk (dense) and the preview', async () => {
    const types = new Map((listBundle().types as ContentTypeDef[]).map((d) => [d.key, d]));
    const walk = async (plan: ListPlan, sparse: boolean): Promise<string[]> => {
      const seen: string[] = [];
      for (let after: Scalar[] | null = null, guard = 0; guard < 10; guard++) {
        const rows = await pageList(t.store, { ...plan, after }, sparse);
        seen.push(...rows.slice(0, plan.limit).map((r) => r.entryId));
        if (rows.length <= plan.limit) return seen;
        after = rows[plan.limit - 1]?.after ?? null;
      }
      throw new Error('more pages than items');
    };
    let checked = 0;
    for (const [raw, expected] of COMBINED) {
      if (raw.includes('under=')) continue; // folder paths are resolved by the service
      for (const sort of SLOT_SORTS) {
        const query = Object.fromEntries(new URLSearchParams(`type=item&limit=2&sort=${sort}&${raw}`));
        const locale = query.locale ?? 'en';
        const plan = listPlan(parseListQuery(query, types, locale), types, {
          spaceId: LIST_SPACE,
          cv: 1,
          locale,
          under: null,
          after: null,
        });
        const sparse = await walk(plan, true);
        expect(await walk(plan, false), `${raw} sort=${sort}`).toEqual(sparse);
        expect([...sparse].sort(), raw).toEqual([...expected].sort());
        // The order of the in-memory preview, which knows nothing of slots, is the reference.
        const url = `${base}&sort=${sort}&${raw.replaceAll(' ', '%20')}&draft=1&filter[id][ne]=ent_unpublished`;
        const draft = await t.get(url, prv);
        expect(sparse, `${raw} sort=${sort} (draft order)`).toEqual(
          draft.body.items.map((i: { id: string }) => i.id),
        );
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(1600);
  });

  it('without a type lists pages and collection items, never globals or folders', async () => {
    const r = await t.get(`/v1/${LIST_SPACE}/entries?limit=100&sort=name`, pub);
    expect(r.body.items.map((i: { id: string }) => i.id)).toEqual([
      'ent_about',
      'ent_i5',
      'ent_i3',
      'ent_i1',
      'ent_m1',
      'ent_m2',
      'ent_shophome',
      'ent_i6',
      'ent_i2',
      'ent_i4',
    ]);
    expect(r.body.total).toBe(10);
    const maker = r.body.items.find((i: { id: string }) => i.id === 'ent_m1');
    expect(maker).toMatchObject({ type: 'maker', path: null, content: { fields: { name: 'One' } } });
  });

  it('renders items like by-path, with include, fields and locale', async () => {
    const r = await t.get(`${base}&filter[id][eq]=ent_i1&include=maker&fields=title,maker&locale=de`, pub);
    const byPath = await t.get(
      `/v1/${LIST_SPACE}/entries/by-path/laden/lamp?include=maker&fields=title,maker&locale=de`,
      pub,
    );
    expect(r.body.items).toEqual([byPath.body.entry]);
    expect(r.body.items[0].content.fields).toEqual({ title: 'Alpha Lampe', maker: 'ent_m1' });
    expect(r.body.included.entries.map((e: { id: string }) => e.id)).toEqual(['ent_m1']);
    expect(r.body).toMatchObject({ total: 1, nextCursor: null, cv: 1 });
    expect(r.headers['x-folio-cv']).toBe('1');
  });

  it('leaves unpublished entries out of published lists and shows them in drafts', async () => {
    const r = await t.get(`${base}&filter[fields.price][eq]=1`, pub);
    expect(r.body.total).toBe(0);
    const d = await t.get(`${base}&filter[fields.price][eq]=1&draft=1`, prv);
    expect(d.body.items.map((i: { id: string }) => i.id)).toEqual(['ent_unpublished']);
    expect(d.headers['cache-control']).toBe('private, no-store');
  });
});

import { CompiledQuery, type KyselyPlugin, type RawNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentTypeDef, TypeMap } from '../src/content/model.js';
import { parseListQuery } from '../src/delivery/list/list-params.js';
import { compileList, numberWalkSlot } from '../src/delivery/list/list-query-repo.js';
import { listPlan } from '../src/delivery/list/list-service.js';
import { importBundle } from '../src/bundle/import-bundle.js';
import { fragments } from './helpers/sql-fragments.js';
import { ENGINES, openTestEnv } from './helpers/engines.js';
import { serveEnv, type TestApp } from './helpers/app.js';

// A dense list sorted by a number field walks that field's slot index (migration 0017) in two parts, the entries
// with the value and then those without it; a sparse one sorts its matches. Both must page exactly as the sort
// says (value, then entry id; missing values last in both directions), across cursors.

const SPACE = 'spc_walk';
const TOKEN = 'folio_pub_NumberWalkPublicToken000001';
const pub = { authorization: `Bearer ${TOKEN}` };
const N = 2400;

interface Product {
  id: string;
  category: 'big' | 'small';
  price: number | null;
}

// Deterministic: prices 0–149 (many ties, so the entry id decides), every 9th without a price; 2,000 big, 400 small.
const products: Product[] = Array.from({ length: N }, (_, i) => ({
  id: `ent_p${String((i * 7919) % N).padStart(4, '0')}`,
  category: i % 6 === 0 ? 'small' : 'big',
  price: i % 9 === 4 ? null : (i * 37) % 150,
}));

const productType: ContentTypeDef = {
  key: 'product',
  kind: 'collection',
  pages: false,
  fields: [
    {
      key: 'category',
      type: 'option',
      options: ['big', 'small'].map((value) => ({ value, label: { en: value } })),
    },
    { key: 'price', type: 'number' },
  ],
} as unknown as ContentTypeDef; // a literal of the bundle's shape, checked by the import below

function bundle(): Record<string, unknown> {
  return {
    format: 'folio-bundle@1',
    space: { id: SPACE, name: 'Walk', locales: [{ code: 'en', default: true }] },
    tokens: [{ kind: 'public', value: TOKEN }],
    types: [productType],
    assets: [],
    entries: products.map((p, i) => ({
      id: p.id,
      type: 'product',
      name: p.id,
      slug: p.id,
      parent: null,
      position: i,
      tags: [],
      published: { at: '2026-03-01T10:00:00.000Z', firstAt: '2026-03-01T10:00:00.000Z' },
      fields: { category: p.category, ...(p.price === null ? {} : { price: p.price }) },
    })),
    menus: [],
    redirects: [],
    forms: [],
    webhooks: [],
  };
}

/** What the sort means (spec 4.3): by value, ties by entry id in the same direction, missing values last. */
function expected(category: string, desc: boolean, min: number | null): string[] {
  const byId = (a: Product, b: Product) => (a.id < b.id ? -1 : 1) * (desc ? -1 : 1);
  const chosen = products.filter((p) => p.category === category && (min === null || (p.price ?? -1) >= min));
  const valued = chosen
    .filter((p) => p.price !== null)
    .sort((a, b) => ((a.price ?? 0) - (b.price ?? 0)) * (desc ? -1 : 1) || byId(a, b));
  const missing = chosen.filter((p) => p.price === null).sort(byId);
  return [...valued, ...missing].map((p) => p.id);
}

describe.each(ENGINES)('lists sorted by a number field (%s)', (engine) => {
  let t: TestApp;
  const pages: string[] = [];
  const spy: KyselyPlugin = {
    transformQuery: (args) => {
      const node = args.node as { kind: string };
      if (node.kind === 'RawNode') pages.push(fragments(node as RawNode).join(' '));
      return args.node;
    },
    transformResult: async (args) => args.result,
  };

  beforeAll(async () => {
    const env = await openTestEnv(engine);
    await importBundle(env.store, env.blobs, bundle(), { baseDir: env.dataDir });
    t = await serveEnv(
      { ...env, store: { ...env.store, db: env.store.db.withPlugin(spy) } },
      // The SQL walk is what this measures: with the rows index on, these pages come from memory once the type's
      // table is loaded (test/rows-index.test.ts compares those with the SQL).
      { cache: { ...env.config.cache, l1MaxBytes: 1 }, listIndexMb: 0 },
    );
  }, 60_000);
  afterAll(async () => t.close());

  async function walkAll(query: string, limit: number): Promise<string[]> {
    const ids: string[] = [];
    const first = `/v1/${SPACE}/entries?type=product&limit=${limit}&${query}`;
    let url = first;
    for (let n = 0; n < 200; n++) {
      const r = await t.get(url, pub);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      ids.push(...(r.body.items as { id: string }[]).map((i) => i.id));
      if (r.body.nextCursor === null) return ids;
      url = `${first}&cursor=${encodeURIComponent(String(r.body.nextCursor))}`;
    }
    throw new Error('too many pages');
  }

  // The part of a walk with values selects its missing flag as a constant (sortParts computes it per row).
  const walked = () => pages.filter((q) => q.includes('0 as k0')).length;

  it.each([
    ['fields.price', 'big', null, 100],
    ['-fields.price', 'big', null, 100],
    ['fields.price', 'big', 60, 37],
    ['-fields.price', 'big', 60, 37],
  ] as const)(
    'sort=%s, category %s, price ≥ %s, %s a page: walks the index, pages as sorted',
    async (sort, category, min, limit) => {
      pages.length = 0;
      const filter = `filter[fields.category][eq]=${category}${min === null ? '' : `&filter[fields.price][gte]=${min}`}`;
      const ids = await walkAll(`${filter}&sort=${sort}`, limit);
      expect(ids).toEqual(expected(category, sort.startsWith('-'), min));
      // More than SPARSE_TOTAL (1,000) match: every page walked the number's index.
      expect(walked()).toBeGreaterThan(0);
    },
  );

  it.each(['fields.price', '-fields.price'])(
    'sort=%s on a sparse category sorts its matches, with the same order',
    async (sort) => {
      pages.length = 0;
      const ids = await walkAll(`filter[fields.category][eq]=small&sort=${sort}`, 50);
      expect(ids).toEqual(expected('small', sort.startsWith('-'), null));
      expect(walked()).toBe(0);
    },
  );

  it('reads the walk from the number slot index, in order, without a sort step', async () => {
    const types: TypeMap = new Map([['product', productType]]);
    const query = {
      type: 'product',
      'filter[fields.category][eq]': 'big',
      sort: '-fields.price',
      limit: '20',
    };
    const plan = listPlan(parseListQuery(query, types, 'en'), types, {
      spaceId: SPACE,
      cv: 1_000_000,
      locale: 'en',
      under: null,
      after: null,
    });
    const slot = numberWalkSlot(plan);
    expect(slot).toMatch(/^n\d$/);
    const [, values] = compileList(t.store, plan, false, slot);
    if (!values) throw new Error('no walk statement');
    const explain =
      engine === 'sqlite' ? `explain query plan ${values.sql}` : `explain (costs off) ${values.sql}`;
    const { rows } = await t.store.db.executeQuery<Record<string, unknown>>(
      CompiledQuery.raw(explain, [...values.parameters]),
    );
    const text = rows.map((r) => String(r.detail ?? r['QUERY PLAN'])).join('\n');
    if (engine === 'sqlite') {
      expect(text).toMatch(new RegExp(`COVERING INDEX list_rows_${slot}`));
      expect(text).not.toMatch(/TEMP B-TREE/);
    } else {
      expect(text).toMatch(new RegExp(`Index Only Scan (Backward )?using list_rows_${slot}`));
      expect(text).not.toMatch(/Sort/);
    }
  });
});

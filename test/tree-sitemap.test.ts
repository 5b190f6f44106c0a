import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sitemapBatches } from '../src/delivery/list/sitemap-repo.js';
import type { TestApp } from './helpers/app.js';
import { ENGINES } from './helpers/engines.js';
import { LIST_SPACE, LIST_TOKENS, openListApp } from './helpers/list-fixture.js';

const v1 = `/v1/${LIST_SPACE}`;
const pub = { authorization: `Bearer ${LIST_TOKENS.public}` };
const prv = { authorization: `Bearer ${LIST_TOKENS.preview}` };

interface Node {
  id: string;
  path: string;
  slug: string;
  children: Node[];
}
/** A tree as nested [id, children] pairs, leaves as plain ids. */
type Shape = (string | [string, Shape])[];
const shape = (nodes: Node[]): Shape =>
  nodes.map((n) => (n.children.length === 0 ? n.id : ([n.id, shape(n.children)] as [string, Shape])));

describe.each(ENGINES)('tree and sitemap on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openListApp(engine);
  });
  afterAll(async () => t.close());

  describe('GET /tree (spec 4.2)', () => {
    it('nests pages and folders by position, without globals or non-page items', async () => {
      const r = await t.get(`${v1}/tree`, pub);
      expect(r.status).toBe(200);
      expect(shape(r.body.items)).toEqual([
        'ent_about',
        [
          'ent_shop',
          ['ent_shophome', 'ent_i2', 'ent_i3', 'ent_i1', 'ent_i4', ['ent_sale', ['ent_i6', 'ent_i5']]],
        ],
      ]);
      expect(r.body).toMatchObject({ locale: 'en', under: null, cv: 1 });
      expect(r.body.items[1]).toMatchObject({
        id: 'ent_shop',
        type: 'folder',
        name: 'Shop',
        slug: 'shop',
        path: '/shop',
        position: 1,
        isFolder: true,
      });
      expect(r.body.items[1].children[0]).toEqual({
        id: 'ent_shophome',
        type: 'page',
        name: 'Shop home',
        slug: '',
        path: '/shop',
        position: 0,
        isFolder: false,
        children: [],
      });
    });

    it('stops at depth and starts under a folder, in the locale', async () => {
      expect(shape((await t.get(`${v1}/tree?depth=1`, pub)).body.items)).toEqual(['ent_about', 'ent_shop']);
      const two = await t.get(`${v1}/tree?depth=2`, pub);
      expect(two.body.items[1].children.at(-1)).toMatchObject({ id: 'ent_sale', children: [] });
      const sale = await t.get(`${v1}/tree?under=/Laden/Sale/&locale=de&depth=1`, pub);
      expect(sale.body).toMatchObject({ under: '/laden/sale', locale: 'de' });
      expect(sale.body.items.map((n: Node) => [n.id, n.path, n.slug])).toEqual([
        ['ent_i6', '/laden/sale/stool', 'stool'],
        ['ent_i5', '/laden/sale/clock', 'clock'],
      ]);
      const about = await t.get(`${v1}/tree?locale=de&depth=1`, pub);
      expect(about.body.items[0]).toMatchObject({ path: '/ueber', slug: 'ueber' });
    });

    it('shows drafts to preview tokens', async () => {
      const r = await t.get(`${v1}/tree?draft=1&under=/shop&depth=1`, prv);
      expect(r.body.items.map((n: Node) => n.id)).toEqual([
        'ent_shophome',
        'ent_i2',
        'ent_i3',
        'ent_i1',
        'ent_i4',
        'ent_unpublished',
        'ent_sale',
      ]);
      expect(r.headers['cache-control']).toBe('private, no-store');
    });

    it.each([
      ['under=/about', 'under'],
      ['under=/nowhere', 'under'],
      ['depth=0', 'depth'],
      ['depth=11', 'depth'],
      ['depth=two', 'depth'],
      ['include=maker', 'include'],
    ])('400 for %s', async (query, parameter) => {
      const r = await t.get(`${v1}/tree?${query}`, pub);
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'invalid_query', details: { parameter } });
    });
  });

  describe('GET /sitemap (spec 2.7, 4.2)', () => {
    const paths = (body: { items: { path: string }[] }) => body.items.map((i) => i.path);

    it('lists indexable pages in path order with updatedAt and alternates', async () => {
      const r = await t.get(`${v1}/sitemap`, pub);
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(paths(r.body)).toEqual([
        '/about',
        '/shop',
        '/shop/chair',
        '/shop/desk',
        '/shop/lamp',
        '/shop/sale/clock',
        '/shop/shelf',
      ]);
      expect(r.body).toMatchObject({ locale: 'en', cv: 1 });
      expect(r.body.items[4]).toEqual({
        id: 'ent_i1',
        type: 'item',
        path: '/shop/lamp',
        updatedAt: '2026-02-10T10:00:00.000Z',
        alternates: { en: '/shop/lamp', de: '/laden/lamp', 'de-ch': '/laden/lamp' },
      });
    });

    it('leaves out noindex per locale, after fallback', async () => {
      // ent_i6 has noindex in English only; de-ch falls back to de's SEO value.
      expect(paths((await t.get(`${v1}/sitemap`, pub)).body)).not.toContain('/shop/sale/stool');
      for (const locale of ['de', 'de-ch'])
        expect(paths((await t.get(`${v1}/sitemap?locale=${locale}`, pub)).body)).toContain(
          '/laden/sale/stool',
        );
    });

    it('filters by page types and rejects other types', async () => {
      const r = await t.get(`${v1}/sitemap?types=page`, pub);
      expect(paths(r.body)).toEqual(['/about', '/shop']);
      for (const types of ['maker', 'folder', 'footer', 'nope', ',']) {
        const bad = await t.get(`${v1}/sitemap?types=${types}`, pub);
        expect(bad.status).toBe(400);
        expect(bad.body.error.details).toEqual({ parameter: 'types' });
      }
    });

    it('serves drafts to preview tokens', async () => {
      const r = await t.get(`${v1}/sitemap?draft=1&types=item`, prv);
      expect(paths(r.body)).toEqual([
        '/shop/chair',
        '/shop/desk',
        '/shop/draft',
        '/shop/lamp',
        '/shop/sale/clock',
        '/shop/shelf',
      ]);
    });

    it('reads in keyset batches that join up without gaps or repeats', async () => {
      const all: string[] = [];
      for await (const batch of sitemapBatches(t.store, LIST_SPACE, 1, 'de', ['en', 'de'], null, 2)) {
        expect(batch.length).toBeLessThanOrEqual(2);
        all.push(...batch.map((i) => i.path));
      }
      expect(all).toEqual(paths((await t.get(`${v1}/sitemap?locale=de`, pub)).body));
      expect(all).toHaveLength(8);
    });
  });
});

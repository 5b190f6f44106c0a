import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBundle } from '../src/bundle/import-bundle.js';
import { publishEntries, saveDraft, unpublishEntries } from '../src/content/publish-entries.js';
import { backfillListTables, clearListSpace } from '../src/delivery/list/list-write-repo.js';
import { prunePublished, withPublish } from '../src/content/publish-log.js';
import type { TestApp } from './helpers/app.js';
import { ENGINES } from './helpers/engines.js';
import { listBundle, LIST_SPACE, LIST_TOKENS, openListApp } from './helpers/list-fixture.js';

const entries = `/v1/${LIST_SPACE}/entries`;
const pub = { authorization: `Bearer ${LIST_TOKENS.public}` };
const prv = { authorization: `Bearer ${LIST_TOKENS.preview}` };
const order = (body: { items: { id: string }[] }) => body.items.map((i) => i.id);

// Distinct filter names (a repeated name is one parameter given twice).
const manyFilters = (n: number) =>
  [
    ...['eq', 'ne', 'in', 'nin', 'contains', 'gt', 'gte', 'lt', 'lte'].map(
      (op) => `filter[fields.title][${op}]=x`,
    ),
    ...['eq', 'ne', 'in', 'nin', 'gt', 'gte', 'lt', 'lte'].map((op) => `filter[fields.price][${op}]=1`),
    'filter[fields.price][exists]=true',
    'filter[fields.color][ne]=x',
    'filter[fields.maker][ne]=x',
    'filter[tags][ne]=x',
  ]
    .slice(0, n)
    .join('&');
const twentyOne = manyFilters(21);

/** spec 4.3, 7.1: bad list parameters answer 400 invalid_query naming the parameter. */
const BAD: [string, string][] = [
  ['filter[fields.title][like]=x', 'filter[fields.title][like]'],
  [twentyOne, 'filter'],
  ['sort=rating', 'sort'],
  ['sort=fields.nope', 'sort'],
  ['sort=fields.related', 'sort'],
  ['sort=name,-name', 'sort'],
  ['cursor=not-a-cursor', 'cursor'],
  ['cursor=a&cursor=b', 'cursor'],
  ['limit=0', 'limit'],
  ['limit=101', 'limit'],
  ['limit=ten', 'limit'],
  ['under=/shop/lamp', 'under'],
  ['under=/nowhere', 'under'],
  ['under=shop', 'under'],
  ['filter[fields.price][gt]=cheap', 'filter[fields.price][gt]'],
  ['filter[fields.released][eq]=2024-13-45', 'filter[fields.released][eq]'],
  ['filter[fields.updated][gte]=yesterday', 'filter[fields.updated][gte]'],
  ['filter[fields.active][gt]=true', 'filter[fields.active][gt]'],
  ['filter[fields.active][eq]=yes', 'filter[fields.active][eq]'],
  ['filter[fields.maker][contains]=ent', 'filter[fields.maker][contains]'],
  ['filter[fields.title][exists]=maybe', 'filter[fields.title][exists]'],
  ['filter[fields.nope][eq]=1', 'filter[fields.nope][eq]'],
  ['filter[fields.blurb][eq]=x', 'filter[fields.blurb][eq]'],
  ['filter[fields.seo][exists]=true', 'filter[fields.seo][exists]'],
  ['filter[rating][eq]=1', 'filter[rating][eq]'],
  [
    'filter[fields.price][in]=' + Array.from({ length: 101 }, (_, i) => i).join(','),
    'filter[fields.price][in]',
  ],
  ['filters=1', 'filters'],
  ['type=footer', 'type'],
  ['type=folder', 'type'],
  ['type=nope', 'type'],
  ['search=%20%2C', 'search'],
  ['tags=', 'tags'],
  ['page=2', 'page'],
  ['limit=1&limit=2', 'limit'],
  ['filter[fields.title][eq]=a%00b', 'filter[fields.title][eq]'],
  ['search=a%00b', 'search'],
];

describe.each(ENGINES)('entry list parameters and cursors on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openListApp(engine);
  });
  afterAll(async () => t.close());

  it.each(BAD)('400 for %s', async (query, parameter) => {
    const r = await t.get(`${entries}?${query}`, pub);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_query', details: { parameter } });
    expect(r.body.error.message).toContain(parameter === 'filter' ? 'filters' : parameter.split('[')[0]);
    expect(r.headers['cache-control']).toBe('no-store');
  });

  it('accepts 20 filters and the limit bounds 1 and 100', async () => {
    const twenty = await t.get(`${entries}?type=item&${manyFilters(20)}`, pub);
    expect(twenty.status).toBe(200);
    expect(twenty.body.total).toBe(0);
    expect((await t.get(`${entries}?limit=1`, pub)).body.items).toHaveLength(1);
    expect((await t.get(`${entries}?limit=100`, pub)).body.items).toHaveLength(10);
  });

  it('rejects a tampered cursor, a cursor of another query or view, and a cv that contradicts it', async () => {
    const first = await t.get(`${entries}?type=item&limit=2`, pub);
    const cursor: string = first.body.nextCursor;
    const [body, sig] = cursor.split('.');
    const flipped = `${body}.${sig?.startsWith('A') ? 'B' : 'A'}${sig?.slice(1)}`;
    const forged = Buffer.from(JSON.stringify([1, 1, 'x', ['2099-01-01T00:00:00.000Z', 'ent_zzz']])).toString(
      'base64url',
    );
    for (const bad of [flipped, `${forged}.${sig}`, `${cursor}.x`, cursor.slice(0, -3)]) {
      const r = await t.get(`${entries}?type=item&limit=2&cursor=${encodeURIComponent(bad)}`, pub);
      expect(r.status).toBe(400);
      expect(r.body.error.details).toEqual({ parameter: 'cursor' });
    }
    const c = encodeURIComponent(cursor);
    for (const other of ['type=item&limit=2&sort=name', 'type=item&limit=2&locale=de', 'limit=2']) {
      const r = await t.get(`${entries}?${other}&cursor=${c}`, pub);
      expect(r.body.error.details).toEqual({ parameter: 'cursor' });
    }
    const draft = await t.get(`${entries}?type=item&limit=2&draft=1&cursor=${c}`, prv);
    expect(draft.body.error.details).toEqual({ parameter: 'cursor' });
    const cv = await t.get(`${entries}?type=item&limit=2&cv=1&cursor=${c}`, pub);
    expect(cv.status).toBe(200);
    // The limit may change between pages: it is not part of what the cursor selects.
    expect((await t.get(`${entries}?type=item&limit=3&cursor=${c}`, pub)).status).toBe(200);
  });

  it('keeps later pages on the cv the first page was read at, across publishes', async () => {
    const url = `${entries}?type=item&limit=2&sort=-publishedAt`;
    const first = await t.get(url, pub);
    expect(order(first.body)).toEqual(['ent_i6', 'ent_i5']);
    const startCv = first.body.cv;
    // Republishing i1 makes it the newest; unpublishing i4 removes it; a new cv either way.
    await saveDraft(t.store, LIST_SPACE, 'ent_i1', { title: { en: 'Alpha lamp II' }, price: 11 });
    await publishEntries(t.store, LIST_SPACE, ['ent_i1'], new Date('2026-03-01T00:00:00.000Z'));
    await unpublishEntries(t.store, LIST_SPACE, ['ent_i4']);
    const next = await t.get(`${url}&cursor=${encodeURIComponent(first.body.nextCursor)}`, pub);
    expect(next.body.cv).toBe(startCv);
    expect(order(next.body)).toEqual(['ent_i4', 'ent_i3']);
    expect(next.body.total).toBe(6);
    expect(next.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // A new listing sees the publishes: i1 first with its new values, i4 gone, the old value not found.
    const now = await t.get(url, pub);
    expect(now.body.cv).toBeGreaterThan(startCv);
    expect(order(now.body)).toEqual(['ent_i1', 'ent_i6']);
    expect(now.body.total).toBe(5);
    expect((await t.get(`${entries}?filter[fields.price][eq]=11`, pub)).body.total).toBe(1);
    expect((await t.get(`${entries}?filter[fields.price][eq]=10`, pub)).body.total).toBe(0);
    // A pinned cv still lists what was published then, full text included.
    const pinned = await t.get(`${entries}?filter[fields.price][eq]=10&cv=${startCv}`, pub);
    expect(order(pinned.body)).toEqual(['ent_i1']);
    expect((await t.get(`${entries}?search=reading`, pub)).body.total).toBe(0);
    expect(order((await t.get(`${entries}?search=reading&cv=${startCv}`, pub)).body)).toEqual(['ent_i1']);
    expect(order((await t.get(`${entries}?search=lamp II`, pub)).body)).toEqual(['ent_i1']);
  });

  it('rebuilds the list rows of earlier versions from the log (migration 0003 backfill)', async () => {
    const urls = [
      `${entries}?limit=100&sort=name`,
      `${entries}?limit=100&sort=name&cv=1`,
      `${entries}?filter[fields.price][eq]=10&cv=1`,
      `${entries}?search=chair&type=item`,
      `/v1/${LIST_SPACE}/sitemap?locale=de`,
      `/v1/${LIST_SPACE}/tree`,
    ];
    const before = await Promise.all(urls.map(async (u) => (await t.get(u, pub)).body));
    await t.store.db.transaction().execute(async (tx) => {
      await clearListSpace(tx, t.store.dialect, LIST_SPACE);
      await backfillListTables(tx, t.store.dialect);
    });
    const after = await Promise.all(urls.map(async (u) => (await t.get(u, pub)).body));
    expect(after).toEqual(before);
    // History included: at cv 1 the unpublished i4 is listed and i1 still costs 10.
    expect(before[0].total).toBe(9);
    expect(before[1].total).toBe(10);
    expect(before[2].items.map((i: { id: string }) => i.id)).toEqual(['ent_i1']);
  });

  it('answers 410 cv_expired for a cursor older than the kept history', async () => {
    const first = await t.get(`${entries}?type=item&limit=2`, pub);
    await saveDraft(t.store, LIST_SPACE, 'ent_i2', { title: { en: 'Beta chair II' } });
    await publishEntries(t.store, LIST_SPACE, ['ent_i2']);
    const { cv } = await withPublish(t.store, LIST_SPACE, async (tx, next) =>
      prunePublished(tx, t.store.dialect, LIST_SPACE, next),
    );
    const url = `${entries}?type=item&limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`;
    let r = await t.get(url, pub);
    // The space's min cv reaches this process's directory just after the publish signal.
    for (let i = 0; i < 50 && r.status !== 410; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      r = await t.get(url, pub);
    }
    expect(r.status).toBe(410);
    expect(r.body.error).toMatchObject({ code: 'cv_expired', details: { oldestCv: cv } });
    // Pruning removed the old list rows: only the open versions are left.
    const rows = await t.store.db
      .selectFrom('list_entries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('space_id', '=', LIST_SPACE)
      .where('cv_to', '<=', cv)
      .executeTakeFirst();
    expect(Number(rows?.n)).toBe(0);
  });

  it('forgets the list rows of a space replaced by an import', async () => {
    const bundle = listBundle();
    const keep = new Set(['ent_shop', 'ent_i1', 'ent_i2', 'ent_i3', 'ent_m1', 'ent_m2']);
    bundle.entries = (bundle.entries as { id: string }[]).filter((e) => keep.has(e.id));
    await importBundle(t.store, t.blobs, bundle, { baseDir: t.dataDir, replace: true });
    const r = await t.get(`${entries}?limit=100`, pub);
    expect(order(r.body).sort()).toEqual(['ent_i1', 'ent_i2', 'ent_i3', 'ent_m1', 'ent_m2']);
    expect((await t.get(`${entries}?search=lamp`, pub)).body.total).toBe(1);
    expect((await t.get(`/v1/${LIST_SPACE}/sitemap`, pub)).body.items).toHaveLength(3);
  });

  it('needs a preview token for drafts', async () => {
    const r = await t.get(`${entries}?draft=1`, pub);
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('preview_token_required');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers/app.js';
import { ENGINES } from './helpers/engines.js';
import { LIST_SPACE, LIST_TOKENS, openListApp } from './helpers/list-fixture.js';

const base = `/v1/${LIST_SPACE}/entries?type=item`;
const pub = { authorization: `Bearer ${LIST_TOKENS.public}` };
const prv = { authorization: `Bearer ${LIST_TOKENS.preview}` };
const ids = (...n: number[]) => n.map((i) => `ent_i${i}`);

/**
 * spec 4.3 `sort`: [query, expected order]. Text sorts in UTF-8 byte order (upper case before lower case) on
 * both engines; entries without the sorted value come last in both directions; ties are broken by id in the
 * direction of the last key.
 */
const SORTS: [string, string[]][] = [
  ['', ids(6, 5, 4, 3, 2, 1)],
  ['sort=-publishedAt', ids(6, 5, 4, 3, 2, 1)],
  ['sort=publishedAt', ids(1, 2, 3, 4, 5, 6)],
  ['sort=firstPublishedAt', ids(6, 5, 4, 3, 2, 1)],
  ['sort=name', ids(5, 3, 1, 6, 2, 4)],
  ['sort=-name', ids(4, 2, 6, 1, 3, 5)],
  ['sort=position', ids(6, 2, 5, 3, 1, 4)],
  ['sort=-position', ids(4, 1, 3, 5, 2, 6)],
  ['sort=path', ids(2, 3, 1, 5, 6, 4)],
  ['sort=-path&locale=de', ids(4, 6, 5, 1, 3, 2)],
  ['sort=fields.price', ids(5, 4, 1, 2, 3, 6)],
  ['sort=-fields.price', ids(3, 2, 1, 4, 5, 6)],
  ['sort=fields.title', ids(1, 2, 3, 6, 4, 5)],
  ['sort=-fields.title', ids(4, 6, 3, 2, 1, 5)],
  ['sort=fields.title&locale=de-ch', ids(1, 2, 5, 3, 6, 4)],
  ['sort=fields.color,-fields.price', ids(2, 6, 3, 1, 5, 4)],
  ['sort=fields.active', ids(2, 5, 1, 3, 6, 4)],
  ['sort=fields.released', ids(3, 4, 1, 2, 5, 6)],
  ['sort=-fields.updated', ids(5, 6, 2, 1, 3, 4)],
  ['sort=fields.maker,name', ids(3, 1, 6, 5, 2, 4)],
  ['sort=fields.maker,-position', ids(1, 3, 6, 5, 2, 4)],
  ['sort=-fields.active,fields.price', ids(1, 3, 6, 5, 2, 4)],
];

describe.each(ENGINES)('entry list sorting and cursors on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openListApp(engine);
  });
  afterAll(async () => t.close());

  const order = (body: { items: { id: string }[] }) => body.items.map((i) => i.id);

  /** Every page from the first, following nextCursor. */
  async function walk(url: string, headers: Record<string, string>): Promise<string[]> {
    const seen: string[] = [];
    let next: string | null = url;
    for (let guard = 0; next !== null && guard < 20; guard++) {
      const r = await t.get(next, headers);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.total).toBe(6);
      seen.push(...order(r.body));
      next = r.body.nextCursor === null ? null : `${url}&cursor=${encodeURIComponent(r.body.nextCursor)}`;
    }
    return seen;
  }

  it.each(SORTS)('%s', async (query, expected) => {
    const full = await t.get(`${base}&limit=100&${query}`, pub);
    expect(order(full.body)).toEqual(expected);
    expect(full.body.nextCursor).toBeNull();
    // Keyset pages of 2 and 4 give the same sequence, without gaps or repeats.
    expect(await walk(`${base}&limit=2&${query}`, pub)).toEqual(expected);
    expect(await walk(`${base}&limit=4&${query}`, pub)).toEqual(expected);
    // The in-memory preview orders the same way.
    const draft = `${base}&limit=2&draft=1&filter[id][ne]=ent_unpublished&${query}`;
    expect(await walk(draft, prv)).toEqual(expected);
  });

  it('ranks search results and pages through them', async () => {
    const r = await t.get(`/v1/${LIST_SPACE}/entries?search=chair&limit=1`, pub);
    expect(order(r.body)).toEqual(['ent_i2']);
    expect(r.body).toMatchObject({ total: 1, nextCursor: null });
    const all = await t.get(`/v1/${LIST_SPACE}/entries?search=shop&limit=100`, pub);
    expect(all.body.total).toBe(1);
    expect(order(all.body)).toEqual(['ent_shophome']);
  });
});

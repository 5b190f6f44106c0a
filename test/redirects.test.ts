import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines.js';
import { type ManagementApp, openManagementApp, type Res } from './helpers/management.js';

/** Creates a page through the management API and publishes it; returns its id. */
async function page(
  t: ManagementApp,
  slug: string,
  extra: { slugs?: Record<string, string>; parent?: string; type?: string } = {},
): Promise<string> {
  const created = await t.api('POST', '/entries', {
    type: extra.type ?? 'page',
    name: slug || 'start',
    slug,
    ...(extra.slugs ? { slugs: extra.slugs } : {}),
    ...(extra.parent ? { parent: extra.parent } : {}),
    fields: extra.type === 'folder' ? {} : { title: { en: `Title ${slug}` } },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id: string = created.body.entry.id;
  const published = await t.api('POST', `/entries/${id}/publish`);
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  return id;
}

const byPath = (t: ManagementApp, path: string, locale = 'en') =>
  t.get(`/entries/by-path/${path.replace(/^\//, '')}?locale=${locale}`);

async function redirects(t: ManagementApp, locale = 'en', cv?: number) {
  const r = await t.get(`/redirects?locale=${locale}${cv === undefined ? '' : `&cv=${cv}`}`);
  expect(r.status).toBe(200);
  return r.body.redirects as { from: string; to: string | null; status: number }[];
}

/** spec 7.3: the 404 of an old path carries `redirect: { to, status }`. */
function expectRedirect(r: Res, to: string | null, status: number): void {
  expect(r.status).toBe(404);
  expect(r.body.error.code).toBe('not_found');
  expect(r.body.redirect).toEqual({ to, status });
}

/** spec 2.6 rule 2: no redirect leads to the path another one starts from. */
function expectNoChains(list: { from: string; to: string | null }[]): void {
  const froms = new Set(list.map((r) => r.from.toLowerCase()));
  for (const r of list)
    if (r.to !== null) expect(froms.has(r.to.toLowerCase()), `${r.from} → ${r.to}`).toBe(false);
}

describe.each(ENGINES)('redirects on %s (spec 2.6, 7.3)', (engine) => {
  let t: ManagementApp;
  beforeAll(async () => {
    t = await openManagementApp(engine, { worker: false });
  });
  afterAll(async () => t.close());

  it('renaming a slug redirects the old path to the new one, per locale', async () => {
    const id = await page(t, 'team', { slugs: { de: 'mannschaft' } });
    const renamed = await t.api('POST', `/entries/${id}/rename`, { slug: 'people' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.cv).toEqual(expect.any(Number));
    expectRedirect(await byPath(t, 'team'), '/people', 301);
    expect((await byPath(t, 'people')).body.entry.id).toBe(id);
    // de has its own slug: its path did not change, so there is no de redirect from it.
    expect((await byPath(t, 'mannschaft', 'de')).body.entry.id).toBe(id);
    expect(await redirects(t, 'en')).toContainEqual({ from: '/team', to: '/people', status: 301 });
    expect((await redirects(t, 'de')).some((r) => r.from === '/team')).toBe(false);
    // Renaming the de slug moves de and de-ch (which falls back to de's slug).
    await t.api('POST', `/entries/${id}/rename`, { slugs: { de: 'leute' } });
    expectRedirect(await byPath(t, 'mannschaft', 'de'), '/leute', 301);
    expectRedirect(await byPath(t, 'mannschaft', 'de-ch'), '/leute', 301);
  });

  it('a renamed folder moves everything below it, in every locale', async () => {
    const rename = await t.api('POST', '/entries/ent_blog/rename', { slug: 'news' });
    expect(rename.status).toBe(200);
    expectRedirect(await byPath(t, 'blog/hello'), '/news/hello', 301);
    expectRedirect(await byPath(t, 'blog/hallo', 'de'), '/news/hallo', 301);
    expectRedirect(await byPath(t, 'blog/hallo', 'de-ch'), '/news/hallo', 301);
    // The folder's start page moved with it.
    expectRedirect(await byPath(t, 'blog'), '/news', 301);
    expect((await byPath(t, 'news/hallo', 'de')).body.entry.id).toBe('ent_post');
  });

  it('redirects follow a page that moves again: both old paths point to the final one', async () => {
    const folder = await page(t, 'archive', { type: 'folder' });
    const id = await page(t, 'moving');
    expect((await t.api('POST', `/entries/${id}/move`, { parent: 'ent_blog' })).status).toBe(200);
    expectRedirect(await byPath(t, 'moving'), '/news/moving', 301);
    const again = await t.api('POST', `/entries/${id}/move`, { parent: folder });
    expect(again.status).toBe(200);
    expect(again.body.entry.parentId).toBe(folder);
    expectRedirect(await byPath(t, 'moving'), '/archive/moving', 301);
    expectRedirect(await byPath(t, 'news/moving'), '/archive/moving', 301);
    const list = await redirects(t, 'en');
    expect(list).toContainEqual({ from: '/moving', to: '/archive/moving', status: 301 });
    expect(list).toContainEqual({ from: '/news/moving', to: '/archive/moving', status: 301 });
    expectNoChains(list);
    for (const locale of ['en', 'de', 'de-ch']) expectNoChains(await redirects(t, locale));
  });

  it('a deleted target answers 410 with to: null', async () => {
    const id = await page(t, 'doomed');
    await t.api('POST', `/entries/${id}/rename`, { slug: 'doomed-2' });
    expectRedirect(await byPath(t, 'doomed'), '/doomed-2', 301);
    const deleted = await t.api('DELETE', `/entries/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id, deleted: true, cv: expect.any(Number) });
    expectRedirect(await byPath(t, 'doomed'), null, 410);
    expect(await redirects(t, 'de')).toContainEqual({ from: '/doomed', to: null, status: 410 });
    // Its own last path is simply unknown now.
    const last = await byPath(t, 'doomed-2');
    expect(last.status).toBe(404);
    expect(last.body.redirect).toBeUndefined();
  });

  it('an unpublished target leaves the redirect out until it is published again', async () => {
    const id = await page(t, 'u-one');
    await t.api('POST', `/entries/${id}/rename`, { slug: 'u-two' });
    expectRedirect(await byPath(t, 'u-one'), '/u-two', 301);
    expect((await t.api('POST', `/entries/${id}/unpublish`)).status).toBe(200);
    const gone = await byPath(t, 'u-one');
    expect(gone.status).toBe(404);
    expect(gone.body.redirect).toBeUndefined();
    expect((await redirects(t)).some((r) => r.from === '/u-one')).toBe(false);
    expect((await t.api('POST', `/entries/${id}/publish`)).status).toBe(200);
    expectRedirect(await byPath(t, 'u-one'), '/u-two', 301);
    expect(await redirects(t)).toContainEqual({ from: '/u-one', to: '/u-two', status: 301 });
  });

  it('a new page on an old path wins over the redirect from it', async () => {
    const id = await page(t, 'w-one');
    await t.api('POST', `/entries/${id}/rename`, { slug: 'w-two' });
    expectRedirect(await byPath(t, 'w-one'), '/w-two', 301);
    const newcomer = await page(t, 'w-one');
    expect((await byPath(t, 'w-one')).body.entry.id).toBe(newcomer);
    expect((await redirects(t)).some((r) => r.from === '/w-one')).toBe(false);
    // The newcomer goes away: the old redirect is there again.
    await t.api('POST', `/entries/${newcomer}/unpublish`);
    expectRedirect(await byPath(t, 'w-one'), '/w-two', 301);
  });

  it('moving a page back to its old path drops the redirect from it', async () => {
    const id = await page(t, 'back-a');
    await t.api('POST', `/entries/${id}/rename`, { slug: 'back-b' });
    await t.api('POST', `/entries/${id}/rename`, { slug: 'back-a' });
    expect((await byPath(t, 'back-a')).body.entry.id).toBe(id);
    expectRedirect(await byPath(t, 'back-b'), '/back-a', 301);
    const list = await redirects(t);
    expect(list.some((r) => r.from === '/back-a')).toBe(false);
    expectNoChains(list);
  });

  it('matching ignores letter case, a trailing slash and the query string', async () => {
    const id = await page(t, 'Case-Page');
    await t.api('POST', `/entries/${id}/rename`, { slug: 'case-new' });
    for (const path of ['case-page', 'CASE-PAGE/', 'Case-Page%3Futm_source%3Dmail', 'case-page/%3Fa%3D1'])
      expectRedirect(await byPath(t, path), '/case-new', 301);
    expect(await redirects(t)).toContainEqual({ from: '/Case-Page', to: '/case-new', status: 301 });
  });

  it('pinned cvs keep the redirects of their time (immutable)', async () => {
    const id = await page(t, 'pin-a');
    const before = (await t.get('/status')).body.cv as number;
    await t.api('POST', `/entries/${id}/rename`, { slug: 'pin-b' });
    expect((await redirects(t, 'en', before)).some((r) => r.from === '/pin-a')).toBe(false);
    expect(await redirects(t, 'en')).toContainEqual({ from: '/pin-a', to: '/pin-b', status: 301 });
    const pinned = await t.get(`/entries/by-path/pin-a?cv=${before}`);
    expect(pinned.body.entry.id).toBe(id);
    const r = await t.get(`/redirects?locale=en&cv=${before}`);
    expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(r.body.cv).toBe(before);
  });

  it('a move that would put two pages on one path is refused whole (409)', async () => {
    const a = await page(t, 'clash');
    const b = await page(t, 'clash-other');
    const cvBefore = (await t.get('/status')).body.cv;
    const r = await t.api('POST', `/entries/${b}/rename`, { slug: 'CLASH' });
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('conflict');
    expect((await t.get('/status')).body.cv).toBe(cvBefore);
    expect((await t.api('GET', `/entries/${b}`)).body.entry.slug).toBe('clash-other');
    expect((await byPath(t, 'clash')).body.entry.id).toBe(a);
  });

  describe('manual redirects', () => {
    it('redirect to URLs or entries, 301 or 302, shared or per locale', async () => {
      const url = await t.api('POST', '/redirects', {
        from: '/Promo',
        to: { kind: 'url', url: 'https://shop.example/sale' },
        status: 302,
        locale: 'de',
      });
      expect(url.status).toBe(201);
      expect(url.body.redirect).toMatchObject({
        id: expect.stringMatching(/^rdr_/),
        from: '/Promo',
        status: 302,
      });
      const entry = await t.api('POST', '/redirects', {
        from: '/company',
        to: { kind: 'entry', entry: 'ent_about' },
      });
      expect(entry.status).toBe(201);
      expect(entry.body.redirect).toMatchObject({ status: 301, locale: null });
      expect(await redirects(t, 'de')).toContainEqual({
        from: '/Promo',
        to: 'https://shop.example/sale',
        status: 302,
      });
      expect((await redirects(t, 'en')).some((r) => r.from === '/Promo')).toBe(false);
      expect(await redirects(t, 'de')).toContainEqual({ from: '/company', to: '/ueber-uns', status: 301 });
      expect(await redirects(t, 'en')).toContainEqual({ from: '/company', to: '/about', status: 301 });
      expectRedirect(await byPath(t, 'promo', 'de'), 'https://shop.example/sale', 302);
      // The imported fixture redirect follows its entry too.
      expectRedirect(await byPath(t, 'old', 'de'), '/ueber-uns', 301);

      const patched = await t.api('PATCH', `/redirects/${entry.body.redirect.id}`, { status: 302 });
      expect(patched.status).toBe(200);
      expect(patched.body.cv).toBeGreaterThan(entry.body.cv);
      expectRedirect(await byPath(t, 'company'), '/about', 302);
      const removed = await t.api('DELETE', `/redirects/${entry.body.redirect.id}`);
      expect(removed.status).toBe(200);
      const after = await byPath(t, 'company');
      expect(after.body.redirect).toBeUndefined();
      const listed = await t.api('GET', '/redirects');
      expect(listed.body.redirects.some((r: { from: string }) => r.from === '/company')).toBe(false);
      expect(listed.body.redirects).toContainEqual(expect.objectContaining({ from: '/team', auto: true }));
    });

    it('every redirect change bumps cv and enqueues redirect.updated with it', async () => {
      const r = await t.api('POST', '/redirects', { from: '/evented', to: { kind: 'url', url: '/about' } });
      const rows = await t.store.db
        .selectFrom('outbox')
        .select('payload')
        .where('kind', '=', 'event')
        .execute();
      const events = rows.map((x) =>
        t.store.dialect.parseJson<{ type: string; data: { cv: number } }>(x.payload),
      );
      expect(events).toContainEqual(
        expect.objectContaining({ type: 'redirect.updated', data: { cv: r.body.cv } }),
      );
    });

    it('refuses bad redirects with the JSON path of the problem', async () => {
      const cases: [unknown, number, string][] = [
        [{ from: '/dup', to: { kind: 'entry', entry: 'ent_nope' } }, 422, 'to.entry'],
        [{ from: '/dup', to: { kind: 'entry', entry: 'ent_blog' } }, 422, 'to.entry'],
        [{ from: '/dup?x=1', to: { kind: 'url', url: '/a' } }, 422, 'from'],
        [{ from: '/dup', to: { kind: 'url', url: 'javascript:alert(1)' } }, 422, 'to.url'],
        [{ from: '/dup', to: { kind: 'url', url: '//evil.example' } }, 422, 'to.url'],
        [{ from: '/dup', to: { kind: 'url', url: '/a' }, locale: 'fr' }, 422, 'locale'],
        [{ from: '/dup', to: null, status: 301 }, 422, 'status'],
      ];
      for (const [body, status, path] of cases) {
        const r = await t.api('POST', '/redirects', body);
        expect([r.status, Object.keys(r.body.error.details?.fields ?? {})]).toEqual([status, [path]]);
      }
      const extra = await t.api('POST', '/redirects', { from: '/dup', to: null, auto: true });
      expect([extra.status, extra.body.error.code]).toEqual([400, 'invalid_body']);
      await t.api('POST', '/redirects', { from: '/dup', to: null });
      const dup = await t.api('POST', '/redirects', { from: '/DUP/', to: { kind: 'url', url: '/x' } });
      expect([dup.status, dup.body.error.code]).toEqual([409, 'conflict']);
      expectRedirect(await byPath(t, 'dup'), null, 410);
    });
  });
});

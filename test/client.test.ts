import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type FolioClient } from '../client/src/index.js';
import { importBundle } from '../src/bundle/import-bundle.js';
import { createJobRunner } from '../src/wiring/jobs.js';
import { failureOf, listenOnLoopback, recordingFetch } from './helpers/client.js';
import { ENGINES } from './helpers/engines.js';
import { TOKENS } from './helpers/fixture.js';
import { type FormsApp, openFormsApp } from './helpers/forms.js';
import { drainJobs } from './helpers/jobs.js';
import { startEmbeddingsServer } from './helpers/search.js';
import { tempDir } from './helpers/temp-dirs.js';

// The typed delivery client (client/src) against the real server over HTTP on loopback, on both
// engines: every read, list iteration along nextCursor, typed errors, ETag revalidation, cv pinning, sync, search.

const mgt = { authorization: `Bearer ${TOKENS.management}` };
const AI_TOKEN = 'folio_pub_ClientSearchToken000000001';

/** A small space with AI switched on, for /search. */
function aiBundle(): Record<string, unknown> {
  const published = { at: '2026-03-01T10:00:00.000Z', firstAt: '2026-01-01T10:00:00.000Z' };
  const page = (id: string, slug: string, title: string, body: string) => ({
    ...{ id, type: 'page', name: title, slug, parent: null, position: 0, tags: [], published },
    fields: { title: { en: title }, body: { en: body } },
  });
  return {
    format: 'folio-bundle@1',
    space: { id: 'spc_ai', name: 'AI', ai: true, locales: [{ code: 'en', default: true }] },
    tokens: [{ kind: 'public', value: AI_TOKEN }],
    types: [
      {
        key: 'page',
        kind: 'page',
        fields: [
          { key: 'title', type: 'text', localized: true },
          { key: 'body', type: 'textarea', localized: true },
        ],
      },
    ],
    entries: [
      page('ent_returns', 'returns', 'Returns', 'Send items back within 30 days and get your money back.'),
      page('ent_shipping', 'shipping', 'Delivery', 'Parcels arrive within two to four working days.'),
    ],
  };
}

const item = (id: string, label: string, link: unknown, children: unknown[] = []) => ({
  id,
  label: { en: label },
  link,
  target: null,
  children,
});

describe.each(ENGINES)('the typed client against the real server on %s', (engine) => {
  let t: FormsApp;
  let embeddings: Awaited<ReturnType<typeof startEmbeddingsServer>>;
  let baseUrl: string;
  let client: FolioClient;

  beforeAll(async () => {
    embeddings = await startEmbeddingsServer();
    t = await openFormsApp(engine, {
      worker: false,
      embeddings: {
        provider: 'http',
        url: embeddings.url,
        model: 'bag-of-words',
        apiKey: null,
        timeoutMs: 5000,
      },
    });
    await importBundle(t.store, t.blobs, aiBundle(), { baseDir: tempDir('folio-client-') });
    await drainJobs(t.store, createJobRunner({ store: t.store, blobs: t.blobs, config: t.config }));
    const menu = await t.inject({
      method: 'PUT',
      url: '/v1/spaces/spc_test/menus/main',
      headers: mgt,
      payload: {
        name: 'Main',
        items: [
          item('mni_blog', 'Blog', { kind: 'entry', entry: 'ent_blog' }, [
            item('mni_hello', 'Hello', { kind: 'entry', entry: 'ent_post' }),
          ]),
          item('mni_shop', 'Shop', { kind: 'url', url: 'https://shop.example/' }),
        ],
      },
    });
    expect(menu.status, menu.text).toBe(200);
    baseUrl = await listenOnLoopback(t.app);
    client = createClient({ baseUrl, spaceId: 'spc_test', token: TOKENS.public });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await embeddings?.close();
  });

  it('reads a page by path, by id and in another locale, with include and fields', async () => {
    const home = await client.entries.byPath('/', { include: 'author', fields: ['title', 'author'] });
    expect(home.entry).toMatchObject({ id: 'ent_home', path: '/', locale: 'en' });
    expect(Object.keys(home.entry.content.fields).sort()).toEqual(['author', 'title']);
    expect(home.included.entries.map((e) => e.id)).toEqual(['ent_alice']);
    expect(home.cv).toBeGreaterThan(0);

    const about = await client.entries.byPath('ueber-uns', { locale: 'de' });
    expect(about.entry).toMatchObject({ id: 'ent_about', path: '/ueber-uns', locale: 'de' });
    expect(about.entry.content.fields.title).toBe('Über uns');
    expect((await client.entries.byPath('/blog/hello')).entry.id).toBe('ent_post');

    const byId = await client.entries.get('ent_post', { locale: 'de-ch' });
    expect(byId.entry).toMatchObject({ id: 'ent_post', path: '/blog/hallo', locale: 'de-ch' });
    expect(byId.entry.content.fields.title).toBe('Hallo Welt');
  });

  it('iterates a list across pages along nextCursor, and reads single pages', async () => {
    const { fetch, exchanges } = recordingFetch();
    const counted = createClient({ baseUrl, spaceId: 'spc_test', token: TOKENS.public, fetch });
    const list = counted.entries.list({ sort: 'name', limit: 2 });
    const names: string[] = [];
    for await (const entry of list) names.push(entry.name);
    expect(names).toEqual(['About', 'Alice', 'Blog start', 'Bob', 'Hello', 'Home']);
    // Three pages of two, the later ones asked for with the previous page's cursor.
    expect(exchanges.map((e) => e.url.searchParams.get('cursor') !== null)).toEqual([false, true, true]);

    const first = await list.page();
    expect(first).toMatchObject({ total: 6, items: [{ name: 'About' }, { name: 'Alice' }] });
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await list.page(first.nextCursor ?? undefined);
    expect(second.items.map((e) => e.name)).toEqual(['Blog start', 'Bob']);

    const pages: number[] = [];
    for await (const page of counted.entries.list({ limit: 4 }).pages()) pages.push(page.items.length);
    expect(pages).toEqual([4, 2]);
  });

  it('sends filters, tags, type and sort as the API names them', async () => {
    const ids = async (query: Parameters<FolioClient['entries']['list']>[0]) => {
      const out: string[] = [];
      for await (const entry of client.entries.list(query)) out.push(entry.id);
      return out;
    };
    expect(await ids({ filter: { tags: 'news' } })).toEqual(['ent_post']);
    expect(await ids({ type: 'page', filter: { position: { gte: 1 } }, sort: ['name'] })).toEqual([
      'ent_about',
      'ent_post',
    ]);
    expect(await ids({ type: 'author', filter: { 'fields.name': { in: ['Bob', 'Carol'] } } })).toEqual([
      'ent_bob',
    ]);
    expect(await ids({ under: '/blog', sort: '-name' })).toEqual(['ent_post', 'ent_blogstart']);
  });

  it('reads globals, menus, option lists, redirects, the sitemap, the tree and the status', async () => {
    const footer = await client.globals.get('footer', { locale: 'de' });
    expect(footer.entry).toMatchObject({ id: 'ent_footer', path: '@footer' });
    expect(footer.entry.content.fields.copyright).toBe('© Test DE');
    expect(Object.keys((await client.globals.all()).globals)).toEqual(['footer']);

    const { menu } = await client.menus.get('main');
    expect(menu.items.map((i) => [i.label, i.href, i.children.map((c) => c.href)])).toEqual([
      ['Blog', '/blog', ['/blog/hello']],
      ['Shop', 'https://shop.example/', []],
    ]);
    expect(Object.keys((await client.menus.all({ keys: ['main'] })).menus)).toEqual(['main']);

    const { list } = await client.lists.get('colors', { locale: 'de' });
    expect(list.options).toEqual([{ value: 'red', label: 'Rot' }]);

    const { redirects } = await client.redirects();
    expect(redirects).toContainEqual({ from: '/old', to: '/about', status: 301 });

    const sitemap = await client.sitemap({ locale: 'de' });
    expect(sitemap.items.find((i) => i.id === 'ent_about')).toMatchObject({
      path: '/ueber-uns',
      alternates: { en: '/about', de: '/ueber-uns' },
    });

    const tree = await client.tree({ depth: 2 });
    const blog = tree.items.find((node) => node.id === 'ent_blog');
    expect(blog).toMatchObject({ isFolder: true, path: '/blog' });
    expect(blog?.children.map((node) => node.id)).toEqual(['ent_blogstart', 'ent_post']);
    expect(blog?.children[1]?.children).toEqual([]);

    const status = await client.status();
    expect(status).toMatchObject({ spaceId: 'spc_test', defaultLocale: 'en', cv: sitemap.cv });
  });

  it('fails with FolioApiError: code, message and details, and an old path carries its redirect', async () => {
    const missing = await failureOf(client.entries.byPath('/no/such/page'));
    expect(missing).toMatchObject({ status: 404, code: 'not_found', redirect: undefined });
    expect(missing.message).not.toBe('');

    const moved = await failureOf(client.entries.byPath('/old'));
    expect(moved).toMatchObject({ status: 404, code: 'not_found', redirect: { to: '/about', status: 301 } });

    const badFilter = await failureOf(client.entries.list({ filter: { 'fields.nope': 'x' } }).page());
    expect(badFilter).toMatchObject({
      status: 400,
      code: 'invalid_query',
      details: { parameter: 'filter[fields.nope]' },
    });

    const unauthorized = createClient({ baseUrl, spaceId: 'spc_test', token: 'folio_pub_Nope' });
    expect(await failureOf(unauthorized.status())).toMatchObject({ status: 401, code: 'unauthorized' });
    const preview = await failureOf(client.entries.get('ent_about', { draft: true }));
    expect(preview).toMatchObject({ status: 403, code: 'preview_token_required' });
  });

  it('revalidates with the ETag: the second read is a 304 from the server and answers the same content', async () => {
    const { fetch, exchanges } = recordingFetch();
    const cached = createClient({ baseUrl, spaceId: 'spc_test', token: TOKENS.public, fetch });
    const first = await cached.entries.get('ent_home', { include: 'author' });
    const second = await cached.entries.get('ent_home', { include: 'author' });
    expect(exchanges.map((e) => e.status)).toEqual([200, 304]);
    expect(exchanges[0]?.ifNoneMatch).toBeNull();
    expect(exchanges[1]?.ifNoneMatch).toMatch(/^"/);
    expect(second).toEqual(first);
    // Parsed anew: changing one answer does not change the next.
    expect(second).not.toBe(first);

    // Another token is another cache entry; `cache: false` never asks conditionally.
    const uncached = recordingFetch();
    const plain = createClient({
      ...{ baseUrl, spaceId: 'spc_test', token: TOKENS.public },
      fetch: uncached.fetch,
      cache: false,
    });
    await plain.entries.get('ent_home');
    await plain.entries.get('ent_home');
    expect(uncached.exchanges.map((e) => [e.status, e.ifNoneMatch])).toEqual([
      [200, null],
      [200, null],
    ]);
  });

  it('searches by meaning in a space with AI switched on', async () => {
    const ai = createClient({ baseUrl, spaceId: 'spc_ai', token: AI_TOKEN });
    const result = await ai.search('how do I get my money back', { limit: 5 });
    expect(result.items[0]?.entry.id).toBe('ent_returns');
    expect(result.items[0]?.highlight).toContain('money back');
    expect(result.items[0]?.score).toBeGreaterThan(0);
    expect(result.cv).toBe((await ai.status()).cv);
    // The fixture space has AI off: a typed 404.
    expect(await failureOf(client.search('welcome'))).toMatchObject({ status: 404, code: 'not_found' });
  });

  // Last: it publishes.
  it('a client pinned with at(cv) reads that version after a republish; sync names what changed', async () => {
    const before = (await client.status()).cv;
    const { fetch, exchanges } = recordingFetch();
    const pinned = createClient({ baseUrl, spaceId: 'spc_test', token: TOKENS.public, fetch }).at(before);
    expect(pinned.cv).toBe(before);
    expect((await pinned.entries.byPath('/blog/hello')).entry.content.fields.title).toBe('Hello world');

    const patched = await t.inject({
      method: 'PATCH',
      url: '/v1/spaces/spc_test/entries/ent_post',
      headers: mgt,
      payload: { fields: { title: { en: 'Hello again' } } },
    });
    expect(patched.status, patched.text).toBe(200);
    const published = await t.inject({
      method: 'POST',
      url: '/v1/spaces/spc_test/entries/ent_post/publish',
      headers: mgt,
    });
    expect(published.body.cv).toBe(before + 1);

    const current = await client.entries.byPath('/blog/hello');
    expect(current.entry.content.fields.title).toBe('Hello again');
    expect(current.cv).toBe(before + 1);
    const old = await pinned.entries.byPath('/blog/hello');
    expect(old.entry.content.fields.title).toBe('Hello world');
    expect(old.cv).toBe(before);
    const oldList = await pinned.entries.list({ filter: { tags: 'news' } }).page();
    expect(oldList).toMatchObject({ cv: before, items: [{ content: { fields: { title: 'Hello world' } } }] });
    expect(exchanges.every((e) => e.url.searchParams.get('cv') === String(before))).toBe(true);

    // Sync: from the pinned cv, only the republished entry (in each locale) and the sitemap listing it (its
    // `updatedAt`), ending at the current cv.
    const feed = client.sync({ since: before });
    const changes: string[] = [];
    for await (const change of feed) {
      const { item } = change;
      const name = 'id' in item ? item.id : 'key' in item ? item.key : item.locale;
      changes.push(`${change.change} ${item.kind} ${name}`);
    }
    expect(new Set(changes)).toEqual(
      new Set([
        'changed entry ent_post',
        'changed sitemap en',
        'changed sitemap de',
        'changed sitemap de-ch',
      ]),
    );
    expect(feed.truncated).toBe(false);
    expect(feed.toCv).toBe(before + 1);

    // A full sync in small pages reads every page.
    let pages = 0;
    const ids = new Set<string>();
    for await (const page of client.sync({ limit: 2 }).pages()) {
      pages += 1;
      for (const c of page.changed) if (c.kind === 'entry' && c.id !== undefined) ids.add(c.id);
    }
    expect(pages).toBeGreaterThan(2);
    expect(ids).toContain('ent_post');
    expect(ids).toContain('ent_bob');
  });
});

// The sync feed: after a sequence of publishes, moves, renames, deletions and menu and redirect
// changes, a sync from every intermediate cv names exactly what differs between a full read at that cv and one
// at the end; paging, pinning and 410 after pruning. On both engines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines.js';
import { TOKENS } from './helpers/fixture.js';
import { type ManagementApp, openManagementApp } from './helpers/management.js';

const LOCALES = ['en', 'de', 'de-ch'];
const pub = { authorization: `Bearer ${TOKENS.public}` };

interface Item {
  kind: string;
  id?: string;
  key?: string;
  locale?: string | null;
  path?: string | null;
  entry?: { id: string; locale: string };
}
interface SyncBody {
  changed: Item[];
  deleted: Item[];
  fromCv: number;
  toCv: number;
  nextCursor: string | null;
  included?: unknown;
}

/** What a site reading everything at one cv sees, by a route other than /sync. */
interface FullRead {
  entries: Map<string, string>;
  menus: Map<string, string>;
  redirects: Map<string, string>;
}

describe.each(ENGINES)('GET /sync on %s', (engine) => {
  let t: ManagementApp;
  const ids = new Set([
    'ent_home',
    'ent_about',
    'ent_blog',
    'ent_blogstart',
    'ent_post',
    'ent_draftonly',
    'ent_alice',
    'ent_bob',
    'ent_footer',
    'ent_banner',
  ]);
  const cvs: number[] = [];

  const read = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/spc_test${url}`, headers: pub });
    return { status: res.statusCode, body: res.json(), headers: res.headers };
  };

  async function fullRead(cv: number): Promise<FullRead> {
    const entries = new Map<string, string>();
    const menus = new Map<string, string>();
    const redirects = new Map<string, string>();
    for (const locale of LOCALES) {
      for (const id of ids) {
        const r = await read(`/entries/${id}?cv=${cv}&locale=${locale}`);
        if (r.status === 200) entries.set(`${id}|${locale}`, JSON.stringify(r.body.entry));
      }
      const m = await read(`/menus?cv=${cv}&locale=${locale}`);
      for (const [key, menu] of Object.entries(m.body.menus as Record<string, unknown>))
        menus.set(`${key}|${locale}`, JSON.stringify(menu));
      const r = await read(`/redirects?cv=${cv}&locale=${locale}`);
      for (const red of r.body.redirects as { from: string }[])
        redirects.set(`${red.from.toLowerCase()}|${locale}`, JSON.stringify(red));
    }
    return { entries, menus, redirects };
  }

  /** Names (before the `|locale`) whose value differs or appeared, and those that went away everywhere. */
  function diff(a: Map<string, string>, b: Map<string, string>) {
    const changed = new Set<string>();
    for (const [k, v] of b) if (a.get(k) !== v) changed.add(k.split('|')[0] ?? k);
    const goneHere = new Set<string>();
    for (const k of a.keys()) if (!b.has(k)) goneHere.add(k.split('|')[0] ?? k);
    const stillThere = new Set([...b.keys()].map((k) => k.split('|')[0] ?? k));
    const deleted = new Set([...goneHere].filter((n) => !stillThere.has(n)));
    // Present at the end in some locale but gone in another: it changed.
    for (const n of goneHere) if (stillThere.has(n)) changed.add(n);
    return { changed, deleted };
  }

  async function syncAll(query: string): Promise<{ pages: SyncBody[]; changed: Item[]; deleted: Item[] }> {
    const pages: SyncBody[] = [];
    let url = `/sync?${query}`;
    for (;;) {
      const r = await read(url);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      pages.push(r.body);
      if (r.body.nextCursor === null) break;
      url = `/sync?cursor=${encodeURIComponent(r.body.nextCursor)}${
        query.includes('limit')
          ? `&${query
              .split('&')
              .filter((p) => !p.startsWith('since=') && !p.startsWith('cv='))
              .join('&')}`
          : ''
      }`;
    }
    return { pages, changed: pages.flatMap((p) => p.changed), deleted: pages.flatMap((p) => p.deleted) };
  }

  const status = async () => (await read('/status')).body.cv as number;

  beforeAll(async () => {
    t = await openManagementApp(engine, { worker: false });
    const step = async () => cvs.push(await status());
    const ok = (r: { status: number; body: unknown }) => {
      expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
      return r;
    };
    await step();
    ok(
      await t.api('PUT', '/menus/main', {
        name: 'Main',
        items: [
          { label: { en: 'About' }, link: { kind: 'entry', entry: 'ent_about' }, children: [] },
          { label: { en: 'Hello' }, link: { kind: 'entry', entry: 'ent_post' }, children: [] },
        ],
      }),
    );
    await step();
    ok(await t.api('PATCH', '/entries/ent_about', { fields: { title: { en: 'About us', de: 'Über uns' } } }));
    ok(await t.api('POST', '/entries/ent_about/publish'));
    await step();
    const created = ok(
      await t.api('POST', '/entries', { type: 'page', name: 'Pricing', slug: 'pricing', fields: {} }),
    );
    const pricing = (created.body as { entry: { id: string } }).entry.id;
    ids.add(pricing);
    ok(await t.api('POST', `/entries/${pricing}/publish`));
    await step();
    ok(await t.api('POST', '/entries/ent_post/rename', { slugs: { de: 'servus' } }));
    await step();
    // A move changes the page's paths: its automatic redirect, and the menu linking it, change with it.
    ok(await t.api('POST', '/entries/ent_about/move', { parent: 'ent_blog' }));
    await step();
    ok(
      await t.api('POST', '/redirects', {
        from: '/sale',
        to: { kind: 'url', url: 'https://shop.example/' },
        status: 302,
        locale: 'de',
      }),
    );
    await step();
    ok(await t.api('PATCH', '/entries/ent_footer', { fields: { copyright: { en: '© 2027' } } }));
    ok(await t.api('POST', '/entries/ent_footer/publish'));
    await step();
    ok(await t.api('POST', `/entries/${pricing}/unpublish`));
    await step();
    ok(await t.api('DELETE', '/entries/ent_post'));
    await step();
    // A republish that changes nothing delivered is no change.
    ok(await t.api('POST', '/entries/ent_home/publish'));
    await step();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('names exactly what differs between a full read at every earlier cv and one at the end', async () => {
    const end = cvs.at(-1) ?? 0;
    const last = await fullRead(end);
    for (const since of cvs.slice(0, -1)) {
      const first = await fullRead(since);
      const { changed, deleted } = await syncAll(`since=${since}`);
      const label = `since ${since}`;

      const entries = diff(first.entries, last.entries);
      const changedEntries = new Set(
        changed.filter((c) => c.kind === 'entry' || c.kind === 'global').map((c) => c.id),
      );
      expect([...changedEntries].sort(), label).toEqual([...entries.changed].sort());
      expect(
        deleted
          .filter((c) => c.kind === 'entry' || c.kind === 'global')
          .map((c) => c.id)
          .sort(),
        label,
      ).toEqual([...entries.deleted].sort());

      // Menus are named per locale, in the locales whose answer changed.
      const menusChanged = [...last.menus].filter(([k, v]) => first.menus.get(k) !== v).map(([k]) => k);
      expect(
        changed
          .filter((c) => c.kind === 'menu')
          .map((c) => `${c.key}|${c.locale}`)
          .sort(),
        label,
      ).toEqual(menusChanged.sort());

      const redirects = diff(first.redirects, last.redirects);
      const syncRedirects = new Set(
        [...changed, ...deleted]
          .filter((c) => c.kind === 'redirect')
          .map((c) => String(c.path).toLowerCase()),
      );
      expect([...syncRedirects].sort(), label).toEqual(
        [...new Set([...redirects.changed, ...redirects.deleted])].sort(),
      );
    }
  });

  it('gives entries and globals per locale, entries with their path in it', async () => {
    // The last step republished the home page: its publishedAt is new in every locale.
    const before = cvs.at(-2) ?? 0;
    const { changed, deleted } = await syncAll(`since=${before}`);
    // Its sitemap items changed with it (their `updatedAt`).
    expect(changed.filter((c) => c.kind === 'sitemap')).toEqual(
      LOCALES.map((locale) => ({ kind: 'sitemap', locale })),
    );
    expect(changed.filter((c) => c.kind !== 'sitemap')).toEqual(
      LOCALES.map((locale) => ({
        kind: 'entry',
        id: 'ent_home',
        type: 'page',
        locale,
        path: '/',
        page: true,
      })),
    );
    expect(deleted).toEqual([]);
    const footer = await syncAll(`since=${cvs[6]}&cv=${cvs[7]}`);
    expect(footer.changed.filter((c) => c.kind === 'global')).toEqual(
      LOCALES.map((locale) => ({ kind: 'global', key: 'footer', id: 'ent_footer', locale })),
    );
    const moved = await syncAll(`since=${cvs[4]}&locale=de`);
    expect(moved.changed).toContainEqual({
      kind: 'entry',
      id: 'ent_about',
      type: 'page',
      locale: 'de',
      path: '/blog/ueber-uns',
      page: true,
    });
    expect(moved.changed.every((c) => c.kind !== 'entry' || c.locale === 'de')).toBe(true);
  });

  it('gives a deleted page its last path per locale, and marks folders as no page', async () => {
    const unpublished = await syncAll(`since=${cvs[7]}&cv=${cvs[8]}`);
    expect(unpublished.deleted).toEqual([
      {
        kind: 'entry',
        id: expect.stringMatching(/^ent_/),
        type: 'page',
        paths: Object.fromEntries(LOCALES.map((l) => [l, '/pricing'])),
      },
    ]);
    const everything = await syncAll('since=0');
    const folders = everything.changed.filter((c) => c.kind === 'entry' && c.id === 'ent_blog');
    expect(folders.length).toBe(LOCALES.length);
    for (const folder of folders) expect(folder).toMatchObject({ page: false, path: '/blog' });
    const pages = everything.changed.filter((c) => c.kind === 'entry' && c.id === 'ent_home');
    for (const page of pages) expect(page).toMatchObject({ page: true, path: '/' });
  });

  it('pages with a cursor that keeps since and the end cv, whatever is published meanwhile', async () => {
    const since = cvs[0] ?? 0;
    const whole = await syncAll(`since=${since}`);
    const paged = await syncAll(`since=${since}&limit=2`);
    expect(paged.pages.length).toBeGreaterThan(2);
    expect(paged.pages.every((p) => p.fromCv === since && p.toCv === whole.pages[0]?.toCv)).toBe(true);
    expect(paged.changed).toEqual(whole.changed);
    expect(paged.deleted).toEqual(whole.deleted);

    // A publish between two pages does not move the end of a walk already begun.
    const first = await read(`/sync?since=${since}&limit=2`);
    await t.api('PATCH', '/entries/ent_bob', { name: 'Bobby' });
    await t.api('POST', '/entries/ent_bob/publish');
    const second = await read(`/sync?cursor=${encodeURIComponent(first.body.nextCursor)}&limit=2`);
    expect(second.body.toCv).toBe(first.body.toCv);
    expect(second.headers['cache-control']).toMatch(/immutable/);
    const now = await syncAll(`since=${first.body.toCv}`);
    expect(now.changed.filter((c) => c.kind === 'entry').map((c) => c.id)).toEqual([
      'ent_bob',
      'ent_bob',
      'ent_bob',
    ]);
    cvs.push(await status());
  });

  it('without since, lists everything visible; full=1 gives entries in the /entries item shape', async () => {
    const all = await syncAll('');
    expect(all.deleted).toEqual([]);
    expect(all.pages[0]?.fromCv).toBe(0);
    const listed = new Set(all.changed.filter((c) => c.kind === 'entry').map((c) => c.id));
    expect(listed.has('ent_home')).toBe(true);
    expect(listed.has('ent_post')).toBe(false);
    const full = await read(`/sync?since=${cvs[1]}&full=1&locale=de`);
    const about = (full.body as SyncBody).changed.find((c) => c.id === 'ent_about');
    const viaEntries = await read(`/entries/ent_about?locale=de&cv=${full.body.toCv}`);
    expect(about?.entry).toEqual(viaEntries.body.entry);
    expect(full.body.included).toMatchObject({ entries: [] });
  });

  it('pins the end with cv, and refuses bad parameters and cursors', async () => {
    const pinned = await read(`/sync?since=${cvs[0]}&cv=${cvs[2]}`);
    expect(pinned.body.toCv).toBe(cvs[2]);
    expect(pinned.headers['cache-control']).toMatch(/immutable/);
    for (const q of [
      'since=-1',
      'since=x',
      `since=${(cvs.at(-1) ?? 0) + 5}`,
      'limit=0',
      'limit=1001',
      'full=2',
      'nope=1',
      'cursor=abc',
    ]) {
      const r = await read(`/sync?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error.code, q).toBe('invalid_query');
    }
    const first = await read(`/sync?since=${cvs[0]}&limit=1`);
    const mismatched = await read(`/sync?cursor=${encodeURIComponent(first.body.nextCursor)}&limit=2`);
    expect(mismatched.status).toBe(400);
    const unauthorized = await t.app.inject({ method: 'GET', url: '/v1/spc_test/sync' });
    expect(unauthorized.statusCode).toBe(401);
  });

  it('answers 410 cv_expired for a since older than the kept history', async () => {
    await t.store.db
      .updateTable('spaces')
      .set({ min_cv: cvs[3] ?? 0 })
      .where('id', '=', 'spc_test')
      .execute();
    t.app.folioEdge.directory.forget('spc_test');
    const r = await read(`/sync?since=${cvs[1]}`);
    expect(r.status).toBe(410);
    expect(r.body.error.code).toBe('cv_expired');
    expect((await read(`/sync?since=${cvs[3]}`)).status).toBe(200);
  });
});

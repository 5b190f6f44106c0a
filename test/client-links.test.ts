import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createClient,
  defaultLinkHref,
  type FolioClient,
  type MenuItem,
  renderRichText,
  resolveLink,
  sitePath,
  splitSitePath,
  type SyncChange,
} from '../client/src/index.js';
import { listenOnLoopback } from './helpers/client.js';
import { DEMO_SPACE, type DemoApp, openDemoApp } from './helpers/demo-app.js';
import { TOKENS } from './helpers/fixture.js';

/**
 * Links resolved for a site, against the real server with the demo space: `resolveLink` and the exported default
 * link resolver (a custom `linkHref` that falls back to it keeps url, email and asset links), and the client's
 * `localePrefixes` written into the paths of entries, links, alternates, menus, tree, sitemap, redirects and sync.
 */

const PREFIXES = { en: '', de: '/de', 'de-ch': '/de-ch' };

describe('links resolved for a site', () => {
  let demo: DemoApp;
  let plain: FolioClient;
  let site: FolioClient;

  beforeAll(async () => {
    demo = await openDemoApp('sqlite', { noAi: true });
    const baseUrl = await listenOnLoopback(demo.app);
    const options = { baseUrl, spaceId: DEMO_SPACE, token: TOKENS.public };
    plain = createClient(options);
    site = createClient({ ...options, localePrefixes: PREFIXES });
  });
  afterAll(() => demo?.close());

  const hrefs = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);

  it('keeps url, email and entry links when a custom linkHref falls back to the default', async () => {
    const { entry, included } = await plain.entries.byPath('/ueber-uns', { locale: 'de' });
    const body = entry.content.fields.body;
    const story = Array.isArray(body) ? body.find((b) => b.type === 'textBlock') : undefined;
    const html = renderRichText(story.fields.text, {
      links: included.links,
      linkHref: (link, target) =>
        link.kind === 'entry' && target ? `/de${target.path}` : defaultLinkHref(link, target),
    });
    expect(hrefs(html)).toEqual(['https://example.com/customers', 'mailto:hello@example.com', '/de/kontakt']);
    // With the client's prefixes no linkHref is needed at all.
    const prefixed = await site.entries.byPath('/ueber-uns', { locale: 'de' });
    const bodyDe = prefixed.entry.content.fields.body;
    const storyDe = Array.isArray(bodyDe) ? bodyDe.find((b) => b.type === 'textBlock') : undefined;
    expect(hrefs(renderRichText(storyDe.fields.text, { links: prefixed.included.links }))).toEqual(
      hrefs(html),
    );
  });

  it('resolveLink gives a link field its href, entry links through included.links', async () => {
    const { entry, included } = await site.entries.byPath('/ueber-uns', { locale: 'de' });
    const body: unknown = entry.content.fields.body;
    const blocks = Array.isArray(body) ? body : [];
    const hero = blocks.find((b) => b.type === 'hero');
    const cta = blocks.find((b) => b.type === 'cta');
    expect(resolveLink(hero.fields.cta, included)).toBe('https://example.com/jobs');
    expect(resolveLink(cta.fields.link, included)).toBe('/de/blog');
    expect(
      resolveLink(cta.fields.link, (await plain.entries.byPath('/ueber-uns', { locale: 'de' })).included),
    ).toBe('/blog');
    expect(resolveLink({ kind: 'email', email: 'a@example.com' }, included)).toBe('mailto:a@example.com');
    // Not published (not in included.links), not a link, or a URL a page may not link: no href.
    expect(resolveLink({ kind: 'entry', entry: 'ent_nowhere' }, included)).toBeNull();
    expect(resolveLink({ kind: 'url', url: 'javascript:alert(1)' }, included)).toBeNull();
    expect(resolveLink('/about', included)).toBeNull();
    expect(resolveLink({ kind: 'entry', entry: 'ent_contact' }, null)).toBeNull();
  });

  it('prefixes entries, alternates and included links per locale; the default locale stays as it is', async () => {
    const de = await site.entries.byPath('/ueber-uns', { locale: 'de' });
    expect(de.entry.path).toBe('/de/ueber-uns');
    expect(de.entry.alternates).toEqual({ en: '/about', de: '/de/ueber-uns', 'de-ch': '/de-ch/ueber-uns' });
    expect(de.included.links.ent_contact?.path).toBe('/de/kontakt');
    const home = await site.entries.byPath('/', { locale: 'de-ch' });
    expect(home.entry.path).toBe('/de-ch');
    const en = await site.entries.byPath('/about');
    expect(en.entry.path).toBe('/about');
    expect(en.included.links.ent_contact?.path).toBe('/contact');

    const posts = await site.entries.list({ type: 'post', locale: 'de' }).page();
    expect(posts.items.length).toBeGreaterThan(0);
    for (const post of posts.items) expect(post.path).toMatch(/^\/de\/blog\//);
    // A global's path (`@key`) is no URL.
    const footer = await site.globals.get('footer', { locale: 'de' });
    expect(footer.entry.path).toBe('@footer');
  });

  it('prefixes the hrefs of menu items that are pages, and nothing else', async () => {
    const flat = (items: MenuItem[]): MenuItem[] => items.flatMap((i) => [i, ...flat(i.children)]);
    const raw = flat((await plain.menus.get('main', { locale: 'de' })).menu.items);
    const prefixed = flat((await site.menus.get('main', { locale: 'de' })).menu.items);
    expect(prefixed.map((i) => i.id)).toEqual(raw.map((i) => i.id));
    const pages = prefixed.filter((i) => i.entryId !== null);
    expect(pages.map((i) => i.href)).toEqual(
      expect.arrayContaining(['/de', '/de/blog', '/de/blog/hallo-welt']),
    );
    raw.forEach((item, n) =>
      expect(prefixed[n]?.href).toBe(
        item.entryId === null || item.href === null ? item.href : sitePath(PREFIXES, 'de', item.href),
      ),
    );
    // The file and the external link are there, unchanged.
    expect(prefixed.some((i) => i.entryId === null && i.href?.startsWith('https://') === true)).toBe(true);
    const all = await site.menus.all({ locale: 'de-ch' });
    expect(flat(all.menus.footer?.items ?? []).find((i) => i.entryId === 'ent_contact')?.href).toBe(
      '/de-ch/kontakt',
    );
  });

  it('prefixes tree, sitemap and redirects; splitSitePath gives back what byPath reads', async () => {
    const tree = await site.tree({ locale: 'de', depth: 1 });
    expect(tree.items.map((n) => n.path)).toEqual(
      expect.arrayContaining(['/de', '/de/ueber-uns', '/de/blog']),
    );
    const sitemap = await site.sitemap({ locale: 'de' });
    expect(sitemap.items.every((i) => i.path.startsWith('/de'))).toBe(true);
    for (const item of sitemap.items)
      for (const [locale, url] of Object.entries(item.alternates)) {
        const split = splitSitePath(PREFIXES, url);
        expect(split?.locale).toBe(locale);
        const page = await plain.entries.byPath(split?.path ?? '', { locale });
        expect(page.entry.id).toBe(item.id);
      }
    const redirects = await site.redirects({ locale: 'de' });
    expect(redirects.redirects).toEqual(
      expect.arrayContaining([
        { from: '/de/old-about', to: '/de/ueber-uns', status: 301 },
        { from: '/de/status', to: 'https://status.example.com/', status: 302 },
      ]),
    );
  });

  it('prefixes sync items, changed and deleted, in their locale', async () => {
    const { cv } = await site.status();
    const all: SyncChange[] = [];
    for await (const change of site.sync({ limit: 1000 })) all.push(change);
    const about = all.flatMap((c) =>
      c.change === 'changed' && c.item.kind === 'entry' && c.item.id === 'ent_about'
        ? [[c.item.locale, c.item.path]]
        : [],
    );
    expect(Object.fromEntries(about)).toEqual({
      en: '/about',
      de: '/de/ueber-uns',
      'de-ch': '/de-ch/ueber-uns',
    });

    expect((await demo.api('POST', '/entries/ent_release_1_0/rename', { slug: 'folio-one' })).status).toBe(
      200,
    );
    const since: SyncChange[] = [];
    for await (const change of site.sync({ since: cv })) since.push(change);
    const renamed = since.flatMap((c) =>
      c.change === 'changed' && c.item.kind === 'entry' && c.item.id === 'ent_release_1_0' ? [c.item] : [],
    );
    expect(renamed.find((i) => i.locale === 'de')?.path).toBe('/de/blog/folio-one');
    expect(renamed.find((i) => i.locale === 'de-ch')?.path).toBe('/de-ch/blog/folio-one');
    // With `full` (one locale) the entry itself carries the site's paths.
    const full: SyncChange[] = [];
    for await (const change of site.sync({ since: cv, full: true, locale: 'de' })) full.push(change);
    const entry = full.flatMap((c) =>
      c.change === 'changed' && c.item.kind === 'entry' && c.item.id === 'ent_release_1_0'
        ? [c.item.entry]
        : [],
    )[0];
    expect(entry?.path).toBe('/de/blog/folio-one');
    expect(entry?.alternates).toEqual({
      en: '/blog/folio-one',
      de: '/de/blog/folio-one',
      'de-ch': '/de-ch/blog/folio-one',
    });
    const moved = since.flatMap((c) =>
      c.change === 'changed' && c.item.kind === 'redirect' && c.item.locale === 'de' ? [c.item] : [],
    );
    expect(moved).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: '/de/blog/folio-1-0', to: '/de/blog/folio-one' }),
      ]),
    );
  });

  it('prefixes the last paths of a deleted entry', async () => {
    const { cv } = await site.status();
    // The demo's release links the page: it goes first (the delete is refused while it holds it).
    expect((await demo.api('DELETE', '/releases/rel_spring')).status).toBeLessThan(300);
    expect((await demo.api('DELETE', '/entries/ent_about')).status).toBeLessThan(300);
    const deleted: Record<string, string>[] = [];
    for await (const c of site.sync({ since: cv }))
      if (c.change === 'deleted' && c.item.kind === 'entry' && c.item.id === 'ent_about')
        deleted.push(c.item.paths ?? {});
    expect(deleted).toEqual([{ en: '/about', de: '/de/ueber-uns', 'de-ch': '/de-ch/ueber-uns' }]);
  });

  it('refuses prefixes that are no path prefix', () => {
    const options = { baseUrl: 'http://127.0.0.1:1', spaceId: DEMO_SPACE, token: TOKENS.public };
    expect(() => createClient({ ...options, localePrefixes: { de: '/de/' } })).toThrow(TypeError);
    expect(() => createClient({ ...options, localePrefixes: { de: 'de' } })).toThrow(TypeError);
    expect(createClient({ ...options, localePrefixes: { de: '/de/ch' } }).localePrefixes).toEqual({
      de: '/de/ch',
    });
  });
});

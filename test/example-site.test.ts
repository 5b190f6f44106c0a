import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DomUtils, parseDocument } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FolioProcess, PROCESS_TEST_MS, serveFolio } from './helpers/processes.js';
import { EXAMPLE_SITE, startExampleSite } from './helpers/example-site.js';
import { tempDir } from './helpers/temp-dirs.js';

/**
 * The example site (examples/site/server.mjs, `npm run example`) against `folio serve` with its demo space, both
 * as the README starts them: pages with every block type of the demo, rich text with entry links, pictures, the
 * language switch, menus with submenus per locale, redirects, sitemap.xml and robots.txt; the
 * demo contact form posted as a browser without JavaScript posts it (the token in the action URL, `_redirect`,
 * `?error=`); and `npm run example -- build <dir>`, which on its second run rewrites only what /sync names. The
 * built client (client/dist, `npm run build`) is what the site imports.
 */

describe('the example site', { timeout: PROCESS_TEST_MS }, () => {
  let folio: FolioProcess;
  let site: ChildProcess;
  let origin = '';
  let dataDir = '';
  let port = 0;

  beforeAll(async () => {
    dataDir = tempDir('folio-example-');
    folio = await serveFolio({ DATA_DIR: dataDir, FOLIO_DEMO: 'true', DATABASE_URL: '', REDIS_URL: '' });
    const started = await startExampleSite(folio.base, dataDir);
    site = started.process;
    port = started.port;
    origin = started.origin;
  }, PROCESS_TEST_MS);

  afterAll(async () => {
    site?.kill('SIGTERM');
    await folio?.stop();
  });

  const page = async (path: string) => {
    const res = await fetch(`${origin}${path}`, { redirect: 'manual' });
    return { status: res.status, html: await res.text(), location: res.headers.get('location') };
  };

  const nav = (html: string) => {
    const doc = parseDocument(html);
    const el = DomUtils.findOne((e) => e.name === 'nav' && e.attribs.class === 'main', doc.children);
    return DomUtils.findAll((e) => e.name === 'a', el ? [el] : []).map((a) => a.attribs.href);
  };
  const blocks = (html: string) => [...html.matchAll(/class="block ([a-z]+)/g)].map((m) => m[1]).sort();

  it('renders pages with the main menu and its submenus in the locale, and 404 for an unknown path', async () => {
    const about = await page('/about');
    expect(about.status).toBe(200);
    expect(nav(about.html)).toEqual(expect.arrayContaining(['/', '/blog', '/blog/hello-world', '/about']));
    const doc = parseDocument(about.html);
    expect(DomUtils.textContent(DomUtils.findOne((e) => e.name === 'h1', doc.children)!)).toBe('About us');
    expect((await page('/no-such-page')).status).toBe(404);
    const german = await page('/de/kontakt');
    expect(german.html).toContain('<h1>Kontakt</h1>');
    // Menu links keep the locale, submenus included (three levels).
    expect(nav(german.html)).toEqual(
      expect.arrayContaining([
        '/de',
        '/de/blog',
        '/de/blog/hallo-welt',
        '/de/doku/erste-schritte',
        '/de/ueber-uns',
      ]),
    );
    expect(german.html).toContain('class="menu menu--2"');
  });

  it('renders every block type, rich text with entry links in the locale, and pictures', async () => {
    const home = await page('/');
    expect(blocks(home.html)).toEqual(['cta', 'gallery', 'hero', 'text']);
    expect(blocks((await page('/contact')).html)).toContain('form');
    // linkItem blocks: the footer global's links.
    expect(home.html).toMatch(/<footer><a href="\/about">About us<\/a>/);
    // The hero's link has no label field: its button is named by the entry it leads to, never a bare arrow.
    expect(home.html).toMatch(/<a class="button" href="\/blog">[^<]*\w[^<]* →<\/a>/);
    const post = await page('/blog/hello-world');
    expect(post.html).toContain('<a href="/blog/content-modeling">Content modelling 101</a>');
    expect(post.html).toMatch(/<picture><source type="image\/avif" srcset="[^"]*sig=[^"]*fm=avif[^"]* \d+w/);
    expect(post.html).toContain('<source type="image/webp"');
    const german = await page('/de/blog/hallo-welt');
    expect(german.html).toContain('href="/de/blog/inhalte-modellieren"');
  });

  it('switches language from alternates, follows 301s, and serves sitemap.xml and robots.txt', async () => {
    const about = await page('/about');
    expect(about.html).toContain('<a lang="de" hreflang="de" href="/de/ueber-uns">Deutsch</a>');
    expect(about.html).toContain('<link rel="alternate" hreflang="de-ch"');
    const old = await page('/old-about');
    expect(old).toMatchObject({ status: 301, location: '/about' });
    expect(await page('/de/ueber')).toMatchObject({ status: 301, location: '/de/ueber-uns' });
    const sitemap = await page('/sitemap.xml');
    expect(sitemap.html).toContain(`<loc>${origin}/de/ueber-uns</loc>`);
    expect(sitemap.html).toContain(`hreflang="de-ch" href="${origin}/de-ch/ueber-uns"`);
    expect((await page('/robots.txt')).html).toContain(`Sitemap: ${origin}/sitemap.xml`);
  });

  it('serves the contact form, which posts without JavaScript: back with ?error=, then to the thanks page', async () => {
    const contact = await page('/contact');
    const doc = parseDocument(contact.html);
    const form = DomUtils.findOne((e) => e.name === 'form', doc.children);
    if (!form) throw new Error('no form on /contact');
    expect(form.attribs.action).toMatch(
      new RegExp(`^${folio.base}/v1/spc_demo/forms/contact/submissions\\?token=folio_pub_`),
    );
    const script = DomUtils.findOne((e) => e.name === 'script', doc.children);
    expect(script?.attribs.src).toBe('/assets/enhance.js');
    expect((await fetch(`${origin}/assets/enhance.js`)).status).toBe(200);

    const hidden = DomUtils.findAll((e) => e.name === 'input' && e.attribs.type === 'hidden', [form]).map(
      (e): [string, string] => [e.attribs.name ?? '', e.attribs.value ?? ''],
    );
    const consent = DomUtils.findOne((e) => e.name === 'input' && e.attribs.name === 'consent', [form]);
    const post = (pairs: [string, string][]) =>
      fetch(form.attribs.action!, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
        body: new URLSearchParams([...hidden, ...pairs]).toString(),
      });

    const empty = await post([]);
    expect(empty.status).toBe(303);
    const back = new URL(empty.headers.get('location') ?? '');
    expect(back.origin + back.pathname).toBe(`${origin}/contact`);
    expect(back.searchParams.get('error')).toBe('validation_failed');
    const shown = await page(`${back.pathname}${back.search}`);
    const alert = DomUtils.findOne((e) => e.attribs.role === 'alert', parseDocument(shown.html).children);
    expect(alert && DomUtils.textContent(alert).trim()).toBeTruthy();

    const sent = await post([
      ['name', 'Ada Lovelace'],
      ['email', 'ada@example.com'],
      ['topic', 'general'],
      ['consent', consent?.attribs.value ?? 'true'],
    ]);
    expect(sent.status).toBe(303);
    expect(sent.headers.get('location')).toBe(`${origin}/thanks/contact`);
    expect((await page('/thanks/contact')).html).toContain('Thank you! We will get back to you soon.');
    // The thank-you page in the visitor's language: the form's own success message.
    expect((await page('/de/thanks/contact')).html).toContain('<h1>Danke</h1>');

    // A failed post comes back whole: each error beside its field, every typed value in place (the draft).
    const typo = await post([
      ['name', 'Ada Lovelace'],
      ['email', 'ada@example'],
      ['topic', 'general'],
      ['message', 'Hello, welcome'],
    ]);
    const again = new URL(typo.headers.get('location') ?? '');
    const back2 = parseDocument((await page(`${again.pathname}${again.search}`)).html);
    const byId = (id: string) => DomUtils.findOne((e) => e.attribs.id === id, back2.children);
    expect(byId('folio-contact-f-email-error')?.attribs['data-folio-code']).toBe('invalid_email');
    expect(byId('folio-contact-f-name')?.attribs.value).toBe('Ada Lovelace');
    expect(DomUtils.textContent(byId('folio-contact-f-message')!)).toBe('\nHello, welcome');
  });

  it('titles pages from their content in their language, and renders seo, a skip link, dates and a favicon', async () => {
    const head = (html: string, name: string) =>
      DomUtils.findOne((e) => e.name === 'meta' && e.attribs.name === name, parseDocument(html).children)
        ?.attribs.content;
    const post = await page('/de/blog/hallo-welt');
    expect(post.html).toContain('<title>Hallo, Welt – Folio Demo</title>');
    expect(head(post.html, 'description')).toBe('Unser erster Beitrag: warum wir Folio gebaut haben.');
    expect(post.html).toMatch(/<time datetime="2026-01-20T08:30:00.000Z">20. Januar 2026<\/time>/);
    expect(post.html).toContain(`<link rel="canonical" href="${origin}/de/blog/hallo-welt">`);
    expect(post.html).toContain(
      `<link rel="alternate" hreflang="x-default" href="${origin}/blog/hello-world">`,
    );
    expect(post.html).toContain('<a class="skip-link" href="#main">Zum Inhalt springen</a>');
    expect(post.html).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
    expect(post.html).toContain('<link rel="stylesheet" href="/assets/forms.css">');
    // The seo field: its title and description, and noindex where set.
    const home = await page('/de');
    expect(home.html).toContain('<title>Folio Demo – strukturierte Inhalte ausliefern</title>');
    const contact = await page('/contact');
    expect(head(contact.html, 'robots')).toBe('noindex');
    expect(head(contact.html, 'description')).toBe('Get in touch with the Folio team.');
    expect(head(home.html, 'robots')).toBeUndefined();
    for (const asset of ['/favicon.svg', '/assets/forms.css', '/assets/site.css'])
      expect([asset, (await fetch(`${origin}${asset}`)).status]).toEqual([asset, 200]);
  });

  it('answers an unknown path with a 404 page that leads home and to every language', async () => {
    const missing = await page('/de/gibts-nicht');
    expect(missing.status).toBe(404);
    expect(missing.html).toContain('<h1>Seite nicht gefunden</h1>');
    expect(missing.html).toContain('<a class="button" href="/de">Zur Startseite</a>');
    expect(missing.html).toContain('<a lang="en" hreflang="en" href="/">English</a>');
    expect(missing.html).toContain('<meta name="robots" content="noindex">');
  });

  /** `npm run example -- build <dir>`: what it printed. */
  const build = (dir: string) =>
    new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [EXAMPLE_SITE, 'build', dir], {
        env: { ...process.env, FOLIO_URL: folio.base, DATA_DIR: dataDir, SITE_PORT: String(port) },
      });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      child.once('exit', (code) =>
        code === 0 ? resolve(out) : reject(new Error(`build exited ${code}: ${out}`)),
      );
    });
  const rewritten = (out: string) => [...out.matchAll(/^rewrote (\S+)$/gm)].map((m) => m[1]).sort();

  it('builds a static site, then rewrites only what /sync names; a redirect to a deleted page answers 410', async () => {
    const dir = tempDir('folio-static-');
    const first = rewritten(await build(dir));
    expect(first).toEqual(expect.arrayContaining(['/', '/about', '/de/ueber-uns', '/de-ch/blog/alpetreffe']));
    const kontakt = readFileSync(join(dir, 'de', 'kontakt', 'index.html'), 'utf8');
    expect(kontakt).toContain('<h1>Kontakt</h1>');
    // A static page cannot read a draft without JavaScript: Folio shows a post made without it the form again.
    expect(kontakt).toContain('<noscript><input type="hidden" name="_error_page" value="folio"></noscript>');
    for (const file of [
      '404.html',
      'favicon.svg',
      'assets/enhance.js',
      'assets/forms.css',
      'de/thanks/contact/index.html',
    ])
      expect([file, existsSync(join(dir, file))]).toEqual([file, true]);
    expect(readFileSync(join(dir, 'sitemap.xml'), 'utf8')).toContain('/de/ueber-uns</loc>');
    expect(rewritten(await build(dir))).toEqual([]);

    // A rename of a post outside the menu: the post itself, the post referencing it and the posts including that
    // one (affected: the site reads with include=author,related, at any depth), and the blog lists (they list
    // posts), in every locale; nothing else. Its old files go.
    const { management } = JSON.parse(readFileSync(join(dataDir, 'demo-tokens.json'), 'utf8'));
    const api = (method: string, path: string, body?: unknown) =>
      fetch(`${folio.base}/v1/spaces/spc_demo${path}`, {
        method,
        headers: {
          authorization: `Bearer ${management}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    expect((await api('POST', '/entries/ent_release_1_0/rename', { slug: 'folio-one' })).status).toBe(200);
    const out = await build(dir);
    expect(rewritten(out)).toEqual(
      [
        ...['/blog', '/blog/folio-one', '/blog/hello-world', '/blog/alpine-meetup', '/blog/content-modeling'],
        ...['/de/blog', '/de/blog/folio-one', '/de/blog/hallo-welt', '/de/blog/alpentreffen'],
        '/de/blog/inhalte-modellieren',
        ...['/de-ch/blog', '/de-ch/blog/folio-one', '/de-ch/blog/hallo-welt', '/de-ch/blog/alpetreffe'],
        '/de-ch/blog/inhalte-modellieren',
      ].sort(),
    );
    for (const old of ['/blog/folio-1-0', '/de/blog/folio-1-0', '/de-ch/blog/folio-1-0'])
      expect(out).toContain(`removed ${old}`);
    expect(readFileSync(join(dir, 'de', 'blog', 'hallo-welt', 'index.html'), 'utf8')).toContain(
      'href="/de/blog/folio-one"',
    );

    // A deleted page: its files go, and the site answers its old path with 410. The demo's release links to it, so
    // the delete is refused (409 naming the release) until the release is gone.
    const held = await api('DELETE', '/entries/ent_about');
    expect(held.status).toBe(409);
    expect(await held.text()).toContain('rel_spring');
    expect((await api('DELETE', '/releases/rel_spring')).status).toBeLessThan(300);
    expect((await api('DELETE', '/entries/ent_about')).status).toBeLessThan(300);
    const gone = await build(dir);
    expect(gone).toContain('removed /about');
    expect(gone).toContain('removed /de/ueber-uns');
    // A redirect to the deleted page now answers 410 (spec 2.6 rule 4): the site's gone page.
    const gonePage = await page('/old-about');
    expect(gonePage.status).toBe(410);
    expect(gonePage.html).toContain('<h1>This page is gone</h1>');
    expect((await page('/about')).status).toBe(404);
  });
});

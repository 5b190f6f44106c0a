import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { DomUtils, parseDocument } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../client/src/index.js';
import { type FolioProcess, PROCESS_TEST_MS, serveFolio } from './helpers/processes.js';
import { tempDir } from './helpers/temp-dirs.js';

/**
 * The example Astro site (examples/astro-site, @folio/astro) built with the astro CLI from a real `folio serve`
 * with its demo space: pages in English and German with the demo's content at their prefixed URLs, the contact
 * form's no-JavaScript round trip (posts to Folio, comes back to the site's thanks page), and a second build after a
 * publish that reads exactly the entries /sync names. Folio is reached through a recording proxy, so the test sees
 * every request a build makes. Needs the built client (`npm run build`).
 */

const ROOT = join(import.meta.dirname, '..');
const SITE = join(ROOT, 'examples', 'astro-site');
const ASTRO = join(ROOT, 'node_modules', 'astro', 'astro.js');
const SITE_ORIGIN = 'http://127.0.0.1:4399';

describe('the example Astro site', { timeout: PROCESS_TEST_MS }, () => {
  let folio: FolioProcess;
  let proxy: Server;
  let proxyBase = '';
  let token = '';
  let management = '';
  const requests: string[] = [];
  const cacheDir = tempDir('folio-astro-cache-');

  beforeAll(async () => {
    const dataDir = tempDir('folio-astro-');
    folio = await serveFolio({ DATA_DIR: dataDir, FOLIO_DEMO: 'true', DATABASE_URL: '', REDIS_URL: '' });
    const upstream = new URL(folio.base);
    proxy = createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      const up = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          path: req.url,
          method: req.method,
          headers: req.headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(up);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyBase = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const tokens: { management: string } = JSON.parse(
      readFileSync(join(dataDir, 'demo-tokens.json'), 'utf8'),
    );
    management = tokens.management;
    // The site's own public token: its origin may receive the form's redirects.
    const made = await mgt('POST', '/tokens', { kind: 'public', name: 'astro site', origins: [SITE_ORIGIN] });
    expect(made.status).toBe(201);
    const created: unknown = await made.json();
    if (
      typeof created === 'object' &&
      created !== null &&
      'value' in created &&
      typeof created.value === 'string'
    )
      token = created.value;
    expect(token).toMatch(/^folio_pub_/);
  }, PROCESS_TEST_MS);

  afterAll(async () => {
    await new Promise((resolve) => proxy?.close(resolve));
    await folio?.stop();
  });

  const mgt = (method: string, path: string, body?: unknown) =>
    fetch(`${folio.base}/v1/spaces/spc_demo${path}`, {
      method,
      headers: {
        authorization: `Bearer ${management}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  /** `astro build` of the example into `outDir`; resolves with what it printed. */
  const build = (outDir: string) =>
    new Promise<string>((resolve, reject) => {
      // Without colours: where the runner forces them (FORCE_COLOR, a terminal), Astro's log wraps its labels in
      // escape codes; they are stripped below too.
      const { FORCE_COLOR: _forced, ...inherited } = process.env;
      const child = spawn(process.execPath, [ASTRO, 'build'], {
        cwd: SITE,
        env: {
          ...inherited,
          NO_COLOR: '1',
          FOLIO_URL: proxyBase,
          FOLIO_TOKEN: token,
          SITE_ORIGIN,
          ASTRO_OUT_DIR: outDir,
          ASTRO_CACHE_DIR: cacheDir,
          ASTRO_TELEMETRY_DISABLED: '1',
        },
      });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      child.once('exit', (code) =>
        code === 0
          ? resolve(stripVTControlCharacters(out))
          : reject(new Error(`astro build ${code}: ${out}`)),
      );
    });
  const html = (dir: string, path: string) => readFileSync(join(dir, path, 'index.html'), 'utf8');
  const h1 = (page: string) => {
    const el = DomUtils.findOne((e) => e.name === 'h1', parseDocument(page).children);
    return el ? DomUtils.textContent(el) : null;
  };
  const hrefs = (page: string) =>
    DomUtils.findAll((e) => e.name === 'a', parseDocument(page).children).map((a) => a.attribs.href);
  /** The entries a build read one by one (`<locale>/<id>`), and whether it listed entries. */
  const reads = (log: string[]) => ({
    byId: log
      .flatMap((r) => {
        const m = /^GET \/v1\/spc_demo\/entries\/(ent_\w+)\?(.*)$/.exec(r);
        return m?.[1] ? [`${new URLSearchParams(m[2]).get('locale')}/${m[1]}`] : [];
      })
      .sort(),
    listed: log.some((r) => r.startsWith('GET /v1/spc_demo/entries?')),
  });

  let first = '';
  let out1 = '';

  it('builds pages in English and German from the demo, pinned to one cv, with prefixed links', async () => {
    out1 = tempDir('folio-astro-out-');
    first = await build(out1);
    const firstLog = requests.splice(0);
    expect(first).toMatch(/\[folio-entries\] folio: read \d+ at cv \d+ \(everything\)/);
    expect(reads(firstLog).listed).toBe(true);
    // Every content read carries the build's cv.
    const cv = /at cv (\d+)/.exec(first)?.[1];
    for (const r of firstLog.filter(
      (l) => /\/(entries|menus|sync|forms\/contact)\b/.test(l) && l.startsWith('GET'),
    ))
      expect([r, new URLSearchParams(r.split('?')[1]).get('cv')]).toEqual([r, cv]);

    expect(h1(html(out1, 'about'))).toBe('About us');
    expect(h1(html(out1, 'de/ueber-uns'))).toBe('Über uns');
    expect(h1(html(out1, 'de/kontakt'))).toBe('Kontakt');
    expect(h1(html(out1, ''))).toBeTruthy();
    expect(h1(html(out1, 'de'))).toBeTruthy();
    expect(h1(html(out1, 'de/blog/hallo-welt'))).toBeTruthy();
    const about = html(out1, 'de/ueber-uns');
    // Menu, rich text and link blocks in German at /de/…; the language switch to the English page; URLs unchanged.
    expect(hrefs(about)).toEqual(
      expect.arrayContaining([
        '/de',
        '/de/blog/hallo-welt',
        '/de/kontakt',
        '/de/blog',
        '/about',
        'mailto:hello@example.com',
        'https://example.com/customers',
      ]),
    );
    expect(about).toContain('Ein kleines Team in den Bergen');
    expect(existsSync(join(out1, 'de-ch'))).toBe(false);
  });

  it('renders the contact form, which posts to Folio without JavaScript and comes back', async () => {
    const page = parseDocument(html(out1, 'de/kontakt'));
    const form = DomUtils.findOne((e) => e.name === 'form', page.children);
    if (form === null) throw new Error('no form on /de/kontakt');
    expect(form.attribs.action).toBe(`${proxyBase}/v1/spc_demo/forms/contact/submissions?token=${token}`);
    // The enhancer, bundled by Astro from @folio/client/enhance.
    const script = DomUtils.findOne((e) => e.name === 'script' && e.attribs.type === 'module', page.children);
    expect(existsSync(join(out1, script?.attribs.src ?? 'none'))).toBe(true);
    const hidden = DomUtils.findAll((e) => e.name === 'input' && e.attribs.type === 'hidden', [form]).map(
      (e): [string, string] => [e.attribs.name ?? '', e.attribs.value ?? ''],
    );
    expect(hidden).toEqual(expect.arrayContaining([['_redirect', `${SITE_ORIGIN}/de/danke`]]));
    // A browser without JavaScript sends what <noscript> holds (so does this parse of it): Folio's own page for a
    // failed post, since a static page cannot show its errors without a script.
    expect(html(out1, 'de/kontakt')).toContain(
      '<noscript><input type="hidden" name="_error_page" value="folio"></noscript>',
    );
    const post = (pairs: [string, string][]) =>
      fetch(form.attribs.action ?? '', {
        method: 'POST',
        redirect: 'manual',
        // As a browser navigates: a plain form post that accepts HTML.
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'text/html,application/xhtml+xml',
          origin: SITE_ORIGIN,
        },
        body: new URLSearchParams([...hidden, ...pairs]).toString(),
      });
    // Without JavaScript a failed post is answered by Folio itself: the form again, the error beside the field.
    const failed = await post([
      ['name', 'Ada'],
      ['email', 'ada@example'],
    ]);
    const again = await failed.text();
    expect(failed.headers.get('content-type')).toMatch(/^text\/html/);
    expect(again).toContain('data-folio-code="invalid_email"');
    expect(again).toContain('value="Ada"');
    // A good one comes back to the site's thanks page, which the build wrote.
    const sent = await post([
      ['name', 'Ada Lovelace'],
      ['email', 'ada@example.com'],
      ['topic', 'general'],
      ['consent', 'true'],
    ]);
    expect(sent.status).toBe(303);
    expect(sent.headers.get('location')).toBe(`${SITE_ORIGIN}/de/danke`);
    expect(h1(html(out1, 'de/danke'))).toBe('Danke');
  });

  it('after a publish, the next build reads only the entries /sync names', async () => {
    const cv1 = Number(/at cv (\d+)/.exec(first)?.[1]);
    requests.splice(0);
    expect((await mgt('POST', '/entries/ent_release_1_0/rename', { slug: 'folio-one' })).status).toBe(200);
    const out2 = tempDir('folio-astro-out-');
    const second = await build(out2);
    const log = requests.splice(0);

    // What /sync names since the first build, read independently: entries changed or affected in en and de.
    const client = createClient({ baseUrl: folio.base, spaceId: 'spc_demo', token });
    const named = new Set<string>();
    for await (const c of client.sync({ since: cv1, include: ['author'] })) {
      const item =
        c.change === 'changed' && c.item.kind === 'entry'
          ? c.item
          : c.change === 'affected' && c.item.key === undefined
            ? c.item
            : null;
      if (item === null || (item.locale !== 'en' && item.locale !== 'de')) continue;
      // Folders have a path but are no page; the loader reads neither them nor globals.
      if (item.page || item.path === null) named.add(`${item.locale}/${item.id}`);
    }
    expect(named).toContain('de/ent_release_1_0');
    const { byId, listed } = reads(log);
    expect(listed).toBe(false);
    expect(byId).toEqual([...named].sort());
    expect(second).toContain(`[folio-entries] folio: read ${named.size}, removed 0, cv ${cv1} → `);
    expect(second).toMatch(/\[folio-menus\] folio: read 0, removed 0/);

    // The renamed post is at its new URL in both languages, the old one is gone, links follow.
    expect(h1(html(out2, 'blog/folio-one'))).toBeTruthy();
    expect(h1(html(out2, 'de/blog/folio-one'))).toBeTruthy();
    expect(existsSync(join(out2, 'blog', 'folio-1-0'))).toBe(false);
    expect(h1(html(out2, 'de/ueber-uns'))).toBe('Über uns');
    // Nothing else was read: the status, the sync feeds, the named entries and the form of the contact pages.
    for (const r of log)
      expect([r, /^GET \/v1\/spc_demo\/(status|sync|entries\/ent_\w+|forms\/contact)(\?|$)/.test(r)]).toEqual(
        [r, true],
      );
  });
});

import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { DomUtils, parseDocument } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FolioProcess,
  freePort,
  PROCESS_START_MS,
  PROCESS_TEST_MS,
  serveFolio,
} from './helpers/processes.js';
import { tempDir } from './helpers/temp-dirs.js';

/**
 * The example site (examples/site/server.mjs, `npm run example`) against `folio serve` with its demo space, both
 * as the README starts them: a page with the main menu through the typed client, and the demo contact form posted
 * as a browser without JavaScript posts it (the token in the action URL, `_redirect`, `?error=`). The built client
 * (client/dist, `npm run build`) is what the site imports.
 */

const SITE = join(import.meta.dirname, '..', 'examples', 'site', 'server.mjs');

describe('the example site', { timeout: PROCESS_TEST_MS }, () => {
  let folio: FolioProcess;
  let site: ChildProcess;
  let origin = '';

  beforeAll(async () => {
    const dataDir = tempDir('folio-example-');
    folio = await serveFolio({ DATA_DIR: dataDir, FOLIO_DEMO: 'true', DATABASE_URL: '', REDIS_URL: '' });
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    site = spawn(process.execPath, [SITE], {
      env: { ...process.env, FOLIO_URL: folio.base, DATA_DIR: dataDir, SITE_PORT: String(port) },
    });
    await new Promise<void>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`the site did not start: ${out}`)), PROCESS_START_MS);
      site.stderr?.on('data', (d) => (out += d));
      site.stdout?.on('data', (d) => {
        out += d;
        if (out.includes('Example site on')) {
          clearTimeout(timer);
          resolve();
        }
      });
      site.once('exit', (code) => reject(new Error(`the site exited ${code}: ${out}`)));
    });
  }, PROCESS_TEST_MS);

  afterAll(async () => {
    site?.kill('SIGTERM');
    await folio?.stop();
  });

  const page = async (path: string) => {
    const res = await fetch(`${origin}${path}`, { redirect: 'manual' });
    return { status: res.status, html: await res.text(), location: res.headers.get('location') };
  };

  it('renders a page with the main menu, and 404 for an unknown path', async () => {
    const about = await page('/about');
    expect(about.status).toBe(200);
    const doc = parseDocument(about.html);
    const nav = DomUtils.findOne((e) => e.name === 'nav', doc.children);
    const links = DomUtils.findAll((e) => e.name === 'a', nav ? [nav] : []).map((a) => a.attribs.href);
    expect(links).toEqual(expect.arrayContaining(['/', '/blog', '/about']));
    expect(DomUtils.textContent(DomUtils.findOne((e) => e.name === 'h1', doc.children)!)).toBe('About us');
    expect((await page('/no-such-page')).status).toBe(404);
    const german = await page('/kontakt?locale=de');
    expect(german.html).toContain('<h1>Kontakt</h1>');
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
    expect(sent.headers.get('location')).toBe(`${origin}/thanks`);
    expect((await page('/thanks')).html).toContain('Thank you');
  });
});

// The inbox page as served (strict headers, built files from memory, gzip), the
// bundle's size, and `folio serve` serving it. The page's behaviour is test/e2e/inbox.e2e.test.ts.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UI_DIR } from '../src/inbox/ui-files.js';
import { type FormsApp, openFormsApp } from './helpers/forms.js';
import { PROCESS_TEST_MS, serveFolio } from './helpers/processes.js';
import { tempDir } from './helpers/temp-dirs.js';

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";
const LIMIT = 60 * 1024;

describe('the inbox page as served', () => {
  let t: FormsApp;
  beforeAll(async () => {
    t = await openFormsApp('sqlite');
  });
  afterAll(async () => t.close());

  it('answers /inbox/ with the strict CSP and the headers that go with it; no inline script or style', async () => {
    for (const url of ['/inbox/', '/inbox']) {
      const res = await t.inject({ method: 'GET', url });
      expect(res.status).toBe(200);
      expect(res.headers).toMatchObject({
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': CSP,
        'x-frame-options': 'DENY',
        'x-content-type-options': 'nosniff',
        'cache-control': 'no-cache',
      });
      expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)|<style|\sstyle=|\son[a-z]+=/i);
      // Built into the repository's dist: nothing from another origin.
      for (const m of res.text.matchAll(/(?:src|href)="([^"]+)"/g))
        expect(m[1]).toMatch(/^\/inbox\/assets\//);
    }
  });

  it('serves the built script and style, gzipped when asked, cached for good by their hashed names', async () => {
    const page = await t.inject({ method: 'GET', url: '/inbox/' });
    const [, js] = /src="(\/inbox\/assets\/[^"]+\.js)"/.exec(page.text) ?? [];
    const [, css] = /href="(\/inbox\/assets\/[^"]+\.css)"/.exec(page.text) ?? [];
    for (const [url, type] of [
      [js, 'text/javascript; charset=utf-8'],
      [css, 'text/css; charset=utf-8'],
    ] as const) {
      const plain = await t.inject({ method: 'GET', url: url ?? '' });
      expect(plain.status).toBe(200);
      expect(plain.headers).toMatchObject({
        'content-type': type,
        'cache-control': 'public, max-age=31536000, immutable',
        'content-security-policy': CSP,
      });
      const gz = await t.inject({
        method: 'GET',
        url: url ?? '',
        headers: { 'accept-encoding': 'gzip, br' },
      });
      expect(gz.headers['content-encoding']).toBe('gzip');
      const again = await t.inject({
        method: 'GET',
        url: url ?? '',
        headers: { 'if-none-match': String(plain.headers.etag) },
      });
      expect(again.status).toBe(304);
    }
    const missing = await t.inject({ method: 'GET', url: '/inbox/assets/nope.js' });
    expect([missing.status, missing.body.error.code]).toEqual([404, 'not_found']);
  });
});

describe('the bundle', () => {
  it('its JavaScript and its CSS are each under 60 KB gzipped', () => {
    const files = readdirSync(join(UI_DIR, 'assets'));
    const size = (ext: string) =>
      files
        .filter((f) => f.endsWith(ext))
        .reduce((sum, f) => sum + gzipSync(readFileSync(join(UI_DIR, 'assets', f)), { level: 9 }).length, 0);
    const js = size('.js');
    const css = size('.css');
    console.log(`inbox bundle, gzipped: JavaScript ${js} bytes, CSS ${css} bytes`);
    expect(js).toBeGreaterThan(1000);
    expect(js).toBeLessThan(LIMIT);
    expect(css).toBeGreaterThan(100);
    expect(css).toBeLessThan(LIMIT);
  });
});

describe('folio serve', () => {
  it(
    'serves the inbox at /inbox/',
    async () => {
      const folio = await serveFolio({ DATA_DIR: tempDir('inbox-serve'), DATABASE_URL: '', REDIS_URL: '' });
      try {
        const res = await fetch(`${folio.base}/inbox/`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-security-policy')).toBe(CSP);
        expect(await res.text()).toContain('<div id="app">');
        // Its banner says where.
        expect(folio.output()).toContain(`Inbox: ${folio.base}/inbox/`);
      } finally {
        await folio.stop();
      }
    },
    PROCESS_TEST_MS,
  );
});

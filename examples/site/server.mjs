// The showcase site on Folio: every block type of the demo, rich text with entry links, images as <picture>, a
// language switch, menus with submenus that collapse on small screens, redirects, sitemap.xml, robots.txt, seo
// metadata, and the contact form with and without JavaScript (a failed post comes back whole), read through the
// typed client (@folio/client) and rendered as plain HTML by node:http.
//
//   npm start                        # Folio with the demo space, in one terminal
//   npm run example                  # this site on http://127.0.0.1:4321, in another
//   npm run example -- build <dir>   # the site as static files; run again: only what /sync says changed
//
// Environment: FOLIO_URL (default http://127.0.0.1:3000), DATA_DIR (Folio's, default ./data: the demo tokens are
// read from it), SITE_PORT (default 4321), SITE_ORIGIN (default http://127.0.0.1:<port>). The site asks Folio once
// for a public token of its own origin (with the demo management token), so a form posted without JavaScript may
// redirect back here (spec 4.4 `_redirect`). Pages are in `render.mjs` (their frame in `layout.mjs`), the static
// build in `build.mjs`, the site's files (stylesheet, favicon, the enhancer, forms.css) in `assets.mjs`.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, resolve } from 'node:path';
import { createClient } from '../../client/dist/index.js';
import { ASSETS } from './assets.mjs';
import { buildSite } from './build.mjs';
import { renderPath, robotsTxt, sitemapXml } from './render.mjs';

const FOLIO_URL = (process.env.FOLIO_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
const DATA_DIR = resolve(process.env.DATA_DIR ?? './data');
const PORT = Number(process.env.SITE_PORT ?? 4321);
const ORIGIN = (process.env.SITE_ORIGIN ?? `http://127.0.0.1:${PORT}`).replace(/\/+$/, '');

function demoTokens() {
  const file = join(DATA_DIR, 'demo-tokens.json');
  if (!existsSync(file))
    throw new Error(`${file} not found: start Folio with its demo space first (npm start)`);
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** A public token allowed on this site's origin, created once and kept beside the demo tokens. */
async function siteToken(demo) {
  const file = join(DATA_DIR, 'example-site-token.json');
  if (existsSync(file)) {
    const kept = JSON.parse(readFileSync(file, 'utf8'));
    if (kept.origin === ORIGIN && kept.spaceId === demo.spaceId) return kept.value;
  }
  const res = await fetch(`${FOLIO_URL}/v1/spaces/${demo.spaceId}/tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${demo.management}`, 'content-type': 'application/json' },
    body: JSON.stringify({ kind: 'public', name: 'example site', origins: [ORIGIN] }),
  });
  if (res.status !== 201) throw new Error(`creating the site's token: ${res.status} ${await res.text()}`);
  const { value } = await res.json();
  writeFileSync(file, `${JSON.stringify({ origin: ORIGIN, spaceId: demo.spaceId, value }, null, 2)}\n`, {
    mode: 0o600,
  });
  return value;
}

async function handle(req, res, ctx) {
  const url = new URL(req.url ?? '/', ORIGIN);
  const send = (status, type, body, headers = {}) => {
    res.writeHead(status, { 'content-type': type, ...headers });
    res.end(body);
  };
  const asset = ASSETS[url.pathname];
  if (asset) return send(200, asset.type, readFileSync(asset.file));
  if (url.pathname === '/robots.txt') return send(200, 'text/plain; charset=utf-8', robotsTxt(ORIGIN));
  if (url.pathname === '/sitemap.xml')
    return send(200, 'application/xml; charset=utf-8', await sitemapXml(ctx));
  const page = await renderPath(ctx, url);
  if (page.location !== undefined)
    return send(page.status, 'text/plain; charset=utf-8', '', { location: page.location });
  send(page.status, 'text/html; charset=utf-8', page.html);
}

const demo = demoTokens();
const token = await siteToken(demo);
const folio = createClient({ baseUrl: FOLIO_URL, spaceId: demo.spaceId, token });
// The space's locales (the form's messages follow their fallbacks) and time zone (dates, `today`).
const { locales, timeZone } = await folio.status();
const ctx = { folio, folioUrl: FOLIO_URL, spaceId: demo.spaceId, token, origin: ORIGIN, locales, timeZone };

if (process.argv[2] === 'build') {
  const dir = process.argv[3];
  if (!dir) {
    console.error('usage: npm run example -- build <dir>');
    process.exit(2);
  }
  await buildSite({ ...ctx, static: true }, resolve(dir));
} else {
  createServer((req, res) => {
    handle(req, res, ctx).catch((err) => {
      console.error(err);
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Folio did not answer as expected.');
    });
  }).listen(PORT, '127.0.0.1', () => {
    console.log(`Example site on ${ORIGIN} (content from ${FOLIO_URL}, space ${demo.spaceId})`);
    console.log(`  ${ORIGIN}/               the home page with the main menu`);
    console.log(`  ${ORIGIN}/blog/hello-world  a post: rich text, cover image, author, related posts`);
    console.log(`  ${ORIGIN}/de/kontakt     the contact form in German (try it with JavaScript off too)`);
    console.log(`  ${ORIGIN}/sitemap.xml    every page in every locale`);
  });
}

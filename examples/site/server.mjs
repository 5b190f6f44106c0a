// An example site on Folio (issue 14): pages, the main menu and the demo contact form, read through the typed
// client (@folio/client) and rendered as plain HTML by a small node:http server. No framework, no build of its own.
//
//   npm start              # Folio with the demo space, in one terminal
//   npm run example        # this site on http://127.0.0.1:4321, in another
//
// Environment: FOLIO_URL (default http://127.0.0.1:3000), DATA_DIR (Folio's, default ./data: the demo tokens are
// read from it), SITE_PORT (default 4321). The site asks Folio once for a public token of its own origin (with the
// demo management token), so a form posted without JavaScript may redirect back here (spec 4.4 `_redirect`).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient, FolioApiError } from '../../client/dist/index.js';
import { readFormError, renderForm } from '../../client/dist/forms.js';

const FOLIO_URL = (process.env.FOLIO_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
const DATA_DIR = resolve(process.env.DATA_DIR ?? './data');
const PORT = Number(process.env.SITE_PORT ?? 4321);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const ENHANCER = fileURLToPath(new URL('../../client/dist/enhance.js', import.meta.url));
const LOCALES = ['en', 'de'];

const escape = (s) =>
  String(s ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );

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

/** Rich text (spec 2.8) as HTML: paragraphs, headings, lists, bold, italic and links; everything escaped. */
function richText(node) {
  if (!node || typeof node !== 'object') return '';
  if (node.type === 'text') {
    let html = escape(node.text);
    for (const mark of node.marks ?? []) {
      if (mark.type === 'bold') html = `<strong>${html}</strong>`;
      else if (mark.type === 'italic') html = `<em>${html}</em>`;
      else if (mark.type === 'link') {
        const a = mark.attrs ?? {};
        const href = a.kind === 'email' ? `mailto:${a.email}` : (a.href ?? a.url ?? a.path ?? null);
        if (typeof href === 'string' && /^(https?:|mailto:|\/)/.test(href))
          html = `<a href="${escape(href)}">${html}</a>`;
      }
    }
    return html;
  }
  const inner = (node.content ?? []).map(richText).join('');
  const tags = {
    paragraph: 'p',
    bulletList: 'ul',
    orderedList: 'ol',
    listItem: 'li',
    blockquote: 'blockquote',
  };
  if (node.type === 'heading') return `<h${node.attrs?.level ?? 2}>${inner}</h${node.attrs?.level ?? 2}>`;
  return tags[node.type] ? `<${tags[node.type]}>${inner}</${tags[node.type]}>` : inner;
}

function menuHtml(items) {
  if (!items?.length) return '';
  const li = items.map((i) => {
    const label = escape(i.label);
    const link = i.href ? `<a href="${escape(i.href)}">${label}</a>` : `<span>${label}</span>`;
    return `<li>${link}${menuHtml(i.children)}</li>`;
  });
  return `<ul>${li.join('')}</ul>`;
}

async function blockHtml(block, ctx) {
  const f = block.fields ?? {};
  switch (block.type) {
    case 'hero':
      return `<section class="hero"><h2>${escape(f.heading)}</h2>${f.text ? `<p>${escape(f.text)}</p>` : ''}</section>`;
    case 'textBlock':
      return `<section>${richText(f.text)}</section>`;
    case 'formBlock': {
      const key = f.form?.form;
      if (typeof key !== 'string') return '';
      // Through the client, as a site would: the definition in the page's locale.
      const { form } = await ctx.folio.forms.get(key, { locale: ctx.locale });
      return renderForm(form, {
        baseUrl: FOLIO_URL,
        spaceId: ctx.spaceId,
        token: ctx.token,
        redirect: `${ORIGIN}/thanks`,
        redirectError: `${ORIGIN}${ctx.path}`,
        page: `${ORIGIN}${ctx.path}`,
        error: readFormError(ctx.query),
      });
    }
    default:
      return '';
  }
}

function page(title, nav, main, locale) {
  return `<!doctype html>
<html lang="${escape(locale)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem}nav ul{list-style:none;padding:0;display:flex;gap:1rem}nav ul ul{display:none}
label{display:block;font-weight:600;margin-top:1rem}input:not([type=checkbox]):not([type=radio]),select,textarea{width:100%;padding:.4rem;box-sizing:border-box}
[role=alert],.folio-error{color:#b00020}button{margin-top:1rem;padding:.5rem 1.2rem}</style>
<script type="module" src="/assets/enhance.js"></script></head>
<body><nav>${nav}</nav><main>${main}</main></body></html>`;
}

async function handle(req, res, ctx) {
  const url = new URL(req.url ?? '/', ORIGIN);
  if (url.pathname === '/assets/enhance.js') {
    res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
    return res.end(readFileSync(ENHANCER));
  }
  const locale = LOCALES.includes(url.searchParams.get('locale') ?? '')
    ? url.searchParams.get('locale')
    : 'en';
  const { menu } = await ctx.folio.menus.get('main', { locale });
  const nav = menuHtml(menu.items);
  if (url.pathname === '/thanks') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    return res.end(page('Thank you', nav, '<h1>Thank you</h1><p>Your message was sent.</p>', locale));
  }
  try {
    const { entry } = await ctx.folio.entries.byPath(url.pathname, { locale });
    const fields = entry.content.fields;
    const blocks = [];
    for (const block of Array.isArray(fields.body) ? fields.body : [])
      blocks.push(await blockHtml(block, { ...ctx, locale, path: url.pathname, query: url.searchParams }));
    const intro = typeof fields.intro === 'string' ? `<p>${escape(fields.intro)}</p>` : '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      page(
        entry.name,
        nav,
        `<h1>${escape(fields.title ?? entry.name)}</h1>${intro}${blocks.join('')}`,
        locale,
      ),
    );
  } catch (err) {
    if (!(err instanceof FolioApiError) || err.status !== 404) throw err;
    // An old path: Folio names where it moved (spec 7.3).
    if (err.redirect) {
      res.writeHead(err.redirect.status, { location: err.redirect.to });
      return res.end();
    }
    res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page('Not found', nav, '<h1>Not found</h1>', locale));
  }
}

const demo = demoTokens();
const token = await siteToken(demo);
const ctx = {
  folio: createClient({ baseUrl: FOLIO_URL, spaceId: demo.spaceId, token }),
  spaceId: demo.spaceId,
  token,
};
createServer((req, res) => {
  handle(req, res, ctx).catch((err) => {
    console.error(err);
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('Folio did not answer as expected.');
  });
}).listen(PORT, '127.0.0.1', () => {
  console.log(`Example site on ${ORIGIN} (content from ${FOLIO_URL}, space ${demo.spaceId})`);
  console.log(`  ${ORIGIN}/            the home page with the main menu`);
  console.log(`  ${ORIGIN}/contact     the demo contact form (try it with JavaScript off too)`);
  console.log(`  ${ORIGIN}/kontakt?locale=de`);
});

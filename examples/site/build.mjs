// `npm run example -- build <dir>`: the site as static files, and on the next run only what `/sync` says changed:
// the changed pages, the pages they affect (links, references, assets, forms), the pages that list posts when a
// post changed, every page when the menu or the footer changed; the files of deleted and moved pages are removed.
// `<dir>/.folio-build.json` keeps the cv of the last build and where each page was written. Beside the pages: the
// site's files (assets.mjs), a 404.html, and each form's thank-you page per locale. Forms on static pages ask Folio
// to show a failed post itself when it was sent without JavaScript (render.mjs); with it, the enhancer does.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ASSETS } from './assets.mjs';
import {
  LOCALES,
  localHref,
  notFoundHtml,
  renderPath,
  robotsTxt,
  sitemapXml,
  thanksHtml,
} from './render.mjs';

const STATE = '.folio-build.json';

function fileOf(dir, locale, path) {
  const href = localHref(locale, path);
  return join(dir, href === '/' ? '' : href, 'index.html');
}

function readState(dir, spaceId) {
  const file = join(dir, STATE);
  if (!existsSync(file)) return null;
  const state = JSON.parse(readFileSync(file, 'utf8'));
  return state.spaceId === spaceId && Number.isInteger(state.cv) ? state : null;
}

/** Builds `dir`; returns what it did (and prints each rewritten page). */
export async function buildSite(ctx, dir, log = console.log) {
  mkdirSync(dir, { recursive: true });
  const state = readState(dir, ctx.spaceId);
  const { cv } = await ctx.folio.status();
  const folio = ctx.folio.at(cv);
  const since = state?.cv ?? 0;
  const pages = new Map(Object.entries(state?.pages ?? {})); // "id locale" → path
  const listing = new Set(state?.listing ?? []); // "id locale" of pages that list posts
  const rewrite = new Set();
  const removed = [];
  let everything = state === null;

  if (since < cv) {
    // With the include the pages render with: a post whose referenced posts or author changed is affected.
    const feed = folio.sync({ since, limit: 1000, include: ['author', 'related'] });
    for await (const c of feed) {
      const item = c.item;
      if (c.change === 'changed' && item.kind === 'entry') {
        if (item.page && item.path !== null) rewrite.add(`${item.id} ${item.locale}`);
        if (item.type === 'post') for (const key of listing) rewrite.add(key);
      } else if (c.change === 'affected') {
        // A global is part of every page's layout (the footer links pages: a rename changes it).
        if (item.key !== undefined && since > 0) everything = true;
        else rewrite.add(`${item.id} ${item.locale}`);
      } else if (c.change === 'deleted' && item.kind === 'entry') {
        for (const locale of Object.keys(item.paths ?? {})) rewrite.add(`${item.id} ${locale}`);
        if (item.type === 'post') for (const key of listing) rewrite.add(key);
      } else if ((item.kind === 'menu' || item.kind === 'global') && since > 0) everything = true;
    }
  }
  // Where every page is at cv (a full sync names each with its path per locale), in a request per 1000 documents.
  const current = new Map();
  for await (const c of folio.sync({ since: 0, limit: 1000 }))
    if (c.change === 'changed' && c.item.kind === 'entry' && c.item.page && c.item.path !== null)
      current.set(`${c.item.id} ${c.item.locale}`, c.item.path);
  if (everything) for (const key of [...current.keys(), ...pages.keys()]) rewrite.add(key);

  const forms = new Set(state?.forms ?? []); // keys of the forms on the site's pages
  const site = { ...ctx, folio, chrome: new Map(), forms };
  const written = [];
  for (const key of [...rewrite].sort()) {
    const [, locale] = key.split(' ');
    const old = pages.get(key);
    const path = current.get(key) ?? null; // null: gone (deleted, or no page any more)
    if (old !== undefined && old !== path) {
      rmSync(fileOf(dir, locale, old), { force: true });
      removed.push(localHref(locale, old));
      pages.delete(key);
      listing.delete(key);
    }
    if (path === null) continue;
    const page = await renderPath(site, new URL(localHref(locale, path), ctx.origin));
    if (page.status !== 200) continue;
    const file = fileOf(dir, locale, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, page.html);
    pages.set(key, path);
    if (page.listsPosts) listing.add(key);
    written.push(localHref(locale, path));
    log(`rewrote ${localHref(locale, path)}`);
  }
  for (const path of removed) log(`removed ${path}`);
  if (written.length > 0 || removed.length > 0 || state === null) {
    writeFileSync(join(dir, 'sitemap.xml'), await sitemapXml(site));
    writeFileSync(join(dir, 'robots.txt'), robotsTxt(ctx.origin));
    writeFileSync(join(dir, '404.html'), await notFoundHtml(site));
    for (const key of forms)
      for (const locale of LOCALES) {
        const file = join(dir, localHref(locale, `/thanks/${key}`), 'index.html');
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, await thanksHtml(site, locale, key));
      }
  }
  for (const [path, { file }] of Object.entries(ASSETS)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    copyFileSync(file, join(dir, path));
  }
  writeFileSync(
    join(dir, STATE),
    `${JSON.stringify({ spaceId: ctx.spaceId, cv, pages: Object.fromEntries(pages), listing: [...listing], forms: [...forms] }, null, 2)}\n`,
  );
  log(`built cv ${since} → ${cv}: ${written.length} page(s) rewritten, ${removed.length} removed`);
  return { from: since, to: cv, written, removed };
}

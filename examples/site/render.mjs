// The showcase site's pages (issue 31 item 6), rendered from Folio through @folio/client: shared by the server
// (server.mjs) and the static build (build.mjs). Every block type of the demo, rich text with entry links in the
// page's locale, images as <picture> with AVIF/WebP srcsets, a language switch from `alternates`, the main menu
// with its submenus, the footer global, redirects (301 followed, 410 page), the blog list and the contact form.
import { FolioApiError, isAsset, picture, renderRichText } from '../../client/dist/index.js';
import { readFormError, renderForm, renderSuccess } from '../../client/dist/forms.js';

export const LOCALES = ['en', 'de', 'de-ch'];
export const DEFAULT_LOCALE = 'en';
const LANGUAGE_NAMES = { en: 'English', de: 'Deutsch', 'de-ch': 'Schwiizerdütsch' };
const WORDS = {
  en: {
    notFound: 'Not found',
    gone: 'This page is gone',
    goneText: 'It was removed.',
    posts: 'Posts',
    by: 'by',
    related: 'Related posts',
    thanks: 'Thank you',
    language: 'Language',
  },
  de: {
    notFound: 'Nicht gefunden',
    gone: 'Diese Seite gibt es nicht mehr',
    goneText: 'Sie wurde entfernt.',
    posts: 'Beiträge',
    by: 'von',
    related: 'Verwandte Beiträge',
    thanks: 'Danke',
    language: 'Sprache',
  },
};
const words = (locale) => WORDS[locale] ?? WORDS[locale.split('-')[0]] ?? WORDS.en;

export const escape = (s) =>
  String(s ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );

/** `/de/kontakt` → `{ locale: 'de', path: '/kontakt' }`; the default locale has no prefix. */
export function splitLocale(pathname) {
  const [, first, ...rest] = pathname.split('/');
  if (first && first !== DEFAULT_LOCALE && LOCALES.includes(first))
    return { locale: first, path: `/${rest.join('/')}`.replace(/\/+$/, '') || '/' };
  return { locale: DEFAULT_LOCALE, path: pathname.replace(/\/+$/, '') || '/' };
}

/** A Folio path in a locale as a URL of this site. */
export function localHref(locale, path) {
  if (locale === DEFAULT_LOCALE) return path;
  return path === '/' ? `/${locale}` : `/${locale}${path}`;
}

/** Site paths get the locale's prefix; other URLs stay. */
const siteHref = (locale, href) =>
  typeof href === 'string' && href.startsWith('/') ? localHref(locale, href) : href;

function linkHref(locale, link, links) {
  if (!link) return null;
  if (link.kind === 'entry') {
    const target = links?.[link.entry];
    return target ? localHref(locale, target.path) : null;
  }
  if (link.kind === 'email') return `mailto:${link.email}`;
  return link.url ?? null;
}

const rich = (locale, doc, links) =>
  renderRichText(doc, {
    links,
    linkHref: (link, target) =>
      link.kind === 'entry'
        ? target
          ? localHref(locale, target.path)
          : null
        : linkHref(locale, link, links),
  });

function menuHtml(locale, items, depth = 0) {
  if (!items?.length) return '';
  const li = items.map((i) => {
    const label = escape(i.label);
    const link = i.href
      ? `<a href="${escape(siteHref(locale, i.href))}">${label}</a>`
      : `<span>${label}</span>`;
    return `<li${i.children?.length ? ' class="has-sub"' : ''}>${link}${menuHtml(locale, i.children, depth + 1)}</li>`;
  });
  return `<ul class="menu menu--${depth}">${li.join('')}</ul>`;
}

async function blockHtml(block, ctx) {
  const f = block.fields ?? {};
  switch (block.type) {
    case 'hero': {
      const cta = linkHref(ctx.locale, f.cta, ctx.links);
      // The hero's link has no label field: the button names where it leads (the linked entry's name, else its URL).
      const ctaLabel = (f.cta?.kind === 'entry' ? ctx.links?.[f.cta.entry]?.name : null) ?? cta;
      return `<section class="block hero hero--${escape(f.theme ?? 'light')}"><h2>${escape(f.heading)}</h2>${isAsset(f.image) ? picture(f.image, { sizes: '(min-width: 48rem) 44rem, 100vw', ar: '16:9', loading: 'eager' }) : ''}${cta ? `<p><a class="button" href="${escape(cta)}">${escape(ctaLabel)} →</a></p>` : ''}</section>`;
    }
    case 'textBlock':
      return `<section class="block text">${rich(ctx.locale, f.text, ctx.links)}</section>`;
    case 'gallery':
      return `<section class="block gallery">${(f.images ?? [])
        .filter(isAsset)
        .map(
          (a) =>
            `<figure>${picture(a, { sizes: '(min-width: 48rem) 14rem, 50vw', ar: '1:1', widths: [320, 480, 640] })}${a.credit ? `<figcaption>${escape(a.credit)}</figcaption>` : ''}</figure>`,
        )
        .join('')}</section>`;
    case 'cta': {
      const href = linkHref(ctx.locale, f.link, ctx.links);
      return `<section class="block cta">${href ? `<a class="button" href="${escape(href)}">${escape(f.label)}</a>` : escape(f.label)}</section>`;
    }
    case 'linkItem': {
      const href = linkHref(ctx.locale, f.link, ctx.links);
      return href ? `<a href="${escape(href)}">${escape(f.label)}</a>` : escape(f.label);
    }
    case 'formBlock': {
      const form = f.form?.definition;
      if (!form) return '';
      const here = `${ctx.origin}${localHref(ctx.locale, ctx.path)}`;
      return `<section class="block form">${renderForm(form, {
        baseUrl: ctx.folioUrl,
        spaceId: ctx.spaceId,
        token: ctx.token,
        redirect: `${ctx.origin}${localHref(ctx.locale, '/thanks')}?form=${encodeURIComponent(form.key)}`,
        redirectError: here,
        page: here,
        error: readFormError(ctx.query),
      })}</section>`;
    }
    default:
      return '';
  }
}

async function postsList(ctx) {
  const items = [];
  for await (const post of ctx.folio.entries.list({
    type: 'post',
    locale: ctx.locale,
    sort: '-publishedAt',
    limit: 20,
  }))
    items.push(
      `<li><a href="${escape(localHref(ctx.locale, post.path))}">${escape(post.content.fields.title ?? post.name)}</a> <small>${escape(post.content.fields.excerpt ?? '')}</small></li>`,
    );
  return `<section class="block posts"><h2>${escape(words(ctx.locale).posts)}</h2><ul>${items.join('')}</ul></section>`;
}

function languageSwitch(locale, alternates) {
  const links = LOCALES.filter((l) => alternates?.[l]).map((l) =>
    l === locale
      ? `<li><strong lang="${l}">${escape(LANGUAGE_NAMES[l])}</strong></li>`
      : `<li><a lang="${l}" hreflang="${l}" href="${escape(localHref(l, alternates[l]))}">${escape(LANGUAGE_NAMES[l])}</a></li>`,
  );
  return `<nav class="languages" aria-label="${escape(words(locale).language)}"><ul>${links.join('')}</ul></nav>`;
}

function layout({ locale, title, nav, footer, main, alternates, head = '' }) {
  return `<!doctype html>
<html lang="${escape(locale)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>${head}
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:48rem;margin:1.5rem auto;padding:0 1rem;color:#1d1d1f}
header{display:flex;flex-wrap:wrap;justify-content:space-between;gap:1rem;border-bottom:1px solid #ddd;padding-bottom:.5rem}
.menu{list-style:none;padding:0;margin:0;display:flex;gap:1rem}.menu .menu{display:block;font-size:.9em;padding-left:.6rem;border-left:2px solid #ddd}
.languages ul{list-style:none;display:flex;gap:.6rem;padding:0;margin:0}
img{max-width:100%;height:auto;display:block}.gallery{display:grid;grid-template-columns:repeat(auto-fill,minmax(10rem,1fr));gap:.5rem}
figure{margin:0}figcaption{font-size:.8em;color:#555}.hero--dark{background:#222;color:#fff;padding:1rem}
.button{display:inline-block;padding:.5rem 1.2rem;background:#0b57d0;color:#fff;text-decoration:none;border-radius:4px}
footer{border-top:1px solid #ddd;margin-top:2rem;padding-top:.5rem;font-size:.9em}footer a{margin-right:1rem}
label{display:block;font-weight:600;margin-top:1rem}input:not([type=checkbox]):not([type=radio]),select,textarea{width:100%;padding:.4rem;box-sizing:border-box}
[role=alert],.folio-error{color:#b00020}button{margin-top:1rem;padding:.5rem 1.2rem}
</style>
<script type="module" src="/assets/enhance.js"></script></head>
<body><header><nav class="main" aria-label="Main">${nav}</nav>${alternates ? languageSwitch(locale, alternates) : ''}</header>
<main>${main}</main><footer>${footer}</footer></body></html>`;
}

/** The menu and the footer of a locale; a static build keeps them for every page of one run (`ctx.chrome`). */
async function chrome(ctx) {
  const kept = ctx.chrome?.get(ctx.locale);
  if (kept) return kept;
  const made = await makeChrome(ctx);
  ctx.chrome?.set(ctx.locale, made);
  return made;
}

async function makeChrome(ctx) {
  const [{ menu }, { globals, included }] = await Promise.all([
    ctx.folio.menus.get('main', { locale: ctx.locale }),
    ctx.folio.globals.all({ keys: ['footer'], locale: ctx.locale }),
  ]);
  const f = globals.footer?.content.fields ?? {};
  const links = [];
  for (const b of f.links ?? []) links.push(await blockHtml(b, { ...ctx, links: included.links }));
  return { nav: menuHtml(ctx.locale, menu.items), footer: `${links.join('')}<p>${escape(f.copyright)}</p>` };
}

/**
 * A page of the site: `{ status, html }`, or `{ status, location }` for a redirect. `ctx`: `{ folio, folioUrl,
 * spaceId, token, origin }`; `url`: the request's URL on this site.
 */
export async function renderPath(ctx, url) {
  const { locale, path } = splitLocale(url.pathname);
  const c = { ...ctx, locale, path, query: url.searchParams };
  const { nav, footer } = await chrome(c);
  const w = words(locale);
  if (path === '/thanks') {
    const key = url.searchParams.get('form') ?? 'contact';
    const { form } = await ctx.folio.forms.get(key, { locale });
    return {
      status: 200,
      html: layout({
        locale,
        title: w.thanks,
        nav,
        footer,
        main: `<h1>${escape(w.thanks)}</h1>${renderSuccess(form)}`,
      }),
    };
  }
  let answer;
  try {
    answer = await ctx.folio.entries.byPath(path, { locale, include: ['author', 'related'] });
  } catch (err) {
    if (!(err instanceof FolioApiError) || err.status !== 404) throw err;
    // An old path: Folio names where it went (spec 7.3). 301/302 are followed; a deleted page is 410.
    if (err.redirect?.to) return { status: err.redirect.status, location: siteHref(locale, err.redirect.to) };
    if (err.redirect)
      return {
        status: 410,
        html: layout({
          locale,
          title: w.gone,
          nav,
          footer,
          main: `<h1>${escape(w.gone)}</h1><p>${escape(w.goneText)}</p>`,
        }),
      };
    return {
      status: 404,
      html: layout({ locale, title: w.notFound, nav, footer, main: `<h1>${escape(w.notFound)}</h1>` }),
    };
  }
  const { entry, included } = answer;
  const fields = entry.content.fields;
  const bc = { ...c, links: included.links };
  const parts = [`<h1>${escape(fields.title ?? entry.name)}</h1>`];
  if (typeof fields.intro === 'string') parts.push(`<p class="intro">${escape(fields.intro)}</p>`);
  if (entry.type === 'post') {
    const author = included.entries.find((e) => e.id === fields.author);
    if (author) parts.push(`<p class="byline">${escape(w.by)} ${escape(author.content.fields.name)}</p>`);
    if (isAsset(fields.cover))
      parts.push(picture(fields.cover, { sizes: '(min-width: 48rem) 44rem, 100vw', loading: 'eager' }));
    parts.push(`<article>${rich(locale, fields.body, included.links)}</article>`);
    // `include: related` brings the referenced posts (with their paths in the locale) into included.entries.
    const related = (fields.related ?? [])
      .map((id) => included.entries.find((e) => e.id === id))
      .filter(Boolean);
    if (related.length)
      parts.push(
        `<aside><h2>${escape(w.related)}</h2><ul>${related.map((r) => `<li><a href="${escape(localHref(locale, r.path))}">${escape(r.content.fields.title ?? r.name)}</a></li>`).join('')}</ul></aside>`,
      );
  }
  for (const block of Array.isArray(fields.body) ? fields.body : []) parts.push(await blockHtml(block, bc));
  // The blog's start page lists the posts (a page that lists entries: the build rewrites it when a post changes).
  const listsPosts = entry.parentId === 'ent_blog' && entry.type === 'page';
  if (listsPosts) parts.push(await postsList(c));
  const head = Object.entries(entry.alternates ?? {})
    .map(
      ([l, p]) =>
        `<link rel="alternate" hreflang="${escape(l)}" href="${escape(`${ctx.origin}${localHref(l, p)}`)}">`,
    )
    .join('');
  return {
    status: 200,
    entry,
    listsPosts,
    html: layout({
      locale,
      title: entry.name,
      nav,
      footer,
      main: parts.join(''),
      alternates: entry.alternates,
      head,
    }),
  };
}

/** sitemap.xml of every locale, with alternates. */
export async function sitemapXml(ctx) {
  const urls = [];
  for (const locale of LOCALES) {
    const { items } = await ctx.folio.sitemap({ locale });
    for (const item of items) {
      const alts = Object.entries(item.alternates ?? {})
        .map(
          ([l, p]) =>
            `<xhtml:link rel="alternate" hreflang="${escape(l)}" href="${escape(`${ctx.origin}${localHref(l, p)}`)}"/>`,
        )
        .join('');
      urls.push(
        `<url><loc>${escape(`${ctx.origin}${localHref(locale, item.path)}`)}</loc><lastmod>${escape(item.updatedAt)}</lastmod>${alts}</url>`,
      );
    }
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">${urls.join('')}</urlset>\n`;
}

export const robotsTxt = (origin) => `User-agent: *\nAllow: /\nSitemap: ${origin}/sitemap.xml\n`;

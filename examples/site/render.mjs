// The showcase site's pages, rendered from Folio through @folio/client: shared by the server (server.mjs) and the
// static build (build.mjs). Every block type of the demo, rich text with entry links in the page's locale, images
// as <picture> with AVIF/WebP srcsets, posts with their dates, the blog list, redirects (301 followed, 410 page),
// 404 and 410 pages with a way home, and the contact form doing the whole round trip without JavaScript: a failed
// post comes back with its errors beside the fields and every value (the redirect's `fields` and draft); a static
// page, which cannot read a draft, asks Folio to show the form again itself (`errorPage: 'folio-without-js'`).
import { FolioApiError, isAsset, picture, renderRichText } from '../../client/dist/index.js';
import { readDraft, readFormResult, renderForm, renderSuccess } from '../../client/dist/forms.js';
import {
  LOCALES,
  dateHtml,
  escape,
  homeAlternates,
  layout,
  localHref,
  menuHtml,
  siteHref,
  splitLocale,
  words,
} from './layout.mjs';

export { DEFAULT_LOCALE, LOCALES, localHref } from './layout.mjs';

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

/** The contact form (any form block), with what a failed plain post came back with. */
async function formHtml(form, ctx) {
  const here = `${ctx.origin}${localHref(ctx.locale, ctx.path)}`;
  // A static page is the same for everyone: it cannot show a post's errors without JavaScript (the enhancer
  // reads them from the query), so without it Folio shows the form again.
  const back = ctx.static ? null : readFormResult(ctx.query);
  const values = back?.draft
    ? await readDraft({
        baseUrl: ctx.folioUrl,
        spaceId: ctx.spaceId,
        token: ctx.token,
        formKey: form.key,
        draft: back.draft,
      })
    : null;
  return renderForm(form, {
    baseUrl: ctx.folioUrl,
    spaceId: ctx.spaceId,
    token: ctx.token,
    redirect: `${ctx.origin}${localHref(ctx.locale, `/thanks/${form.key}`)}`,
    redirectError: here,
    page: here,
    error: back?.error ?? null,
    fieldErrors: back?.fieldErrors ?? {},
    ...(values ? { values } : {}),
    locales: ctx.locales,
    timeZone: ctx.timeZone,
    headingLevel: 2,
    errorPage: ctx.static ? 'folio-without-js' : 'site',
  });
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
      ctx.forms?.add(form.key);
      return `<section class="block form">${await formHtml(form, ctx)}</section>`;
    }
    default:
      return '';
  }
}

/** When a post was published: its own `publishedOn`, else when it first went out. */
const postDate = (post) => post.content.fields.publishedOn ?? post.firstPublishedAt ?? post.publishedAt;

async function postsList(ctx) {
  const items = [];
  for await (const post of ctx.folio.entries.list({
    type: 'post',
    locale: ctx.locale,
    sort: '-publishedAt',
    limit: 20,
  }))
    items.push(
      `<li><a href="${escape(localHref(ctx.locale, post.path))}">${escape(post.content.fields.title ?? post.name)}</a> <small>${dateHtml(postDate(post), ctx.locale, ctx.timeZone)}${post.content.fields.excerpt ? ` · ${escape(post.content.fields.excerpt)}` : ''}</small></li>`,
    );
  return `<section class="block posts"><h2>${escape(words(ctx.locale).posts)}</h2><ul>${items.join('')}</ul></section>`;
}

/** The menu, the footer and the site's name of a locale; a static build keeps them for one run (`ctx.chrome`). */
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
    ctx.folio.globals.all({ keys: ['footer', 'settings'], locale: ctx.locale }),
  ]);
  const f = globals.footer?.content.fields ?? {};
  const links = [];
  for (const b of f.links ?? []) links.push(await blockHtml(b, { ...ctx, links: included.links }));
  return {
    nav: menuHtml(ctx.locale, menu.items),
    footer: `${links.join('')}<p>${escape(f.copyright)}</p>`,
    siteName: globals.settings?.content.fields.siteName ?? 'Folio',
  };
}

/** A page that is not there (404) or no more (410): why, a way home, and the home page in every language. */
function missingPage(c, status) {
  const w = words(c.locale);
  const [title, text] = status === 410 ? [w.gone, w.goneText] : [w.notFound, w.notFoundText];
  return {
    status,
    html: layout(c, {
      title,
      noindex: true,
      alternates: homeAlternates(),
      main: `<h1>${escape(title)}</h1><p>${escape(text)}</p><p><a class="button" href="${escape(localHref(c.locale, '/'))}">${escape(w.home)}</a></p>`,
    }),
  };
}

/** The page a form's `_redirect` leads to: its success message in the page's language. */
async function thanksPage(c, key) {
  const { form } = await c.folio.forms.get(key, { locale: c.locale });
  const w = words(c.locale);
  return {
    status: 200,
    html: layout(c, {
      title: w.thanks,
      noindex: true,
      alternates: Object.fromEntries(LOCALES.map((l) => [l, `/thanks/${key}`])),
      main: `<h1>${escape(w.thanks)}</h1>${renderSuccess(form)}<p><a href="${escape(localHref(c.locale, '/'))}">${escape(w.home)}</a></p>`,
    }),
  };
}

/**
 * A page of the site: `{ status, html }`, or `{ status, location }` for a redirect. `ctx`: `{ folio, folioUrl,
 * spaceId, token, origin, locales, timeZone, static? }`; `url`: the request's URL on this site.
 */
export async function renderPath(ctx, url) {
  const { locale, path } = splitLocale(url.pathname);
  const base = { ...ctx, locale, path, query: url.searchParams };
  const c = { ...base, ...(await chrome(base)) };
  const thanks = /^\/thanks\/([A-Za-z][A-Za-z0-9_-]{0,63})$/.exec(path);
  if (thanks) return thanksPage(c, thanks[1]);
  let answer;
  try {
    answer = await ctx.folio.entries.byPath(path, { locale, include: ['author', 'related'] });
  } catch (err) {
    if (!(err instanceof FolioApiError) || err.status !== 404) throw err;
    // An old path: Folio names where it went (spec 7.3). 301/302 are followed; a deleted page is 410.
    if (err.redirect?.to) return { status: err.redirect.status, location: siteHref(locale, err.redirect.to) };
    return missingPage(c, err.redirect ? 410 : 404);
  }
  const { entry, included } = answer;
  const fields = entry.content.fields;
  const bc = { ...c, links: included.links };
  const title = fields.title ?? entry.name;
  const parts = [`<h1>${escape(title)}</h1>`];
  if (typeof fields.intro === 'string') parts.push(`<p class="intro">${escape(fields.intro)}</p>`);
  if (entry.type === 'post') {
    const author = included.entries.find((e) => e.id === fields.author);
    const date = dateHtml(postDate(entry), locale, ctx.timeZone);
    const byline = author ? ` ${escape(words(locale).by)} ${escape(author.content.fields.name)}` : '';
    parts.push(`<p class="meta byline">${escape(words(locale).published)} ${date}${byline}</p>`);
    if (isAsset(fields.cover))
      parts.push(picture(fields.cover, { sizes: '(min-width: 48rem) 44rem, 100vw', loading: 'eager' }));
    parts.push(`<article>${rich(locale, fields.body, included.links)}</article>`);
    // `include: related` brings the referenced posts (with their paths in the locale) into included.entries.
    const related = (fields.related ?? [])
      .map((id) => included.entries.find((e) => e.id === id))
      .filter(Boolean);
    if (related.length)
      parts.push(
        `<aside><h2>${escape(words(locale).related)}</h2><ul>${related.map((r) => `<li><a href="${escape(localHref(locale, r.path))}">${escape(r.content.fields.title ?? r.name)}</a></li>`).join('')}</ul></aside>`,
      );
  }
  for (const block of Array.isArray(fields.body) ? fields.body : []) parts.push(await blockHtml(block, bc));
  // The blog's start page lists the posts (a page that lists entries: the build rewrites it when a post changes).
  const listsPosts = entry.parentId === 'ent_blog' && entry.type === 'page';
  if (listsPosts) parts.push(await postsList(c));
  return {
    status: 200,
    entry,
    listsPosts,
    html: layout(c, {
      title,
      seo: fields.seo ?? null,
      description: typeof fields.excerpt === 'string' ? fields.excerpt : undefined,
      path: entry.path,
      alternates: entry.alternates,
      main: parts.join(''),
    }),
  };
}

/** The 404 page of a static build (one file, in the default locale, linking every language's home). */
export async function notFoundHtml(ctx) {
  const c = { ...ctx, locale: LOCALES[0], path: '/404' };
  return missingPage({ ...c, ...(await chrome(c)) }, 404).html;
}

/** The thank-you page of a form in a locale, for a static build. */
export async function thanksHtml(ctx, locale, key) {
  const c = { ...ctx, locale, path: `/thanks/${key}` };
  return (await thanksPage({ ...c, ...(await chrome(c)) }, key)).html;
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

// The frame of every page of the showcase site: the head (title from the page's content in its language, the
// `seo` field as description, robots, canonical and hreflang, the favicon, the site's and forms' stylesheets, the
// enhancer), a skip link, a header whose menu collapses behind "Menu" on narrow screens (a <details>, so it works
// without JavaScript), the language switch, and the footer. Shared by the server and the static build.

export const LOCALES = ['en', 'de', 'de-ch'];
export const DEFAULT_LOCALE = 'en';
const LANGUAGE_NAMES = { en: 'English', de: 'Deutsch', 'de-ch': 'Schwiizerdütsch' };

const WORDS = {
  en: {
    notFound: 'Page not found',
    notFoundText: 'There is no page at this address. It may have moved, or the link may be mistyped.',
    gone: 'This page is gone',
    goneText: 'It was removed and will not come back.',
    home: 'Go to the home page',
    posts: 'Posts',
    by: 'by',
    published: 'Published',
    related: 'Related posts',
    thanks: 'Thank you',
    language: 'Language',
    menu: 'Menu',
    mainMenu: 'Main menu',
    skip: 'Skip to content',
    otherLanguages: 'This page in other languages',
  },
  de: {
    notFound: 'Seite nicht gefunden',
    notFoundText:
      'Unter dieser Adresse gibt es keine Seite. Vielleicht ist sie umgezogen, oder der Link ist falsch.',
    gone: 'Diese Seite gibt es nicht mehr',
    goneText: 'Sie wurde entfernt und kommt nicht wieder.',
    home: 'Zur Startseite',
    posts: 'Beiträge',
    by: 'von',
    published: 'Veröffentlicht am',
    related: 'Verwandte Beiträge',
    thanks: 'Danke',
    language: 'Sprache',
    menu: 'Menü',
    mainMenu: 'Hauptmenü',
    skip: 'Zum Inhalt springen',
    otherLanguages: 'Diese Seite in anderen Sprachen',
  },
};

export const words = (locale) => WORDS[locale] ?? WORDS[locale.split('-')[0]] ?? WORDS.en;

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
export const siteHref = (locale, href) =>
  typeof href === 'string' && href.startsWith('/') ? localHref(locale, href) : href;

/** A date in the page's language and the space's time zone, as a <time>. */
export function dateHtml(iso, locale, timeZone) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const text = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone }).format(date);
  return `<time datetime="${escape(date.toISOString())}">${escape(text)}</time>`;
}

export function menuHtml(locale, items, depth = 0) {
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

/** Links to this page in the other languages (`alternates`: locale → path), the current one marked. */
export function languageSwitch(locale, alternates) {
  const links = LOCALES.filter((l) => alternates?.[l] !== undefined).map((l) =>
    l === locale
      ? `<li><span lang="${l}" aria-current="page">${escape(LANGUAGE_NAMES[l])}</span></li>`
      : `<li><a lang="${l}" hreflang="${l}" href="${escape(localHref(l, alternates[l]))}">${escape(LANGUAGE_NAMES[l])}</a></li>`,
  );
  return `<nav class="languages" aria-label="${escape(words(locale).language)}"><ul>${links.join('')}</ul></nav>`;
}

/** Every locale's home page, for pages that have no alternates of their own (404, 410). */
export const homeAlternates = () => Object.fromEntries(LOCALES.map((l) => [l, '/']));

/**
 * A whole page. `title` is the page's own (its content's title in its language); `seo` the delivered seo field
 * (`{ title, description, image, noindex }`) or null; `path` the Folio path, for the canonical URL; `alternates`
 * locale → path, for hreflang and the language switch.
 */
export function layout(ctx, page) {
  const { locale, origin, siteName } = ctx;
  const w = words(locale);
  const seo = page.seo ?? null;
  const title = seo?.title || (page.title ? `${page.title} – ${siteName}` : siteName);
  const description = seo?.description || page.description || '';
  const head = [
    description ? `<meta name="description" content="${escape(description)}">` : '',
    seo?.noindex || page.noindex ? '<meta name="robots" content="noindex">' : '',
    page.path ? `<link rel="canonical" href="${escape(`${origin}${localHref(locale, page.path)}`)}">` : '',
    ...Object.entries(page.path ? (page.alternates ?? {}) : {}).map(
      ([l, p]) =>
        `<link rel="alternate" hreflang="${escape(l)}" href="${escape(`${origin}${localHref(l, p)}`)}">`,
    ),
    page.path && page.alternates?.[DEFAULT_LOCALE] !== undefined
      ? `<link rel="alternate" hreflang="x-default" href="${escape(`${origin}${localHref(DEFAULT_LOCALE, page.alternates[DEFAULT_LOCALE])}`)}">`
      : '',
    seo?.image?.url ? `<meta property="og:image" content="${escape(seo.image.url)}">` : '',
    `<meta property="og:title" content="${escape(seo?.title || page.title || siteName)}">`,
  ].join('');
  return `<!doctype html>
<html lang="${escape(locale)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>${head}
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/site.css"><link rel="stylesheet" href="/assets/forms.css">
<script type="module" src="/assets/enhance.js"></script></head>
<body><a class="skip-link" href="#main">${escape(w.skip)}</a>
<header class="site-header"><a class="brand" href="${escape(localHref(locale, '/'))}">${escape(siteName)}</a>
<details class="menu-toggle"><summary><span aria-hidden="true">☰</span> ${escape(w.menu)}</summary><nav class="main" aria-label="${escape(w.mainMenu)}">${ctx.nav}</nav></details>
${page.alternates ? languageSwitch(locale, page.alternates) : ''}</header>
<main id="main" tabindex="-1">${page.main}</main><footer>${ctx.footer}</footer></body></html>`;
}

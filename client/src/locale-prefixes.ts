// Locale prefixes: a site serves each locale under its own prefix (`{ en: '', de: '/de' }`), while Folio's paths
// are per locale without one. With `localePrefixes` the client writes the site's URLs into the answers it reads,
// so templates use `entry.path`, `alternates`, menu `href`s and `included.links` as they are. Answers are parsed
// anew for every call (the ETag cache keeps JSON text), so they are adjusted in place.

import { isObject } from './parse.js';

/** A URL prefix per locale: `''` (no prefix) or `/<segments>` without a trailing slash. */
export type LocalePrefixes = Readonly<Record<string, string>>;

/** The answers whose paths get the prefix (client/README.md "Locale prefixes" lists the fields). */
export type PrefixedAnswer =
  'entry' | 'entries' | 'globals' | 'menu' | 'menus' | 'tree' | 'sitemap' | 'redirects' | 'search' | 'sync';

const PREFIX = /^(?:\/[^/?#\s]+)*$/;

/** The prefixes, checked: each is `''` or `/de`-like (no trailing slash, no query). */
export function checkLocalePrefixes(prefixes: LocalePrefixes): LocalePrefixes {
  for (const [locale, prefix] of Object.entries(prefixes))
    if (typeof prefix !== 'string' || !PREFIX.test(prefix))
      throw new TypeError(`localePrefixes: "${locale}" maps to "${String(prefix)}", not '' or '/segment'`);
  return Object.freeze({ ...prefixes });
}

/**
 * The site URL of a Folio path in a locale: `sitePath({ de: '/de' }, 'de', '/ueber-uns')` is `/de/ueber-uns`,
 * and the home page `/` is `/de`. URLs (`https://…`, `mailto:`), `//host` paths and locales without a prefix are
 * returned unchanged.
 */
export function sitePath(prefixes: LocalePrefixes, locale: string | undefined, path: string): string {
  if (locale === undefined || !Object.hasOwn(prefixes, locale)) return path;
  const prefix = prefixes[locale] ?? '';
  if (prefix === '' || !path.startsWith('/') || path.startsWith('//')) return path;
  return path === '/' ? prefix : `${prefix}${path}`;
}

/**
 * The locale and Folio path of a site URL path (the inverse of `sitePath`): the longest prefix that matches,
 * else the locale whose prefix is `''`; null when none does. `/de/ueber-uns` → `{ locale: 'de', path: '/ueber-uns' }`.
 */
export function splitSitePath(
  prefixes: LocalePrefixes,
  pathname: string,
): { locale: string; path: string } | null {
  const byLength = Object.entries(prefixes).sort((a, b) => b[1].length - a[1].length);
  for (const [locale, prefix] of byLength) {
    if (prefix === '') return { locale, path: pathname === '' ? '/' : pathname };
    if (pathname === prefix || pathname === `${prefix}/`) return { locale, path: '/' };
    if (pathname.startsWith(`${prefix}/`)) return { locale, path: pathname.slice(prefix.length) };
  }
  return null;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const list = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isObject) : []);

/** The locale whose prefix is `''`: what an answer without a locale (and a call without one) is taken to be. */
function unprefixedLocale(prefixes: LocalePrefixes): string | undefined {
  return Object.entries(prefixes).find(([, p]) => p === '')?.[0];
}

/** Writes the site URLs of `kind`'s paths into `body`; `locale` is the call's (answers name theirs mostly). */
export function prefixAnswer(
  prefixes: LocalePrefixes,
  kind: PrefixedAnswer,
  body: unknown,
  callLocale: string | undefined,
): void {
  if (!isObject(body)) return;
  const fallback = callLocale ?? unprefixedLocale(prefixes);
  const pre = (locale: string | undefined, path: unknown) =>
    typeof path === 'string' ? sitePath(prefixes, locale, path) : path;

  const alternates = (value: unknown) => {
    if (!isObject(value)) return;
    for (const [locale, path] of Object.entries(value)) value[locale] = pre(locale, path);
  };
  const entry = (e: unknown): string | undefined => {
    if (!isObject(e)) return undefined;
    const locale = str(e.locale) ?? fallback;
    e.path = pre(locale, e.path);
    alternates(e.alternates);
    return locale;
  };
  const included = (inc: unknown, locale: string | undefined) => {
    if (!isObject(inc)) return;
    if (isObject(inc.links))
      for (const link of Object.values(inc.links)) if (isObject(link)) link.path = pre(locale, link.path);
    for (const e of list(inc.entries)) entry(e);
  };
  const menuItems = (items: unknown, locale: string | undefined) => {
    for (const item of list(items)) {
      // Pages only: other items link URLs, emails and files.
      if (typeof item.entryId === 'string') item.href = pre(locale, item.href);
      menuItems(item.children, locale);
    }
  };
  const treeNodes = (items: unknown, locale: string | undefined) => {
    for (const node of list(items)) {
      node.path = pre(locale, node.path);
      treeNodes(node.children, locale);
    }
  };

  switch (kind) {
    case 'entry':
      included(body.included, entry(body.entry) ?? fallback);
      return;
    case 'entries':
    case 'search': {
      const items = list(body.items).map((item) => (kind === 'search' ? item.entry : item));
      const locales = items.map(entry);
      included(body.included, locales[0] ?? fallback);
      return;
    }
    case 'globals': {
      const locales = isObject(body.globals) ? Object.values(body.globals).map(entry) : [];
      included(body.included, locales[0] ?? fallback);
      return;
    }
    case 'menu':
      if (isObject(body.menu)) menuItems(body.menu.items, fallback);
      return;
    case 'menus':
      if (isObject(body.menus))
        for (const menu of Object.values(body.menus)) if (isObject(menu)) menuItems(menu.items, fallback);
      return;
    case 'tree':
      treeNodes(body.items, str(body.locale) ?? fallback);
      return;
    case 'sitemap': {
      const locale = str(body.locale) ?? fallback;
      for (const item of list(body.items)) {
        item.path = pre(locale, item.path);
        alternates(item.alternates);
      }
      return;
    }
    case 'redirects': {
      const locale = str(body.locale) ?? fallback;
      for (const r of list(body.redirects)) {
        r.from = pre(locale, r.from);
        r.to = pre(locale, r.to);
      }
      return;
    }
    case 'sync':
      for (const item of [...list(body.changed), ...list(body.affected)]) {
        const locale = str(item.locale);
        if (item.kind === 'redirect') item.to = pre(locale, item.to);
        item.path = pre(locale, item.path);
        entry(item.entry);
      }
      for (const item of list(body.deleted)) {
        if (item.kind === 'entry') alternates(item.paths);
        else if (item.kind === 'redirect') item.path = pre(str(item.locale), item.path);
      }
      return;
  }
}

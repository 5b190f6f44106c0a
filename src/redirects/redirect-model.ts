import { pathKey } from '../lib/path-key.js';
import { at, isObject, type Problems } from '../lib/problems.js';
import type { RedirectRow } from './redirects-repo.js';

/** A redirect as authored (bundle `redirects[]` and the management API; docs/bundle.md). */
export interface RedirectDoc {
  from: string;
  /** An entry (followed wherever it moves), a URL, or null once the target entry was deleted (gone). */
  to: { kind: 'entry'; entry: string } | { kind: 'url'; url: string } | null;
  /** 301 or 302; 410 exactly when `to` is null. */
  status: number;
  /** null: for every locale; else only for that locale. */
  locale: string | null;
  /** Created automatically when a published page got another path (spec 2.6 rule 1). */
  auto?: true;
}

export interface RedirectContext {
  locales: ReadonlySet<string>;
  /** true for a page (an entry found by path), false for another entry, undefined for no such entry. */
  isPage(entryId: string): boolean | undefined;
}

const MEMBERS = new Set(['from', 'to', 'status', 'locale', 'auto']);
// One path: leading slash, no query or fragment, no whitespace, not protocol-relative (`//host`).
const FROM = /^\/(?!\/)[^\s?#\\]{0,2047}$/u;

/** The key a path is matched by: case, a trailing slash and a query string are ignored (spec 2.6 rule 5). */
export function redirectKey(path: string): string {
  return pathKey(path.replace(/[?#].*$/s, ''));
}

/**
 * A URL a redirect (or a menu item) may point to: an absolute http(s) URL or a path on the site itself.
 * Never `javascript:`, `data:` or a protocol-relative `//host` (which would leave the site unnoticed).
 */
export function isSafeUrl(url: unknown): url is string {
  if (typeof url !== 'string' || url.length > 2048 || /\s/.test(url)) return false;
  if (url.startsWith('/')) return !url.startsWith('//') && !url.startsWith('/\\');
  try {
    const u = new URL(url);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/** Checks one authored redirect; problems are named by JSON path under `path`. */
export function checkRedirect(input: unknown, path: string, ctx: RedirectContext, p: Problems): boolean {
  const before = p.list.length;
  if (!isObject(input)) {
    p.add(path, 'must be an object { from, to, status, locale }');
    return false;
  }
  for (const key of Object.keys(input))
    if (!MEMBERS.has(key)) p.add(at(path, key), 'is not a member of a redirect');
  if (typeof input.from !== 'string' || !FROM.test(input.from))
    p.add(at(path, 'from'), 'must be a path starting with "/" without query or fragment');
  if (input.locale !== null && (typeof input.locale !== 'string' || !ctx.locales.has(input.locale)))
    p.add(at(path, 'locale'), 'must be null (every locale) or a locale of the space');
  const to = input.to;
  if (to === null) {
    if (input.status !== 410) p.add(at(path, 'status'), 'must be 410 when "to" is null (gone)');
  } else {
    if (input.status !== 301 && input.status !== 302) p.add(at(path, 'status'), 'must be 301 or 302');
    if (!isObject(to)) p.add(at(path, 'to'), 'must be { kind: "entry", entry } or { kind: "url", url }');
    else if (to.kind === 'entry') {
      const page = typeof to.entry === 'string' ? ctx.isPage(to.entry) : undefined;
      if (page === undefined) p.add(at(at(path, 'to'), 'entry'), 'must name an entry of the space');
      else if (!page) p.add(at(at(path, 'to'), 'entry'), 'must name a page (an entry with a path)');
      if (Object.keys(to).some((k) => k !== 'kind' && k !== 'entry'))
        p.add(at(path, 'to'), 'an entry target has only kind and entry');
    } else if (to.kind === 'url') {
      if (!isSafeUrl(to.url))
        p.add(at(at(path, 'to'), 'url'), 'must be an http(s) URL or a path starting with "/"');
      if (Object.keys(to).some((k) => k !== 'kind' && k !== 'url'))
        p.add(at(path, 'to'), 'a URL target has only kind and url');
    } else p.add(at(at(path, 'to'), 'kind'), 'must be "entry" or "url"');
  }
  if (input.auto !== undefined && input.auto !== true) p.add(at(path, 'auto'), 'must be true or left out');
  return p.list.length === before;
}

/** Checks a list of redirects: each one, and no two from the same path for the same locale. */
export function checkRedirectList(
  input: readonly unknown[],
  path: string,
  ctx: RedirectContext,
  p: Problems,
): void {
  const seen = new Set<string>();
  input.forEach((r, i) => {
    if (!checkRedirect(r, at(path, i), ctx, p)) return;
    const doc = r as RedirectDoc;
    const key = `${doc.locale ?? '*'} ${redirectKey(doc.from)}`;
    if (seen.has(key)) p.add(at(at(path, i), 'from'), `another redirect already starts from "${doc.from}"`);
    seen.add(key);
  });
}

export function docToRow(doc: RedirectDoc, id: string, position: number, createdAt: string): RedirectRow {
  return {
    id,
    locale: doc.locale,
    fromPath: doc.from,
    fromKey: redirectKey(doc.from),
    toEntry: doc.to?.kind === 'entry' ? doc.to.entry : null,
    toUrl: doc.to?.kind === 'url' ? doc.to.url : null,
    status: doc.to === null ? 410 : doc.status,
    source: doc.auto ? 'auto' : 'manual',
    position,
    createdAt,
  };
}

/** The authored shape of a stored redirect (what export writes and the management API answers). */
export function rowToDoc(row: RedirectRow): RedirectDoc {
  const to: RedirectDoc['to'] =
    row.status === 410
      ? null
      : row.toUrl !== null
        ? { kind: 'url', url: row.toUrl }
        : { kind: 'entry', entry: row.toEntry ?? '' };
  return {
    from: row.fromPath,
    to,
    status: row.status,
    locale: row.locale,
    ...(row.source === 'auto' ? { auto: true as const } : {}),
  };
}

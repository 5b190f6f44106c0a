import type { SpaceEntry } from '../cluster/space-directory.js';

export interface CacheKey {
  /** space, cv (with `p` when pinned), path, canonical query: one string, the L1 key and the L2 key's tail. */
  readonly key: string;
  readonly spaceId: string;
  readonly cv: number;
  readonly pinned: boolean;
}

const CV = /^[1-9]\d{0,9}$/;

/**
 * The response cache key of a public GET (DESIGN.md "Caching"): space, cv, route and canonical query (sorted,
 * defaults applied, token removed), locale included. The token is not part of it: every token of a space sees
 * the same published content, and auth runs before the cache on every request.
 *
 * Returns null when the response must not be cached: `draft` or `release` (spec 8), a repeated parameter or a
 * malformed or expired `cv` (the handler answers those with an error, which is never cached).
 */
export function cacheKeyOf(
  space: SpaceEntry,
  path: string,
  query: Readonly<Record<string, unknown>>,
): CacheKey | null {
  let cv = space.row.cv;
  let pinned = false;
  let locale = false;
  const parts: string[] = [];
  for (const name of Object.keys(query)) {
    if (name === 'token') continue;
    const value = query[name];
    if (typeof value !== 'string') return null;
    switch (name) {
      case 'draft':
        if (value === '0' || value === 'false') continue; // the default: same response as without it
        return null;
      case 'release':
        return null;
      case 'cv':
        if (!CV.test(value)) return null;
        cv = Number(value);
        // Below the kept history the handler answers 410: never serve older bytes from the cache instead.
        if (cv < space.row.minCv) return null;
        pinned = true;
        continue;
      case 'locale':
        locale = true;
        break;
      default:
        break;
    }
    parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  }
  if (!locale) parts.push(`locale=${encodeURIComponent(space.defaultLocale)}`);
  if (parts.length > 1) parts.sort();
  // The router ignores a trailing slash, so the key does too.
  const route = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  const spaceId = space.row.id;
  return { key: `${spaceId}|${cv}${pinned ? 'p' : ''}|${route}?${parts.join('&')}`, spaceId, cv, pinned };
}

// The caching headers of every public read (spec 1.2, 4.1) and the tags a CDN purges by (issue 16): Fastly's
// `Surrogate-Key` (space-separated) and Cloudflare's `Cache-Tag` (comma-separated) name what a response depends
// on, and the `content.published`, `menu.updated`, `redirect.updated` and `form.submitted` webhooks carry the tags
// that changed (docs/api.md "CDN tags").

import type { FastifyReply } from 'fastify';
import { assetsDelivered, type DeliveredEntry, type Included } from './resolve.js';

/** What `cacheHeaders` needs of a request's view. */
export interface CacheScope {
  view: { mode: string; cv: number };
  pinned: boolean;
}

const YEAR = 31_536_000;

/**
 * The tags of one space. Every response carries the space's own tag (purge everything); the rest narrow it:
 * `entry:<id>`, `type:<key>` (lists of a type), `entries` (the tree and the sitemap: any page), `global:<key>`,
 * `menu:<key>`, `form:<key>`, `list:<key>` (option lists), `asset:<id>`, `redirects`.
 */
export const cdnTag = {
  space: (space: string): string => encodeURIComponent(space),
  of: (space: string, kind: string, key?: string): string =>
    `${encodeURIComponent(space)}:${kind}${key === undefined ? '' : `:${encodeURIComponent(key)}`}`,
};

/** Fastly and Cloudflare accept 16 KB of tags; past this the per-entry tags give way to `entries`. */
const MAX_TAG_BYTES = 8 * 1024;

export function setCdnTags(reply: FastifyReply, space: string, tags: Iterable<string>): void {
  const all = new Set([cdnTag.space(space), ...tags]);
  let list = [...all];
  if (list.join(' ').length > MAX_TAG_BYTES) {
    const entryTag = `${cdnTag.space(space)}:entry:`;
    list = [...new Set([...list.filter((t) => !t.startsWith(entryTag)), cdnTag.of(space, 'entries')])];
  }
  reply.header('surrogate-key', list.join(' ')).header('cache-tag', list.join(','));
}

/**
 * spec 1.2, 4.1: pinned responses are immutable, also for CDNs (`CDN-Cache-Control`, RFC 9213, and Fastly's
 * `Surrogate-Control`); current ones live 10 s (a CDN purging by tag may keep them longer: docs/operations.md);
 * previews are never cached.
 */
export function cacheHeaders(
  reply: FastifyReply,
  scope: CacheScope,
  space?: string,
  tags: Iterable<string> = [],
): void {
  if (scope.view.mode !== 'published') reply.header('cache-control', 'private, no-store');
  else if (scope.pinned) {
    reply
      .header('cache-control', `public, max-age=${YEAR}, immutable`)
      .header('cdn-cache-control', `public, max-age=${YEAR}, immutable`)
      .header('surrogate-control', `max-age=${YEAR}`);
  } else reply.header('cache-control', 'public, max-age=10, stale-while-revalidate=60');
  reply.header('x-folio-cv', String(scope.view.cv));
  if (space !== undefined && scope.view.mode === 'published') setCdnTags(reply, space, tags);
}

/** Asset ids anywhere in delivered fields (`{ asset, url, … }`). */
function collectAssets(value: unknown, out: Set<string>, depth = 0): void {
  if (depth > 64 || typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (const v of value) collectAssets(v, out, depth + 1);
    return;
  }
  const o = value as Record<string, unknown>;
  if (typeof o.asset === 'string' && typeof o.url === 'string') out.add(o.asset);
  for (const v of Object.values(o)) collectAssets(v, out, depth + 1);
}

/**
 * The tags of delivered entries: each entry, what they include and link to (a linked page's path is in the
 * response), their assets. Lists add their types (a new entry of the type belongs in them).
 */
export function entryTags(space: string, entries: readonly DeliveredEntry[], included?: Included): string[] {
  const tags = new Set<string>();
  // The resolver knows the assets it loaded; walking the rendered fields is the fallback, a noticeable part of a
  // large list's time (docs/operations.md, "Figures behind the code").
  const known = included ? assetsDelivered(included) : undefined;
  const assets = new Set<string>(known ?? []);
  for (const e of [...entries, ...(included?.entries ?? [])]) {
    tags.add(cdnTag.of(space, 'entry', e.id));
    if (!known) collectAssets(e.content.fields, assets);
  }
  for (const id of Object.keys(included?.links ?? {})) tags.add(cdnTag.of(space, 'entry', id));
  for (const id of assets) tags.add(cdnTag.of(space, 'asset', id));
  return [...tags];
}

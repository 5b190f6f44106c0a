// The caching headers of every public read (spec 1.2, 4.1) and the tags a CDN purges by: what a shared cache may
// keep, for how long, and under which tags, so that a purge of a publish's `data.keys` (src/webhooks/event-keys.ts)
// reaches every cached answer whose bytes changed and spares the pinned ones (docs/operations.md "CDN").

import type { FastifyReply } from 'fastify';
import type { CdnConfig } from '../config/config.js';
import { assetsDelivered, type DeliveredEntry, formsDelivered, type Included } from './resolve.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** CDN_TAG_HEADER and CDN_MAX_AGE (src/config/config.ts). */
    folioCdn: CdnConfig;
  }
}

/** What `cacheHeaders` needs of a request's view. */
export interface CacheScope {
  view: { mode: string; cv: number };
  pinned: boolean;
}

/** A form an answer shows: its status moves with the clock (spec 3.1) and with submissions (capacity). */
export interface ShownForm {
  key: string;
  opensAt: string | null;
  closesAt: string | null;
}

/**
 * An answer's tags: `exact` names what it shows; `coarse`, when given, covers the same with fewer tags (each
 * entry by its type, assets by `assets`) and replaces `exact` when the header would grow past its bound.
 */
export interface Tags {
  exact: readonly string[];
  coarse?: readonly string[];
}

const YEAR = 31_536_000;
/** Browsers keep a current answer this long (seconds); shared caches too, unless CDN_MAX_AGE says longer. */
const CURRENT_MAX_AGE = 10;
/**
 * The tag header's value stays under this many bytes, so every answer's headers fit the 4 KB buffer nginx gives
 * an upstream's header by default (`proxy_buffer_size`), with room for the rest.
 */
export const MAX_TAG_BYTES = 1536;

/**
 * The tags of one space. Current answers carry the space's own tag (purge everything); the rest narrow it:
 * `entry:<id>`, `type:<key>` (lists of a type), `entries` (the tree and the sitemap: any page), `global:<key>`,
 * `globals`, `menu:<key>`, `menus`, `form:<key>`, `list:<key>` (option lists), `asset:<id>`, `assets`,
 * `redirects`, `sync`, `token:<id>` (what one token read).
 */
export const cdnTag = {
  space: (space: string): string => encodeURIComponent(space),
  of: (space: string, kind: string, key?: string): string =>
    `${encodeURIComponent(space)}:${kind}${key === undefined ? '' : `:${encodeURIComponent(key)}`}`,
};

const join = (tags: readonly string[], header: 'surrogate-key' | 'cache-tag'): string =>
  tags.join(header === 'surrogate-key' ? ' ' : ',');

/** Writes tags to the configured header(s), replacing what is there. */
export function writeTags(reply: FastifyReply, tags: readonly string[]): void {
  const header = reply.server.folioCdn.tagHeader;
  if (header === 'none' || tags.length === 0) return;
  if (header !== 'cache-tag') reply.header('surrogate-key', join(tags, 'surrogate-key'));
  if (header !== 'surrogate-key') reply.header('cache-tag', join(tags, 'cache-tag'));
}

/**
 * Adds one tag to an answer's tag header(s) as it is sent: the token that read it, which varies per request
 * (the response cache stores the answer without it).
 */
export function appendTag(reply: FastifyReply, tag: string): void {
  const header = reply.server.folioCdn.tagHeader;
  if (header === 'none') return;
  for (const name of header === 'both' ? (['surrogate-key', 'cache-tag'] as const) : [header]) {
    const had = reply.getHeader(name);
    const list = typeof had === 'string' && had !== '' ? [had] : [];
    reply.header(name, [...list, tag].join(name === 'surrogate-key' ? ' ' : ','));
  }
}

/** The tags a current answer goes out with, within MAX_TAG_BYTES: exact, else coarse, else the space's alone. */
export function boundedTags(space: string, tags: Tags): string[] {
  const fits = (list: readonly string[]) => list.join(' ').length <= MAX_TAG_BYTES;
  for (const list of [tags.exact, tags.coarse]) {
    if (list === undefined) continue;
    const all = [...new Set([cdnTag.space(space), ...list])];
    if (fits(all)) return all;
  }
  return [cdnTag.space(space)];
}

/** The next moment a shown form's status changes with the clock (its opening or closing), or null. */
export function nextTransition(forms: readonly ShownForm[], now: number): number | null {
  let next: number | null = null;
  for (const form of forms)
    for (const at of [form.opensAt, form.closesAt]) {
      const t = at === null ? NaN : Date.parse(at);
      if (t > now && (next === null || t < next)) next = t;
    }
  return next;
}

export interface CacheOptions {
  /** What the answer shows (docs/api.md "CDN tags"). */
  tags?: readonly string[] | Tags;
  /** Forms the answer delivers: tagged by form; never immutable while one opens or closes ahead, and ends then. */
  forms?: readonly ShownForm[];
}

/**
 * spec 1.2, 4.1: pinned responses are immutable, also for CDNs (`CDN-Cache-Control`, RFC 9213, and Fastly's
 * `Surrogate-Control`), and carry no tag a publish purges; current ones live 10 s in browsers and, where
 * CDN_MAX_AGE says purges are wired, that long in shared caches, tagged with what they show. An answer showing a
 * form is tagged by the form (`form.submitted` purges it, as capacity fills); while the form's opening or closing
 * lies ahead it is never immutable, pinned or not, and ends at that moment.
 * Previews are never cached.
 */
export function cacheHeaders(
  reply: FastifyReply,
  scope: CacheScope,
  space?: string,
  options: CacheOptions = {},
): void {
  reply.header('x-folio-cv', String(scope.view.cv));
  if (scope.view.mode !== 'published') {
    reply.header('cache-control', 'private, no-store');
    return;
  }
  const forms = options.forms ?? [];
  const now = Date.now();
  const until = nextTransition(forms, now);
  reply.request.folioExpiresAt = until;
  const left = until === null ? Infinity : Math.max(0, Math.floor((until - now) / 1000));
  const formTags = space === undefined ? [] : forms.map((f) => cdnTag.of(space, 'form', f.key));
  if (scope.pinned && until === null) {
    reply
      .header('cache-control', `public, max-age=${YEAR}, immutable`)
      .header('cdn-cache-control', `public, max-age=${YEAR}, immutable`)
      .header('surrogate-control', `max-age=${YEAR}`);
    // A shown form's capacity still moves with submissions: its tag lets `form.submitted` reach the answer.
    writeTags(reply, formTags);
    return;
  }
  const browser = Math.min(CURRENT_MAX_AGE, left);
  // Stale answers past a transition would show the wrong status: none then.
  reply.header(
    'cache-control',
    until === null ? `public, max-age=${browser}, stale-while-revalidate=60` : `public, max-age=${browser}`,
  );
  const shared = reply.server.folioCdn.maxAge;
  if (shared !== null || until !== null) {
    const age = Math.min(shared ?? CURRENT_MAX_AGE, left);
    reply.header('cdn-cache-control', `public, max-age=${age}`).header('surrogate-control', `max-age=${age}`);
  }
  if (space === undefined) return;
  if (scope.pinned) {
    // Pinned and live: only the forms' tags, which no publish of other documents sends.
    writeTags(reply, formTags);
    return;
  }
  const given = options.tags ?? [];
  const tags: Tags = Array.isArray(given) ? { exact: given } : (given as Tags);
  writeTags(
    reply,
    boundedTags(space, {
      exact: [...tags.exact, ...formTags],
      ...(tags.coarse === undefined ? {} : { coarse: [...tags.coarse, ...formTags] }),
    }),
  );
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
 * response), their assets; coarse: the entries' types and `assets`. Lists add their types (a new entry of the type
 * belongs in them). A publish's keys name a changed or affected entry by its id and its type, so an answer tagged
 * coarsely is reached too.
 */
export function entryTags(space: string, entries: readonly DeliveredEntry[], included?: Included): Tags {
  const exact = new Set<string>();
  const coarse = new Set<string>();
  // The resolver knows the assets it loaded; walking the rendered fields is the fallback, a noticeable part of a
  // large list's time (docs/operations.md, "Figures behind the code").
  const known = included ? assetsDelivered(included) : undefined;
  const assets = new Set<string>(known ?? []);
  for (const e of [...entries, ...(included?.entries ?? [])]) {
    exact.add(cdnTag.of(space, 'entry', e.id));
    coarse.add(cdnTag.of(space, 'type', e.type));
    if (!known) collectAssets(e.content.fields, assets);
  }
  for (const link of Object.values(included?.links ?? {})) {
    exact.add(cdnTag.of(space, 'entry', link.id));
    coarse.add(cdnTag.of(space, 'type', link.type));
  }
  for (const id of assets) exact.add(cdnTag.of(space, 'asset', id));
  if (assets.size > 0) coarse.add(cdnTag.of(space, 'assets'));
  return { exact: [...exact], coarse: [...coarse] };
}

/** `entryTags` plus the tags of the answer's own kind (a list's type, a global's key), in both sets. */
export function withTags(tags: Tags, ...more: string[]): Tags {
  return { exact: [...more, ...tags.exact], coarse: [...more, ...(tags.coarse ?? tags.exact)] };
}

/** The forms shown by delivered entries (their form fields), for `cacheHeaders`' `forms`. */
export function shownForms(included: Included | undefined): readonly ShownForm[] {
  return included === undefined ? [] : (formsDelivered(included) ?? []);
}

/**
 * Schemas of the delivery API's answers and parameters (docs/api.md "Endpoints"), for the OpenAPI document. They
 * document: the routes check parameters by hand and replies are serialized as built (src/lib/api-schema.ts).
 * Content is open-ended (field values depend on the space's types), so objects allow members they do not name.
 */
import {
  ERROR_SCHEMA_ID,
  json,
  noBody,
  object,
  pathParams,
  Q,
  queryParams,
  S,
  SPACE_ID,
} from '../lib/api-schema.js';

export const SPACE_PARAMS = pathParams({ spaceId: SPACE_ID });

/** The common parameters (spec 4.1, docs/api.md "Common parameters"). */
export const COMMON_QUERY = {
  locale: 'A locale code of the space (default: its default locale); unknown: 400.',
  include:
    'Comma-separated reference field keys: referenced entries go to `included.entries`, following the same keys to any depth (at most 5,000).',
  fields:
    'Comma-separated root field keys: only these in `entry.content.fields` (included entries stay whole).',
  cv: Q.int(
    1,
    9_999_999_999,
    'A positive integer: pins a cache version (an immutable answer). Ahead of the current cv: 400; older than the kept history: 410 `cv_expired`. Not with `draft` or `release`.',
  ),
  draft: Q.oneOf(
    ['1', 'true', '0', 'false'],
    '`1` or `true` (preview tokens only): drafts of every entry, never-published ones included; `0` or `false`: published content.',
  ),
  release: Q.pattern(
    '^rel_[A-Za-z0-9_-]{1,64}$',
    "`rel_…` (preview tokens only): published content with the release's entries in place. Not with `draft`.",
  ),
} as const;

/** Only the locale and a pinned cv (forms, redirects). */
export const LOCALE_CV_QUERY = { locale: COMMON_QUERY.locale, cv: COMMON_QUERY.cv } as const;
/** Locale, cv and previews, without `include` and `fields` (menus, option lists, tree, sitemap). */
export const VIEW_QUERY = {
  ...LOCALE_CV_QUERY,
  draft: COMMON_QUERY.draft,
  release: COMMON_QUERY.release,
} as const;

export const commonQuery = queryParams(COMMON_QUERY);

/** What a cached delivery answer carries (docs/api.md "Caching headers", "CDN tags", "Rate limits"). */
export const DELIVERY_HEADERS = {
  'x-folio-cv': { type: 'string', description: 'The cv the answer was rendered at; pin it with `?cv=`.' },
  'cache-control': {
    type: 'string',
    description:
      'Pinned: immutable; current: `max-age=10, stale-while-revalidate=60`; previews: `private, no-store`.',
  },
  etag: {
    type: 'string',
    description: 'A strong validator of the bytes (cached answers): `If-None-Match` → 304.',
  },
  'x-svc-cache': { type: 'string', description: '`HIT-L1`, `HIT-L2` or `MISS`.' },
  'surrogate-key': { type: 'string', description: 'CDN tags, space-separated (docs/api.md "CDN tags").' },
  'cache-tag': { type: 'string', description: 'The same CDN tags, comma-separated.' },
  'ratelimit-limit': { type: 'string', description: 'Requests allowed per window and token.' },
  'ratelimit-remaining': { type: 'string', description: 'Requests left in the current window.' },
  'ratelimit-reset': { type: 'string', description: 'Seconds until the window starts again.' },
} as const;

/** A JSON success answer of a delivery read, with the delivery headers. */
export const deliveryJson = <T extends object>(description: string, schema: T) =>
  json(description, { ...schema, headers: DELIVERY_HEADERS });

export const NOT_MODIFIED = noBody('Not modified: `If-None-Match` named the current ETag.');

/** References to the shared schemas below (components `DeliveredEntry` and `Included` of the document). */
export const deliveredEntry = { $ref: 'DeliveredEntry#' };
export const included = { $ref: 'Included#' };

/** An entry as delivered (docs/api.md "Entry"). */
const deliveredEntrySchema = object(
  {
    id: S.string,
    type: S.string,
    name: S.string,
    slug: S.describe(S.string, 'In the requested locale (falls back along the chain).'),
    path: S.describe(S.nullableString, '`@<key>` for a global; null for a non-page collection item.'),
    parentId: S.nullableString,
    locale: S.string,
    tags: S.strings,
    position: S.integer,
    publishedAt: S.dateTime,
    firstPublishedAt: S.dateTime,
    alternates: {
      type: ['object', 'null'],
      additionalProperties: { type: 'string' },
      description: "The entry's path in every locale; null for non-pages.",
    },
    content: object({
      id: S.string,
      type: S.string,
      fields: S.describe(S.anyObject, 'Field values as delivered (docs/api.md "Field values as delivered").'),
    }),
  },
  undefined,
  'An entry as delivered.',
);

const deliveredLink = object({ id: S.string, type: S.string, name: S.string, path: S.string });

/** `included` (spec 2.4): entries named by `include`, and every linked entry with a path in the locale. */
const includedSchema = object({
  entries: S.arrayOf(deliveredEntry),
  links: S.mapOf(deliveredLink, 'Linked entries by id (link fields, rich text, references).'),
});

/** Schemas used by many routes, added once on the root (src/server/openapi.ts) and referenced by `$id`. */
export const DELIVERY_SHARED_SCHEMAS = [
  { $id: 'DeliveredEntry', ...deliveredEntrySchema },
  { $id: 'Included', ...includedSchema },
];
export const entryBody = object({ entry: deliveredEntry, included, cv: S.cv });

/** By path: an old path's 404 carries the redirect (spec 7.3). */
export const NOT_FOUND_WITH_REDIRECT = json('`not_found`; an old path carries `redirect` (spec 7.3).', {
  allOf: [{ $ref: `${ERROR_SCHEMA_ID}#` }],
  type: 'object',
  properties: {
    redirect: object(
      {
        to: S.describe(S.nullableString, 'The new path; null with status 410 when the page was deleted.'),
        status: { type: 'integer', enum: [301, 302, 410] },
      },
      undefined,
      'Present when the path redirects.',
    ),
  },
});

export const statusBody = object(
  {
    spaceId: S.string,
    name: S.string,
    cv: S.cv,
    oldestCv: S.describe(S.integer, 'The oldest cv still kept: pinning an older one is 410.'),
    defaultLocale: S.string,
    locales: S.arrayOf(object({ code: S.string, default: S.boolean, fallbacks: S.strings })),
    timeZone: S.string,
    ai: S.boolean,
    search: object(
      { model: S.string, indexedCv: S.integer, complete: S.boolean },
      undefined,
      'Only in spaces with AI switched on: how far the semantic index is.',
    ),
  },
  ['spaceId', 'name', 'cv', 'oldestCv', 'defaultLocale', 'locales', 'timeZone', 'ai'],
);

export const globalsBody = object({
  globals: S.mapOf(deliveredEntry, 'Global entries by key.'),
  included,
  cv: S.cv,
});

export const entriesListBody = object({
  items: S.arrayOf(deliveredEntry),
  included,
  nextCursor: S.describe(S.nullableString, 'Pass as `cursor` for the next page; null on the last.'),
  total: S.describe(S.integer, "Every match (at the cursor's cv)."),
  cv: S.cv,
});

export const treeBody = object({
  locale: S.string,
  under: S.describe(S.nullableString, "The folder's path when `under` was given."),
  items: S.arrayOf(
    object({
      id: S.string,
      type: S.string,
      name: S.string,
      slug: S.describe(
        S.string,
        'The node\'s own path segment ("" for a folder\'s start page and the home page).',
      ),
      path: S.string,
      position: S.integer,
      isFolder: S.boolean,
      children: S.arrayOf(S.anyObject, 'Nodes of the same shape; `[]` at the last level.'),
    }),
  ),
  cv: S.cv,
});

export const sitemapBody = object({
  locale: S.string,
  items: S.arrayOf(
    object({
      id: S.string,
      type: S.string,
      path: S.string,
      updatedAt: S.describe(S.dateTime, 'The last publish.'),
      alternates: S.mapOf(S.string, "The entry's path in every locale of the space."),
    }),
  ),
  cv: S.cv,
});

export const optionListBody = object({
  list: object({
    key: S.string,
    name: S.string,
    options: S.arrayOf(object({ value: S.string, label: S.string })),
  }),
  cv: S.cv,
});

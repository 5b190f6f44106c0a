/** `GET /sync`'s answer (docs/api.md "Sync"), for the OpenAPI document (src/lib/api-schema.ts). */
import { deliveredEntry, included } from '../delivery/schemas.js';
import { object, Q, S } from '../lib/api-schema.js';

const kind = {
  type: 'string',
  enum: ['entry', 'global', 'asset', 'form', 'list', 'menu', 'redirect', 'sitemap', 'tree'],
  description:
    'Walked in this order: entries and globals, assets, forms, option lists, menus, redirects, the sitemap, the tree.',
};

export const SYNC_QUERY = {
  since: Q.int(
    0,
    9_999_999_999,
    'The cv of your last build (exclusive); omitted or `0`: everything visible now. Ahead of the end cv: 400; older than the kept history: 410 `cv_expired`.',
  ),
  cv: Q.int(1, 9_999_999_999, 'Pin the end (default: the current cv); ahead of the current cv: 400.'),
  limit: Q.int(
    1,
    1000,
    'Documents per page, 1 to 1000 (default 100); an entry counts once whatever its locales.',
  ),
  locale: "Only this locale's entry items (default: every locale of the space).",
  full: '`1`: entries in the `/entries` item shape (`entry`) in one locale, with `include` and `fields`, and `included`.',
  include:
    'As for `/entries`: with `full=1` the entries; always what `affected` names, as read with this `include` (an answer whose included entries changed is affected). Pass the `include` your site reads with.',
  fields: 'With `full=1`: as for `/entries`.',
  cursor: '`nextCursor` of the previous page; it carries `since` and the end cv.',
} as const;

export const syncBody = object(
  {
    changed: S.arrayOf(
      object(
        {
          kind,
          id: S.string,
          key: S.string,
          locale: S.describe(
            S.nullableString,
            'Entries, globals, menus, option lists, the sitemap and the tree: one item per locale whose answer changed; redirects: the locale of the `/redirects` answer.',
          ),
          path: S.describe(
            S.nullableString,
            'Entries: the path in `locale` (null: not a page); redirects: the path they redirect from.',
          ),
          to: S.describe(
            S.nullableString,
            'Redirects: where the path redirects in `locale`, resolved (a path or URL; null: gone, 410).',
          ),
          status: S.describe(S.integer, 'Redirects: 301, 302 or 410.'),
          auto: S.describe(
            S.boolean,
            'Redirects: made automatically when a page moved (its old path), not by hand.',
          ),
          page: S.describe(
            S.boolean,
            'Entries: false for folders (a path prefix for their children, 404 by path) and non-page items.',
          ),
          type: S.string,
          entry: S.describe(deliveredEntry, 'With `full=1`.'),
        },
        ['kind'],
      ),
    ),
    affected: S.arrayOf(
      object(
        {
          kind: { type: 'string', enum: ['affected'] },
          id: S.string,
          type: S.string,
          locale: S.string,
          path: S.describe(
            S.nullableString,
            'The path in `locale`; null for globals and entries without one.',
          ),
          page: S.describe(
            S.boolean,
            'Whether it is a page (read by path); folders and other items are read by id.',
          ),
          key: S.describe(S.string, 'Globals: the global key (`/globals/<key>`).'),
        },
        ['kind', 'id', 'type', 'locale', 'path', 'page'],
      ),
      'Entries and globals (per locale) whose delivered JSON, read with this `include`, differs between the two ends without a version of their own: what they link to, include, show or embed changed. Walked after `changed`, by entry id, across the pages of a cursor.',
    ),
    deleted: S.arrayOf(
      object(
        {
          kind,
          id: S.string,
          key: S.string,
          type: S.string,
          paths: {
            type: ['object', 'null'],
            additionalProperties: { type: 'string' },
            description:
              'Entries: their last path per locale (the pages to remove); null when they were no page.',
          },
          locale: S.describe(S.string, 'Redirects: the locale whose `/redirects` no longer has the path.'),
          path: S.describe(S.string, 'Redirects: the path that no longer redirects.'),
        },
        ['kind'],
      ),
    ),
    truncated: S.describe(
      S.boolean,
      'True when the difference is larger than one computation takes (more than 20,000 changed entries, 10,000 affected ones or 4,000 renders) or the content model changed: what changed is not all named; rebuild everything.',
    ),
    included: S.describe(included, 'With `full=1`.'),
    fromCv: S.describe(S.integer, '`since` (0: from nothing).'),
    toCv: S.describe(S.integer, 'The cv the difference ends at.'),
    nextCursor: S.describe(S.nullableString, 'Pass as `cursor` for the next page; null on the last.'),
  },
  ['changed', 'affected', 'deleted', 'truncated', 'fromCv', 'toCv', 'nextCursor'],
);

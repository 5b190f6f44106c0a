/** `GET /sync`'s answer (docs/api.md "Sync"), for the OpenAPI document (src/lib/api-schema.ts). */
import { deliveredEntry, included } from '../delivery/schemas.js';
import { object, S } from '../lib/api-schema.js';

const kind = {
  type: 'string',
  enum: ['entry', 'global', 'asset', 'form', 'list', 'menu', 'redirect'],
  description: 'Walked in this order, each by key.',
};

export const SYNC_QUERY = {
  since:
    'The cv of your last build (exclusive); omitted or `0`: everything visible now. Older than the kept history: 410 `cv_expired`.',
  cv: 'Pin the end (default: the current cv).',
  limit: 'Documents per page, 1 to 1000 (default 100); an entry counts once whatever its locales.',
  locale: "Only this locale's entry items (default: every locale of the space).",
  full: '`1`: entries in the `/entries` item shape (`entry`) in one locale, with `include` and `fields`, and `included`.',
  include:
    'As for `/entries`: with `full=1` the entries; always the pages named in `affected`, rendered with it (a page whose included entries changed is affected).',
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
            'Entries and globals: one item per locale; redirects: theirs (null: every locale).',
          ),
          path: S.describe(
            S.nullableString,
            'Entries: the path in `locale` (null: not a page); redirects: the path they redirect from.',
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
      object({
        kind: { type: 'string', enum: ['affected'] },
        id: S.string,
        type: S.string,
        locale: S.string,
        path: S.string,
      }),
      'Pages (per locale) whose delivered JSON differs between the two ends without a version of their own: they link to, reference, show or embed something that changed. Only on the first page of a difference (not on pages of a cursor).',
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
        },
        ['kind'],
      ),
    ),
    included: S.describe(included, 'With `full=1`.'),
    fromCv: S.describe(S.integer, '`since` (0: from nothing).'),
    toCv: S.describe(S.integer, 'The cv the difference ends at.'),
    nextCursor: S.describe(S.nullableString, 'Pass as `cursor` for the next page; null on the last.'),
  },
  ['changed', 'affected', 'deleted', 'fromCv', 'toCv', 'nextCursor'],
);

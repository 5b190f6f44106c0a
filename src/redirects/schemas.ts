/** Redirects as delivered and as authored (docs/api.md "GET /redirects", "Management API"), for the OpenAPI document. */
import { object, S } from '../lib/api-schema.js';

const status = { type: 'integer', enum: [301, 302, 410] };

export const deliveredRedirects = object({
  redirects: S.arrayOf(
    object({
      from: S.string,
      to: S.describe(
        S.nullableString,
        "The target's current path, a URL, or null (410) when it was deleted.",
      ),
      status,
    }),
  ),
  cv: S.cv,
});

/** A redirect as authored; automatic ones (from moves and renames) say `auto: true`. */
export const redirectView = object(
  {
    id: S.string,
    from: S.describe(S.string, 'A path starting with `/`, without query or fragment.'),
    to: {
      type: ['object', 'null'],
      additionalProperties: true,
      description: '`{ kind: "entry", entry }`, `{ kind: "url", url }`, or null (410).',
    },
    status,
    locale: S.describe(S.nullableString, 'null: every locale.'),
    auto: {
      type: 'boolean',
      const: true,
      description: 'An automatic redirect (editing it makes it manual).',
    },
    createdAt: S.dateTime,
  },
  ['id', 'from', 'to', 'status', 'locale', 'createdAt'],
);

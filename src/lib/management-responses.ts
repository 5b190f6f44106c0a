/**
 * What the management API answers (docs/api.md "Management API: content", "Permissions"), for the OpenAPI
 * document; the request bodies are schemas.ts (checked strictly by the management scope). Replies are sent as
 * built: these schemas describe them (src/lib/api-schema.ts).
 */
import { BODY_ERRORS, type ErrorCodes, object, pathParams, S, SPACE_ID } from './api-schema.js';
import { SCOPES } from './scope-names.js';

export const SPACE = pathParams({ spaceId: SPACE_ID });
export const withSpace = (params: Record<string, string>) => pathParams({ spaceId: SPACE_ID, ...params });

/** Errors of a write with a JSON body: its shape (400), its meaning (422), a clash (409). */
export const WRITE_ERRORS: ErrorCodes = [...BODY_ERRORS, 'validation_failed', 'conflict'];

/** `{ <idMember>, deleted: true, cv? }`: what a delete answers. */
export function deleted(idMember: 'id' | 'key', withCv: boolean) {
  return object({
    [idMember]: S.string,
    deleted: { type: 'boolean', const: true },
    ...(withCv ? { cv: S.newCv } : {}),
  });
}

/** An entry as authored (docs/api.md "An entry as answered"). */
export const managedEntry = object(
  {
    id: S.string,
    type: S.string,
    name: S.string,
    slug: S.string,
    slugs: S.mapOf(S.string, 'Slugs per locale beside the default one.'),
    parentId: S.nullableString,
    position: S.integer,
    tags: S.strings,
    status: {
      type: 'string',
      enum: ['draft', 'published', 'changed'],
      description: '`draft`: never published; `changed`: published, with a draft.',
    },
    fields: S.describe(S.anyObject, "The draft's fields (else the published ones)."),
    publishedFields: { type: ['object', 'null'], additionalProperties: true },
    publishedAt: S.nullableDateTime,
    firstPublishedAt: S.nullableDateTime,
    createdAt: S.dateTime,
    updatedAt: S.dateTime,
  },
  undefined,
  'An entry as authored.',
);

export const entryBody = object({ entry: managedEntry });
export const publishedEntryBody = object({ entry: managedEntry, cv: S.newCv });

/** An option list as authored: labels per locale. */
export const listDoc = object(
  {
    key: S.string,
    name: S.string,
    options: S.arrayOf(object({ value: S.string, label: S.mapOf(S.string, 'Per locale.') })),
  },
  ['key', 'options'],
);

export const release = object({
  id: S.describe(S.string, '`rel_…`: preview it with `release=`.'),
  name: S.string,
  entries: S.arrayOf(
    object({ id: S.string, fields: S.anyObject }),
    "Entries' fields that replace theirs whole.",
  ),
});

export const tokenView = object({
  id: S.string,
  kind: { type: 'string', enum: ['public', 'preview', 'management'] },
  name: S.nullableString,
  hint: S.describe(S.string, "The value's first 14 characters."),
  origins: S.strings,
  scopes: {
    type: ['array', 'null'],
    items: { type: 'string', enum: [...SCOPES] },
    description: 'Management tokens: what it may do; null for public and preview tokens.',
  },
  allScopes: S.describe(S.boolean, 'Stored without scopes: every scope, later ones included.'),
  createdAt: S.dateTime,
  person: {
    type: ['object', 'null'],
    properties: { name: S.string, email: S.nullableString },
    description: 'Management tokens: the person it stands for (their id is the token id); null for a tool.',
  },
  serverSide: S.describe(
    S.boolean,
    "Public tokens made for a site's server: it may name its visitor in `Folio-Visitor-Ip`; false for all others.",
  ),
});

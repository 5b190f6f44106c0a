/**
 * Building blocks of the routes' schemas, from which the OpenAPI document (`GET /v1/openapi.json`,
 * src/server/openapi.ts) is generated.
 *
 * The schemas DOCUMENT the API; they do not change what it does:
 * - replies are serialized with `JSON.stringify`, as before there were schemas (the app's serializer compiler), so
 *   a response schema never drops, coerces or reorders a member;
 * - query strings and path parameters are checked by hand (`rejectUnknown`, `single`, the list parsers: 400
 *   `invalid_query` naming the parameter, after auth), as are form submissions, form definitions and multipart
 *   parts, so their schemas are never compiled into validators (`documentOnly`). Only the management API's JSON
 *   bodies are validated by their schemas (src/management/plugin.ts, 400 `invalid_body`).
 *
 * A leaf like the rest of src/lib/: it imports the error registry and nothing else of src/.
 */
import type { FastifySchemaCompiler } from 'fastify';
import { ERROR_CODES, type ErrorCode } from '../errors/errors.js';

/** A schema that is never compiled into a validator: every value passes, untouched (no coercion, no defaults). */
export const documentOnly: FastifySchemaCompiler<unknown> = () => () => true;

/** A key of a content type, global, menu, option list, form or field (src/lib/problems.ts KEY). */
export const KEY_PATTERN = '^[A-Za-z][A-Za-z0-9_-]{0,63}$';

/**
 * A comma list of keys (`keys` of /globals and /menus): blanks around them and empty items are ignored, but it
 * names at least one; a key that is not one (else 404) is stated by the pattern.
 */
export const KEY_LIST_PATTERN =
  '^[\\s,]*[A-Za-z][A-Za-z0-9_-]{0,63}(\\s*,[\\s,]*[A-Za-z][A-Za-z0-9_-]{0,63})*[\\s,]*$';

/** `$id` of the error envelope (spec 7.1), added once with `app.addSchema` (src/server/openapi.ts). */
export const ERROR_SCHEMA_ID = 'FolioError';

export const errorEnvelopeSchema = {
  $id: ERROR_SCHEMA_ID,
  description: 'The error envelope (spec 7.1).',
  type: 'object',
  required: ['error'],
  additionalProperties: true,
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      additionalProperties: false,
      properties: {
        code: { type: 'string', enum: Object.keys(ERROR_CODES), description: 'docs/api.md "Errors".' },
        message: { type: 'string', description: 'For people; never parse it.' },
        details: {
          type: 'object',
          additionalProperties: true,
          description:
            'Code-specific: `parameter` (invalid_query), `fields` (validation_failed, keyed by field or JSON path), `oldestCv` (cv_expired), `allow` (method_not_allowed), `missingScopes` (forbidden), …',
        },
      },
    },
  },
} as const;

/** The security schemes (components.securitySchemes) the routes name. */
export const SECURITY_SCHEMES = {
  deliveryToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'A public (`folio_pub_…`) or preview (`folio_prv_…`) token of the space, as `Authorization: Bearer …`.',
  },
  tokenQuery: {
    type: 'apiKey',
    in: 'query',
    name: 'token',
    description: 'A public token in the URL (`?token=folio_pub_…`). A preview token in a URL is always 401.',
  },
  managementToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'A management token (`folio_mgt_…`) of the space with the scope the route needs (docs/api.md "Permissions").',
  },
  inboxSession: {
    type: 'apiKey',
    in: 'cookie',
    name: 'folio_inbox',
    description:
      "The inbox's browser session (`POST /inbox/session`): the management token it was opened with, its scopes; unsafe methods also need `X-Folio-CSRF`. Named `__Host-folio_inbox` when PUBLIC_URL is https.",
  },
} as const;

/** Error codes a route can answer (the registry's, src/errors/errors.ts). */
export type ErrorCodes = ErrorCode[];

type Security = { readonly [scheme in keyof typeof SECURITY_SCHEMES]?: readonly string[] }[];

/** Public reads and form posts: a public token (header or `?token=`) or, for reads, a preview token (header). */
export const DELIVERY_SECURITY: Security = [{ deliveryToken: [] }, { tokenQuery: [] }];
/** The management API: a management token in the header. */
export const MANAGEMENT_SECURITY: Security = [{ managementToken: [] }];
/** No token (asset files, operator endpoints, this document). */
export const NO_SECURITY: Security = [];

/**
 * Error responses, one per status, for the codes a route can answer (grouped by their status in the registry).
 * Each is the envelope, described by the codes it carries.
 */
export function errors(...codes: ErrorCode[]): Record<string, { description: string; $ref: string }> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = ERROR_CODES[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, { description: string; $ref: string }> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b))
    out[String(status)] = {
      description: list.map((c) => `\`${c}\``).join(', '),
      $ref: `${ERROR_SCHEMA_ID}#`,
    };
  return out;
}

/** What a route documents; `operation` adds its group's tags, security and error responses. */
export interface RouteDoc {
  summary: string;
  description?: string;
  tags?: string[];
  security?: Security;
  params?: object;
  querystring?: object;
  body?: object;
  /** The success responses (and special ones: 303, 304, a 404 with more than the envelope). */
  response: Record<string, object>;
}

/**
 * A route schema builder for one group of routes: `doc`'s responses first, then the envelope for the group's
 * error codes and the route's own (`extra`), without replacing a status the route describes itself.
 */
export function operation(group: { tags: string[]; security: Security; errors: readonly ErrorCode[] }) {
  return (doc: RouteDoc, ...extra: ErrorCode[]) => {
    const response: Record<string, object> = { ...doc.response };
    for (const [status, schema] of Object.entries(errors(...group.errors, ...extra)))
      response[status] ??= schema;
    return { tags: group.tags, security: group.security, ...doc, response };
  };
}

/** Errors every delivery read can answer (auth, limits, the common parameters). */
export const DELIVERY_READ_ERRORS: ErrorCode[] = [
  'invalid_query',
  'unauthorized',
  'forbidden_origin',
  'preview_token_required',
  'not_found',
  'cv_expired',
  'rate_limited',
  'unavailable',
];

/** Errors of a route that reads a JSON body: not JSON or not an object, too large, another media type. */
export const BODY_ERRORS: ErrorCode[] = ['invalid_body', 'too_large', 'unsupported_media_type'];

/** Errors every management route can answer (token, scope, space). */
export const MANAGEMENT_ERRORS: ErrorCode[] = ['unauthorized', 'forbidden', 'not_found', 'unavailable'];

const text = (description: string) => ({ type: 'string', description });

/**
 * Path parameters: strings, described (checked by the routes: an unknown id is 404). `*` is the wildcard of
 * `/entries/by-path/*`, documented as `{path}`. A `key` (of a global, menu, option list or form) is a key as
 * the content model allows it: any other is 404, since no such thing can exist.
 */
export function pathParams(params: Record<string, string>) {
  return {
    type: 'object',
    required: Object.keys(params),
    properties: Object.fromEntries(
      Object.entries(params).map(([name, d]) => [
        name,
        name === 'key' ? { ...text(d), pattern: KEY_PATTERN } : text(d),
      ]),
    ),
  };
}

/** Query parameters that are whole numbers wherever they appear: a cv, a page size, a tree depth, a sync's start. */
const INTEGER_QUERY = new Set(['cv', 'limit', 'depth', 'since']);

/** A query parameter's schema: what the route checks by hand, stated so the document promises no more. */
export interface QueryParam {
  description: string;
  type: 'string' | 'integer';
  [constraint: string]: unknown;
}

/** Constraints of query parameters, each exactly what the route's own check accepts. */
export const Q = {
  /** A whole number written in decimal, from `minimum` to `maximum`. */
  int: (minimum: number, maximum: number, description: string): QueryParam => ({
    type: 'integer',
    minimum,
    maximum,
    description,
  }),
  /** One of these words. */
  oneOf: (values: readonly string[], description: string): QueryParam => ({
    type: 'string',
    enum: [...values],
    description,
  }),
  /** A string the pattern matches (ECMAScript syntax, anchored where the check is). */
  pattern: (pattern: string, description: string): QueryParam => ({ type: 'string', pattern, description }),
  /** A string that must not be empty. */
  nonEmpty: (description: string): QueryParam => ({ type: 'string', minLength: 1, description }),
} as const;

/**
 * A query string, documented only: every parameter a string (whole numbers an integer) unless given its own
 * schema (`Q`), none required, anything else allowed by the schema (the route answers unknown, repeated or
 * malformed parameters with 400 `invalid_query` itself, and filters are dynamic).
 */
export function queryParams(params: Record<string, string | QueryParam>) {
  return {
    type: 'object',
    additionalProperties: true,
    properties: Object.fromEntries(
      Object.entries(params).map(([name, d]) => [
        name,
        typeof d !== 'string' ? d : INTEGER_QUERY.has(name) ? { type: 'integer', description: d } : text(d),
      ]),
    ),
  };
}

/** The `spaceId` path parameter of delivery (`/v1/<spaceId>/…`) and management (`/v1/spaces/<spaceId>/…`). */
export const SPACE_ID = 'The space id (`spc_…`).';

/** An object schema that allows members beyond those it names (content, fields, settings are open-ended). */
export function object(
  properties: Record<string, unknown>,
  required: readonly string[] = Object.keys(properties),
  description?: string,
) {
  return {
    type: 'object',
    additionalProperties: true,
    ...(description === undefined ? {} : { description }),
    required: [...required],
    properties,
  };
}

/** Small member schemas. */
export const S = {
  string: { type: 'string' },
  nullableString: { type: ['string', 'null'] },
  integer: { type: 'integer' },
  nullableInteger: { type: ['integer', 'null'] },
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  dateTime: { type: 'string', format: 'date-time' },
  nullableDateTime: { type: ['string', 'null'], format: 'date-time' },
  strings: { type: 'array', items: { type: 'string' } },
  anyObject: { type: 'object', additionalProperties: true },
  cv: { type: 'integer', description: 'The cache version the answer is for.' },
  /** A publishing answer's cv: `null` when nothing delivered changed. */
  newCv: { type: ['integer', 'null'], description: 'The new cv; null when nothing delivered changed.' },
  describe: <T extends object>(schema: T, description: string): T & { description: string } => ({
    ...schema,
    description,
  }),
  arrayOf: (items: unknown, description?: string) => ({
    type: 'array',
    items,
    ...(description === undefined ? {} : { description }),
  }),
  mapOf: (values: unknown, description?: string) => ({
    type: 'object',
    additionalProperties: values,
    ...(description === undefined ? {} : { description }),
  }),
} as const;

/** A response with a JSON body of `schema`, described. */
export const json = <T extends object>(description: string, schema: T) => ({ description, ...schema });

/** A response without a body (304, 303). */
export const noBody = (description: string) => ({ description, type: 'null' });

/**
 * A response whose body is not JSON built by the serializer (a file, a stream, a CSV): described by media type.
 * The serializer never touches it (strings, Buffers and streams are sent as they are).
 */
export function media(description: string, types: Record<string, unknown>) {
  return {
    description,
    content: Object.fromEntries(Object.entries(types).map(([type, schema]) => [type, { schema }])),
  };
}

/** Public reads under /v1/<spaceId> (tag `delivery`). */
export const deliveryRead = operation({
  tags: ['delivery'],
  security: DELIVERY_SECURITY,
  errors: DELIVERY_READ_ERRORS,
});

/** The management API under /v1/spaces/<spaceId> (tag `management`). */
export const managementOperation = operation({
  tags: ['management'],
  security: MANAGEMENT_SECURITY,
  errors: MANAGEMENT_ERRORS,
});

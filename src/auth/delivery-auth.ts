import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { forbiddenOrigin, notFound, previewTokenRequired, unauthorized } from '../errors/errors.js';
import { methodsAt } from '../lib/route-methods.js';
import type { TokenRow } from '../store/tokens-repo.js';
import type { TokenCache } from './token-cache.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The delivery token that authenticated this request (set by the auth hook). */
    deliveryToken: TokenRow | null;
  }
}

/**
 * The origin a browser request comes from: `Origin`, else the origin of `Referer`, else none (server-side).
 * `Origin: null` (sandboxed iframes, `data:` and `file:` pages, some redirects) and a Referer that is not a URL
 * are the opaque origin `"null"`: never one of a token's origins, so an origin-restricted token refuses them
 * like any foreign site (RFC 6454 7.3: `null` for an origin that cannot be serialized).
 */
export function requestOrigin(headers: IncomingHttpHeaders): string | null {
  const origin = headers.origin;
  if (typeof origin === 'string' && origin !== '') return origin;
  const referer = headers.referer;
  if (typeof referer === 'string' && referer !== '') {
    try {
      return new URL(referer).origin;
    } catch {
      return 'null';
    }
  }
  return null;
}

/** The `Origin` a browser sent, or none; `Origin: null` (an opaque origin) is `"null"`, as in `requestOrigin`. */
function browserOrigin(headers: IncomingHttpHeaders): string | null {
  const origin = headers.origin;
  return typeof origin === 'string' && origin !== '' ? origin : null;
}

const PREVIEW_PREFIX = 'folio_prv_';

/** A token as the request presents it, and where. */
export interface Presented {
  value: string;
  via: 'header' | 'query';
}

/** What a browser may read of an answer (`Access-Control-Expose-Headers`), the same on every delivery answer. */
export const EXPOSED_HEADERS =
  'X-Folio-Cv, X-Svc-Cache, ETag, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset';

/**
 * Bearer header first; the query string only carries public tokens (spec 5). A preview token in a URL is refused
 * whether or not it is valid (URLs end up in logs, histories and Referers); a `?token=` beside a different header
 * token is refused rather than silently ignored, so the client learns which one it meant.
 */
export function presentedToken(
  query: Readonly<Record<string, unknown>> | undefined,
  headers: IncomingHttpHeaders,
): Presented | null {
  const q = query?.token;
  if (Array.isArray(q)) throw unauthorized('Send one token.');
  const inQuery = typeof q === 'string' && q !== '' ? q : null;
  if (inQuery?.startsWith(PREVIEW_PREFIX)) {
    throw unauthorized('Preview tokens must be sent in the Authorization header, never in a URL.');
  }
  const header = headers.authorization;
  if (typeof header === 'string' && header !== '') {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m?.[1]) throw unauthorized('The Authorization header must be "Bearer <token>".');
    if (inQuery !== null && inQuery !== m[1])
      throw unauthorized('The Authorization header and ?token= name different tokens; send one.');
    return { value: m[1], via: 'header' };
  }
  return inQuery === null ? null : { value: inQuery, via: 'query' };
}

/**
 * Authenticates a delivery request for the space in the URL (spec 5): 401 for a missing, unknown or misplaced
 * token, 403 for a disallowed origin or preview access with a public token. Sets CORS headers for allowed origins.
 */
export function deliveryAuth(tokens: TokenCache, ownOrigin: string | null = null) {
  // Synchronous when the token is in the cache (every cache hit's case: no promise on that path).
  return (request: FastifyRequest, reply: FastifyReply): Promise<void> | undefined => {
    const presented = presentedToken(request.query as Record<string, unknown> | undefined, request.headers);
    if (!presented) throw unauthorized('A token is required: Authorization: Bearer <token> or ?token=.');
    const known = tokens.peek(presented.value);
    if (known !== undefined) return check(request, reply, presented, known, ownOrigin);
    return tokens.find(presented.value).then((token) => check(request, reply, presented, token, ownOrigin));
  };
}

/**
 * `ownOrigin` is Folio's own (PUBLIC_URL's): its pages — the form shown again after a failed plain post — post
 * back from it, so every token allows it. Folio serves no script a site or a visitor wrote on it (uploaded files
 * are attachments in a sandbox, an opaque origin), so no other site's page can speak from it.
 */
function check(
  request: FastifyRequest,
  reply: FastifyReply,
  presented: Presented,
  token: TokenRow | null,
  ownOrigin: string | null,
): undefined {
  const spaceId = (request.params as { spaceId?: string }).spaceId;
  const valid = tokenFor(spaceId, presented, token);
  const allowOrigin = allowedOrigin(request.method, request.headers, valid, ownOrigin);
  if (allowOrigin !== null) {
    reply.header('access-control-allow-origin', allowOrigin);
    reply.header('access-control-expose-headers', EXPOSED_HEADERS);
  }
  // Answers depend on the token: a shared cache that keys by URL alone (nginx's default key) must keep one per
  // `Authorization` (a `?token=` is in the URL already).
  reply.header('vary', 'Origin, Authorization');
  requireDraftAccess(valid, request.query as Record<string, unknown>);
  request.deliveryToken = valid;
  return undefined;
}

/*
 * The decisions of `check` are on plain parts of the request, so the cache's front door (src/server/fast-hit.ts)
 * makes the very same ones.
 */

/** The token when it may read this space as presented; else throws the 401 to answer. */
export function tokenFor(
  spaceId: string | undefined,
  presented: Presented,
  token: TokenRow | null,
): TokenRow {
  // A token of another space answers like an unknown one: no hint that the space exists.
  if (!token || token.spaceId !== spaceId) throw unauthorized('The token is not valid for this space.');
  if (token.kind === 'management') {
    throw unauthorized('Management tokens are for the management API (/v1/spaces/…).');
  }
  if (token.kind === 'preview' && presented.via === 'query') {
    throw unauthorized('Preview tokens must be sent in the Authorization header, never in a URL.');
  }
  return token;
}

/**
 * The `Access-Control-Allow-Origin` to send (null: none, no browser page asked), or throws the 403 of an origin
 * the token does not allow.
 */
export function allowedOrigin(
  method: string,
  headers: IncomingHttpHeaders,
  token: TokenRow,
  ownOrigin: string | null,
): string | null {
  // Reads are decided by `Origin` alone, which their answers vary on: a shared cache keys what it stores by the
  // headers an answer varies on, and varying on `Referer` (a different value on every page) would make it keep
  // nothing. A request without `Origin` comes from a server or a plain link, as one without `Referer` does.
  const read = method === 'GET' || method === 'HEAD';
  const origin = read ? browserOrigin(headers) : requestOrigin(headers);
  if (
    origin !== null &&
    token.origins.length > 0 &&
    !token.origins.includes(origin) &&
    origin !== ownOrigin
  ) {
    throw forbiddenOrigin(`Origin ${origin} is not allowed for this token.`);
  }
  if (origin === null) return null;
  return token.origins.length > 0 ? origin : '*';
}

/** Drafts and releases are for preview tokens (spec 5); checked once the answer's CORS headers are set. */
export function requireDraftAccess(token: TokenRow, query: Readonly<Record<string, unknown>>): void {
  const wantsDraft = query.draft === '1' || query.draft === 'true';
  if (token.kind !== 'preview' && (wantsDraft || query.release !== undefined)) {
    throw previewTokenRequired();
  }
}

/**
 * CORS preflight: answered without a token (browsers send none); the real request is checked by deliveryAuth. The
 * route matches every path under /v1: a path no other route serves is 404, as any other method gets there.
 */
export function preflight(request: FastifyRequest, reply: FastifyReply): void {
  if (methodsAt(request.server, request.url).length === 0)
    throw notFound(`No route for OPTIONS ${request.url.split('?', 1)[0] ?? ''}.`);
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== '') reply.header('access-control-allow-origin', origin);
  reply
    .header('vary', 'Origin')
    .header('access-control-allow-methods', 'GET, HEAD, POST, OPTIONS')
    .header('access-control-allow-headers', 'Authorization, Content-Type, If-None-Match')
    .header('access-control-max-age', '86400')
    .status(204)
    .send();
}

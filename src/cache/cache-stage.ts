import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SpaceDirectory, SpaceEntry } from '../cluster/space-directory.js';
import type { Metrics } from '../observability/metrics.js';
import { type CacheKey, cacheKeyOf } from './cache-key.js';
import { etagOf, noneMatch } from './etag.js';
import type { CachedResponse, ResponseCache } from './response-cache.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the cache stage on a miss of a cacheable request: the onSend hook stores the response under it. */
    folioCacheKey: CacheKey | null;
    /**
     * When the answer may next differ without a publish (a form's opening or closing), in ms since the epoch, set
     * by delivery's cache headers: the response cache keeps it no longer. Null: only a publish changes it.
     */
    folioExpiresAt: number | null;
  }
  interface FastifyContextConfig {
    /** `false` keeps a `delivery: 'read'` route out of the response cache (it is still rate limited). */
    cache?: boolean;
  }
}

/**
 * Headers that belong to one request, never to the cached response: CORS and `Vary` are set by auth on every
 * request (the key has no origin), rate-limit headers by the limiter, the request's id, and the framing by the
 * server.
 */
const PER_REQUEST = new Set([
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'access-control-expose-headers',
  'vary',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'retry-after',
  'x-svc-cache',
  'x-request-id',
  'content-length',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);

export interface CacheStageDeps {
  cache: ResponseCache;
  directory: SpaceDirectory;
  metrics: Metrics;
}

/**
 * Sends a cached response; `X-Svc-Cache` names the layer (spec 8). HEAD gets the body too: Fastify's HEAD route
 * (exposeHeadRoutes) drops it in its own onSend and sets Content-Length to the size a GET would have sent, which
 * is also the only Content-Length a 304 may carry (RFC 9110 8.6).
 */
function sendCached(request: FastifyRequest, reply: FastifyReply, hit: CachedResponse, layer: string): void {
  reply.headers(hit.headers).header('x-svc-cache', layer);
  if (hit.etag !== undefined && noneMatch(request.headers['if-none-match'], hit.etag)) {
    reply.code(304).send(request.method === 'HEAD' ? hit.body : undefined);
  } else reply.code(hit.status).send(hit.body);
}

/**
 * The delivery pipeline's cache stage (after auth and the rate limit): a hit sends the stored bytes and headers
 * and stops the request; it reads no store and does no JSON work. A miss marks the request for `storeResponse`.
 * On a hit it returns the reply, a thenable: awaiting it waits until the response is written, so the pipeline
 * sees `reply.sent` and the handler never runs. An L1 hit is answered synchronously, without a promise.
 */
export function cacheStage({ cache, directory, metrics }: CacheStageDeps) {
  const miss = (request: FastifyRequest, reply: FastifyReply, key: CacheKey): undefined => {
    metrics.cache('miss');
    reply.header('x-svc-cache', 'MISS');
    request.folioCacheKey = key;
    return undefined;
  };
  const lookup = (
    request: FastifyRequest,
    reply: FastifyReply,
    space: SpaceEntry | undefined,
    optOut: boolean,
  ) => {
    const url = request.url;
    const q = url.indexOf('?');
    const key =
      space === undefined || optOut
        ? null
        : cacheKeyOf(space, q === -1 ? url : url.slice(0, q), request.query as Record<string, unknown>);
    if (key === null) {
      // Drafts and releases (spec 8), routes that opt out: served by the handler, never stored.
      metrics.cache('bypass');
      reply.header('x-svc-cache', 'MISS');
      return undefined;
    }
    const l1 = cache.getL1(key);
    if (l1 !== undefined) {
      metrics.cache('hit_l1');
      sendCached(request, reply, l1, 'HIT-L1');
      return reply;
    }
    if (!cache.hasL2()) return miss(request, reply, key);
    return cache.getL2(key).then((l2) => {
      if (l2 === undefined) return miss(request, reply, key);
      metrics.cache('hit_l2');
      sendCached(request, reply, l2, 'HIT-L2');
      return reply;
    });
  };
  // Synchronous on an L1 hit: no promise between the request and the bytes.
  return (request: FastifyRequest, reply: FastifyReply) => {
    const config = request.routeOptions.config;
    // HEAD is GET without the body (RFC 9110 9.3.2): same key, same ETag, same 304s.
    if ((request.method !== 'GET' && request.method !== 'HEAD') || config.delivery !== 'read')
      return undefined;
    const spaceId = (request.params as { spaceId?: string }).spaceId;
    if (spaceId === undefined) return undefined;
    const optOut = config.cache === false;
    const space = directory.peek(spaceId);
    if (space !== undefined) return lookup(request, reply, space, optOut);
    // First request for a space in this process: one query, then memory (auth checked the space exists).
    return directory.get(spaceId).then(() => lookup(request, reply, directory.peek(spaceId), optOut));
  };
}

const YEAR = 31_536_000;

/** The headers of an answer that can never change (spec 4.1: pinned), as delivery's cache headers set them. */
function pinnedHeaders(reply: FastifyReply): void {
  reply
    .header('cache-control', `public, max-age=${YEAR}, immutable`)
    .header('cdn-cache-control', `public, max-age=${YEAR}, immutable`)
    .header('surrogate-control', `max-age=${YEAR}`);
}

/**
 * The onSend side (one hook with the metrics, src/server/edge-plugin.ts): stores the response of a marked miss
 * and returns the payload to send. Stored: 200s whose Cache-Control is not private or no-store, and 404
 * `not_found` (it depends on space, cv and path only; an old path's 404 carries its redirect, spec 7.3). Nothing
 * is stored when the cv moved while the request ran, so bytes never sit under another cv's key. The ETag is
 * computed once, here, and a matching `If-None-Match` gets its 304 already on the miss.
 *
 * A HEAD miss ran the GET handler: this root hook sees its whole body, before the HEAD route's own onSend (a
 * route-level hook, so it runs after ours) drops it. That body is what GET would store; an empty one (already
 * dropped, or a HEAD that is not GET's twin) is never stored, so a GET is never answered from a bodiless entry.
 */
export function storeResponse({ cache, directory }: Pick<CacheStageDeps, 'cache' | 'directory'>) {
  return (request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown => {
    const key = request.folioCacheKey;
    if (key === null) return payload;
    request.folioCacheKey = null;
    const status = reply.statusCode;
    if (status !== 200 && status !== 404) return payload;
    let body: Buffer;
    if (typeof payload === 'string') body = Buffer.from(payload);
    else if (Buffer.isBuffer(payload)) body = payload;
    else return payload; // a stream: not cached
    const head = request.method === 'HEAD';
    if (head && body.length === 0) return payload;
    // A pinned 404 is as immutable as a pinned 200: nothing can ever be at that path at that cv.
    if (status === 404 && key.pinned) pinnedHeaders(reply);
    const cacheControl = String(reply.getHeader('cache-control') ?? '');
    if (status === 200 && /\b(private|no-store)\b/.test(cacheControl)) return payload;
    if (reply.hasHeader('set-cookie')) return payload;
    const served = reply.getHeader('x-folio-cv');
    const current = directory.peek(key.spaceId)?.row.cv;
    if (served !== undefined && String(served) !== String(key.cv)) return payload;
    if (!key.pinned && current !== key.cv) return payload;
    let etag: string | undefined;
    if (status === 200) {
      etag = etagOf(body);
      reply.header('etag', etag);
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value === undefined || PER_REQUEST.has(name)) continue;
      headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
    }
    cache.set(key, { status, headers, body, etag, route: request.routeOptions.url }, request.folioExpiresAt);
    if (etag !== undefined && noneMatch(request.headers['if-none-match'], etag)) {
      reply.code(304);
      // HEAD: the HEAD route's onSend needs a payload (it measures it for Content-Length, then drops it).
      return head ? body : null;
    }
    return body;
  };
}

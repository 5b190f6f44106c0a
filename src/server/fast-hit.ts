import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { parse as parseQuery } from 'fast-querystring';
import { allowedOrigin, EXPOSED_HEADERS, presentedToken, tokenFor } from '../auth/delivery-auth.js';
import type { TokenCache } from '../auth/token-cache.js';
import type { SpaceDirectory } from '../cluster/space-directory.js';
import type { CdnConfig } from '../config/config.js';
import { cdnTag } from '../delivery/cache-headers.js';
import type { Metrics } from '../observability/metrics.js';
import {
  countedAlready,
  countRequest,
  type Outcome,
  sharesApply,
  type VisitorShare,
} from '../ratelimit/rate-limit-stage.js';
import type { LimitCheck } from '../ratelimit/token-limiter.js';
import type { TokenRow } from '../store/tokens-repo.js';
import { cacheKeyOf } from '../cache/cache-key.js';
import { noneMatch } from '../cache/etag.js';
import type { CachedResponse, ResponseCache } from '../cache/response-cache.js';
import { requestIdOf } from './request-id.js';

/** A listener that answers a request itself (true) or leaves it to Fastify (false, having written nothing). */
export type FrontHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * The slot in front of Fastify's own `request` listener (src/server/app.ts's `serverFactory`): the server exists
 * before the edge that fills it, and the slot is emptied as the app closes, so Fastify answers its 503s then.
 */
export class FrontDoor {
  handler: FrontHandler | null = null;
  /** Requests the handler answered (it counts them): how tests tell the fast path ran, not only the same bytes. */
  answered = 0;

  listener(fastify: (req: IncomingMessage, res: ServerResponse) => void) {
    return (req: IncomingMessage, res: ServerResponse): void => {
      const handler = this.handler;
      let answered = false;
      try {
        answered = handler !== null && handler(req, res);
      } catch (err) {
        // A throw in a `request` listener would end the process. Before anything is written Fastify answers the
        // request as if the front door were not there; after, the response is cut short.
        if (res.headersSent) {
          res.destroy(err instanceof Error ? err : new Error(String(err)));
          return;
        }
      }
      if (!answered) fastify(req, res);
    };
  }
}

export interface FastHitDeps {
  cache: ResponseCache;
  directory: SpaceDirectory;
  metrics: Metrics;
  tokens: TokenCache;
  /** PUBLIC_URL's origin, which every token allows (src/auth/delivery-auth.ts). */
  ownOrigin: string | null;
  limit: LimitCheck;
  share: VisitorShare | null;
  /** Whether `request.ip` is the socket's peer (TRUST_PROXY off); else visitors' shares are left to Fastify. */
  peerIsClient: boolean;
  tagHeader: CdnConfig['tagHeader'];
  /** Counts the answers written (FrontDoor.answered). */
  front: { answered: number };
}

/** What every answer of one cached entry shares, worked out on its first fast hit. */
interface Prepared {
  /** The stored headers as `[name, value, …]`, without the tag headers that get the token's tag appended. */
  fixed: string[];
  /** `Cache-Control: public…`: rate-limit headers are left out and the token's tag appended (edge-plugin.ts). */
  shared: boolean;
  /** Tag headers and what the entry holds in them (appendTag in src/delivery/cache-headers.ts). */
  tags: { name: string; had: string; sep: string }[];
  length: string;
  route: string;
}

const TAG_HEADERS = { 'surrogate-key': ' ', 'cache-tag': ',' } as const;

function prepare(hit: CachedResponse, tagHeader: CdnConfig['tagHeader']): Prepared | null {
  // Entries of an older Folio (no route to count under), and any without a content type (Fastify would add one).
  if (hit.route === undefined || hit.headers['content-type'] === undefined) return null;
  const cacheControl = hit.headers['cache-control'];
  const shared = cacheControl !== undefined && cacheControl.startsWith('public');
  const names =
    !shared || tagHeader === 'none'
      ? []
      : tagHeader === 'both'
        ? (['surrogate-key', 'cache-tag'] as const)
        : [tagHeader];
  const fixed: string[] = [];
  for (const [name, value] of Object.entries(hit.headers))
    if (!(names as readonly string[]).includes(name)) fixed.push(name, value);
  const tags = names.map((name) => ({ name, had: hit.headers[name] ?? '', sep: TAG_HEADERS[name] }));
  return { fixed, shared, tags, length: String(hit.body.length), route: hit.route };
}

/** A request with a body announced, or an `Expect`: Fastify's (connection handling, 100-continue). */
function plainRead(req: IncomingMessage): boolean {
  const h = req.headers;
  const length = h['content-length'];
  return h['transfer-encoding'] === undefined && (length === undefined || length === '0') && !h.expect;
}

/**
 * The response cache's front door: answers a clean L1 hit of a public read from Node's `request` event, before
 * Fastify routes it or runs a hook, with the same decisions and the same answer as the delivery pipeline (auth,
 * rate limit, cache stage) and the edge's onSend hook would make; anything else is handed to Fastify untouched
 * (docs/architecture.md "The edge").
 *
 * It decides from the URL what the router would: a cached entry exists only for a path the cache stage marked (a
 * `delivery: 'read'` route, not opted out), and its key holds the raw path, so the same path reaches the same
 * route; the entry remembers the route's pattern for the request metrics. A trailing slash, a `#`, an
 * encoded space id fall through. Everything before the rate limit that would not end in a hit (an unknown or
 * uncached token, a refused origin, a draft, an L2 or no hit) falls through before anything is counted; a count
 * that ends the request otherwise (over a limit: a 429) or is not known at once (Redis) is handed to the rate-limit
 * stage with the request, so each request counts once whichever path answers it.
 */
export function fastHits(deps: FastHitDeps): FrontHandler {
  const { cache, directory, metrics, tokens, ownOrigin, limit, share, peerIsClient, tagHeader } = deps;
  const prepared = new WeakMap<CachedResponse, Prepared | null>();
  const tokenTags = new WeakMap<TokenRow, string>();
  return (req, res) => {
    const started = performance.now();
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    const url = req.url ?? '';
    if (!url.startsWith('/v1/') || url.includes('#') || !plainRead(req)) return false;
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    if (path.endsWith('/')) return false;
    const end = path.indexOf('/', 4);
    const spaceId = end === -1 ? path.slice(4) : path.slice(4, end);
    if (spaceId === '' || spaceId.includes('%')) return false;
    const space = directory.peek(spaceId);
    if (space === undefined) return false;
    const query = q === -1 ? {} : (parseQuery(url.slice(q + 1)) as Record<string, unknown>);
    const key = cacheKeyOf(space, path, query);
    if (key === null) return false;
    const hit = cache.getL1(key);
    if (hit === undefined) return false;
    let prep = prepared.get(hit);
    if (prep === undefined) {
      prep = prepare(hit, tagHeader);
      prepared.set(hit, prep);
    }
    if (prep === null) return false;

    const headers = req.headers;
    let token: TokenRow;
    let allowOrigin: string | null;
    try {
      const presented = presentedToken(query, headers);
      if (presented === null) return false;
      const known = tokens.peek(presented.value);
      if (known === undefined || known === null) return false;
      token = tokenFor(spaceId, presented, known);
      allowOrigin = allowedOrigin(method, headers, token, ownOrigin);
    } catch {
      return false; // the pipeline answers it, with the same error
    }
    // A draft or a release is never a key (cacheKeyOf), so the pipeline's preview check has nothing to refuse.
    let ip = '';
    if (sharesApply(share, token)) {
      const peer = req.socket.remoteAddress;
      if (!peerIsClient || peer === undefined) return false;
      ip = peer;
    }
    const outcome: Outcome | Promise<Outcome> = countRequest(limit, share, token, { ip });
    if (!(outcome instanceof Promise) && !outcome.r.exceeded) {
      write(req, res, started, hit, prep, token, allowOrigin, outcome);
      return true;
    }
    // Counted in Redis: the rate-limit stage takes the count (waiting for it there), the pipeline answers.
    countedAlready(req, outcome);
    return false;
  };

  function write(
    req: IncomingMessage,
    res: ServerResponse,
    started: number,
    hit: CachedResponse,
    prep: Prepared,
    token: TokenRow,
    allowOrigin: string | null,
    outcome: Outcome,
  ): void {
    const method = req.method;
    const headers = req.headers;
    deps.front.answered++;
    metrics.cache('hit_l1');
    const status = hit.etag !== undefined && noneMatch(headers['if-none-match'], hit.etag) ? 304 : hit.status;
    const out = prep.fixed.slice();
    out.push('x-request-id', requestIdOf(req), 'vary', 'Origin, Authorization', 'x-svc-cache', 'HIT-L1');
    if (allowOrigin !== null)
      out.push('access-control-allow-origin', allowOrigin, 'access-control-expose-headers', EXPOSED_HEADERS);
    if (prep.shared) {
      if (prep.tags.length > 0) {
        let tag = tokenTags.get(token);
        if (tag === undefined) {
          tag = cdnTag.of(token.spaceId, 'token', token.id);
          tokenTags.set(token, tag);
        }
        for (const t of prep.tags) out.push(t.name, t.had === '' ? tag : `${t.had}${t.sep}${tag}`);
      }
    } else {
      const r = outcome.r;
      out.push(
        'ratelimit-limit',
        String(r.limit),
        'ratelimit-remaining',
        String(r.remaining),
        'ratelimit-reset',
        String(r.resetSeconds),
      );
    }
    // Fastify's lengths: the body's for a GET and for any HEAD (the HEAD route measures GET's body), none on a 304.
    const head = method === 'HEAD';
    if (head || status !== 304) out.push('content-length', prep.length);
    res.writeHead(status, out);
    if (head || status === 304) res.end();
    else res.end(hit.body);
    metrics.request(prep.route, method ?? 'GET', status, (performance.now() - started) / 1000);
  }
}

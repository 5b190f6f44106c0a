import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Metrics } from '../observability/metrics.js';
import { rateLimited } from '../errors/errors.js';
import type { TokenRow } from '../store/tokens-repo.js';
import type { LimitCheck, LimitResult } from './token-limiter.js';

/** Each visitor's share of a token with origins: its counter, and who the visitor is. */
export interface VisitorShare {
  limit: LimitCheck;
  /** The visitor's key: a keyed hash of the request's address, never the address (src/forms/visitor.ts). */
  visitorOf(request: { ip: string }): string;
}

/** A request's count: the limit it met first, and whose. */
export type Outcome = { r: LimitResult; scope: 'token' | 'visitor' };

/**
 * Counts decided before Fastify saw the request (the cache's front door, src/server/fast-hit.ts) for requests it
 * then handed on (over the limit, or counted by Redis): the stage applies them instead of counting again.
 */
const counted = new WeakMap<IncomingMessage, Outcome | Promise<Outcome>>();

export function countedAlready(req: IncomingMessage, outcome: Outcome | Promise<Outcome>): void {
  counted.set(req, outcome);
}

/** Whether a request of this token also counts against its visitor's share (so needs the visitor's address). */
export function sharesApply(share: VisitorShare | null, token: TokenRow): share is VisitorShare {
  return share !== null && token.origins.length > 0;
}

/**
 * Counts one request of `token`: against its visitor's share first where one applies, then the token's. Only a
 * request within the share counts against the token.
 */
export function countRequest(
  limit: LimitCheck,
  share: VisitorShare | null,
  token: TokenRow,
  request: { ip: string },
): Outcome | Promise<Outcome> {
  const byToken = (): Outcome | Promise<Outcome> => {
    const r = limit(token.id);
    return r instanceof Promise ? r.then((t) => ({ r: t, scope: 'token' })) : { r, scope: 'token' };
  };
  if (!sharesApply(share, token)) return byToken();
  const then = (v: LimitResult): Outcome | Promise<Outcome> => {
    if (v.exceeded) return { r: v, scope: 'visitor' };
    const t = byToken();
    return t instanceof Promise ? t.then((o) => nearer(o, v)) : nearer(t, v);
  };
  const v = share.limit(`${token.id}:${share.visitorOf(request)}`);
  return v instanceof Promise ? v.then(then) : then(v);
}

/**
 * The delivery pipeline's rate-limit stage (spec 5 rule 3, spec 8: 1,200 requests per minute per token), after
 * auth and before the cache, so cache hits count too. Every answer carries `RateLimit-Limit`,
 * `RateLimit-Remaining` and `RateLimit-Reset` (seconds); a 429 adds `Retry-After`. Synchronous with local
 * counters, a promise with shared ones.
 *
 * A token with origins is published in a site's pages, so anyone can copy it: each visitor then also has a share
 * of it (`share`, RATE_LIMIT_SHARE_PER_MINUTE), counted first. A visitor past their share is refused
 * without counting against the token, so one client cannot starve the site's other visitors; the headers tell the
 * nearer of the two limits. Tokens without origins (server-side rendering, one address) have the token's alone.
 */
export function rateLimitStage(limit: LimitCheck, metrics: Metrics, share: VisitorShare | null = null) {
  const apply = (reply: FastifyReply, { r, scope }: Outcome): undefined => {
    reply
      .header('ratelimit-limit', r.limit)
      .header('ratelimit-remaining', r.remaining)
      .header('ratelimit-reset', r.resetSeconds);
    if (r.exceeded) {
      metrics.rejected(scope);
      reply.header('retry-after', r.resetSeconds);
      const who = scope === 'token' ? 'with this token' : 'from this visitor with this token';
      throw rateLimited(`More than ${r.limit} requests per minute ${who}; retry in ${r.resetSeconds} s.`, {
        details: { limit: r.limit, retryAfter: r.resetSeconds },
      });
    }
    return undefined;
  };
  return (request: FastifyRequest, reply: FastifyReply): Promise<undefined> | undefined => {
    const token = request.deliveryToken;
    if (token === null) return undefined;
    const early = counted.get(request.raw);
    if (early !== undefined) counted.delete(request.raw);
    const o = early ?? countRequest(limit, share, token, request);
    return o instanceof Promise ? o.then((out) => apply(reply, out)) : apply(reply, o);
  };
}

/** The limit a client would meet first: the token's when it is exceeded or as near, else the visitor's share. */
function nearer(token: Outcome, visitor: LimitResult): Outcome {
  return token.r.exceeded || token.r.remaining <= visitor.remaining
    ? token
    : { r: visitor, scope: 'visitor' };
}

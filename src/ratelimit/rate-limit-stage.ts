import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Metrics } from '../observability/metrics.js';
import { rateLimited } from '../errors/errors.js';
import type { LimitCheck, LimitResult } from './token-limiter.js';

/**
 * The delivery pipeline's rate-limit stage (spec 5 rule 3, spec 8: 1,200 requests per minute per token), after
 * auth and before the cache, so cache hits count too. Every answer carries `RateLimit-Limit`,
 * `RateLimit-Remaining` and `RateLimit-Reset` (seconds); a 429 adds `Retry-After`. Synchronous with local
 * counters, a promise with shared ones.
 */
export function rateLimitStage(limit: LimitCheck, metrics: Metrics) {
  const apply = (reply: FastifyReply, r: LimitResult): undefined => {
    reply
      .header('ratelimit-limit', r.limit)
      .header('ratelimit-remaining', r.remaining)
      .header('ratelimit-reset', r.resetSeconds);
    if (r.exceeded) {
      metrics.rejected('token');
      reply.header('retry-after', r.resetSeconds);
      throw rateLimited(
        `More than ${r.limit} requests per minute with this token; retry in ${r.resetSeconds} s.`,
        { details: { limit: r.limit, retryAfter: r.resetSeconds } },
      );
    }
    return undefined;
  };
  return (request: FastifyRequest, reply: FastifyReply): Promise<undefined> | undefined => {
    const token = request.deliveryToken;
    if (token === null) return undefined;
    const r = limit(token.id);
    return r instanceof Promise ? r.then((result) => apply(reply, result)) : apply(reply, r);
  };
}

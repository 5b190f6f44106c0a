import type { ClusterLink } from '../cluster/worker-pool.js';
import type { RedisLink } from '../cluster/redis-link.js';
import { rateLimited } from '../errors/errors.js';
import { createLimiter } from '../ratelimit/token-limiter.js';

/**
 * New derived images per visitor and minute (IMAGE_DERIVATIONS_PER_MINUTE): image URLs need no
 * token, so nothing else limits what one client makes the server derive. Only a variant that is neither in memory
 * nor in the blob store counts; hits stay free. Counted like the delivery limits (memory, Redis, or shared by the
 * workers of a pool), per visitor (src/ratelimit/visitors.ts: a keyed hash of the connection's network, never the
 * address; image URLs carry no token, so never a claim). Answers the check: it
 * throws 429 `rate_limited` (with `details.retryAfter`, so `Retry-After`) past the limit; `max` 0 turns it off.
 */
export function derivationLimit(options: {
  max: number;
  redis: RedisLink | null;
  cluster: ClusterLink | null;
  onRejected: () => void;
}): (visitorKey: string) => Promise<void> {
  const { max } = options;
  if (max === 0) return async () => {};
  const limit = createLimiter({ max, name: 'image-derive', redis: options.redis, cluster: options.cluster });
  return async (visitorKey) => {
    const r = await limit(visitorKey);
    if (!r.exceeded) return;
    options.onRejected();
    throw rateLimited(
      `More than ${r.limit} new image variants per minute from this visitor; retry in ${r.resetSeconds} s (variants already made are served meanwhile).`,
      { details: { limit: r.limit, retryAfter: r.resetSeconds } },
    );
  };
}

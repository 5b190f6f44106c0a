import type { ClusterLink } from '../cluster/worker-pool.js';
import type { RedisLink } from '../cluster/redis-link.js';
import { rateLimited } from '../errors/errors.js';
import { VisitorKeys } from '../forms/submission/visitor.js';
import { createLimiter } from '../ratelimit/token-limiter.js';

/**
 * New derived images per visitor and minute (IMAGE_DERIVATIONS_PER_MINUTE): image URLs need no
 * token, so nothing else limits what one client makes the server derive. Only a variant that is neither in memory
 * nor in the blob store counts; hits stay free. Counted like the delivery limits (memory, Redis, or shared by the
 * workers of a pool), per visitor as a keyed hash of the address, never the address. Answers the check: it
 * throws 429 `rate_limited` (with `details.retryAfter`, so `Retry-After`) past the limit; `max` 0 turns it off.
 */
export function derivationLimit(options: {
  max: number;
  masterKey: Buffer;
  redis: RedisLink | null;
  cluster: ClusterLink | null;
  onRejected: () => void;
}): (ip: string) => Promise<void> {
  const { max } = options;
  if (max === 0) return async () => {};
  const visitors = new VisitorKeys(options.masterKey);
  const limit = createLimiter({ max, name: 'image-derive', redis: options.redis, cluster: options.cluster });
  return async (ip) => {
    const r = await limit(visitors.of(ip));
    if (!r.exceeded) return;
    options.onRejected();
    throw rateLimited(
      `More than ${r.limit} new image variants per minute from this visitor; retry in ${r.resetSeconds} s (variants already made are served meanwhile).`,
      { details: { limit: r.limit, retryAfter: r.resetSeconds } },
    );
  };
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { appendTag, cdnTag } from '../delivery/cache-headers.js';
import fp from 'fastify-plugin';
import { cacheStage, storeResponse } from '../cache/cache-stage.js';
import { fastHits, type FrontDoor } from './fast-hit.js';
import { ResponseCache } from '../cache/response-cache.js';
import { healthRoutes } from '../observability/health-routes.js';
import type { Metrics } from '../observability/metrics.js';
import { outboxCounts } from '../jobs/jobs-repo.js';
import { recordResponse } from '../observability/request-metrics.js';
import { Visitors } from '../ratelimit/visitors.js';
import { rateLimitStage, type VisitorShare } from '../ratelimit/rate-limit-stage.js';
import { createLimiter } from '../ratelimit/token-limiter.js';
import type { AppServices } from '../app/services.js';
import { deriveKey } from '../store/secrets-repo.js';
import { getSpace } from '../store/spaces-repo.js';
import { CvFanout } from '../cluster/cv-fanout.js';
import { RedisLink } from '../cluster/redis-link.js';
import { attachSpaceDirectory, SpaceDirectory } from '../cluster/space-directory.js';
import { workerLink } from '../cluster/worker-pool.js';

const RATE_LIMIT_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'] as const;

/**
 * What a shared cache must never keep or hand to another client, set as each answer leaves (a response-cache hit
 * too; the cache stores answers without them): the tag of the token that read it, so revoking the token purges
 * what it read (docs/operations.md "CDN"), and no rate-limit headers on an answer a shared cache may store (it
 * would replay one client's remaining budget to every other; 429s keep them).
 */
function perRequestEdgeHeaders(request: FastifyRequest, reply: FastifyReply): void {
  const cacheControl = reply.getHeader('cache-control');
  if (typeof cacheControl !== 'string' || !cacheControl.startsWith('public')) return;
  for (const name of RATE_LIMIT_HEADERS) reply.removeHeader(name);
  const token = request.deliveryToken;
  if (token) appendTag(reply, cdnTag.of(token.spaceId, 'token', token.id));
}

/** What the edge holds, for operators' tooling and tests (`app.folioEdge`). */
export interface Edge {
  metrics: Metrics;
  cache: ResponseCache;
  directory: SpaceDirectory;
  fanout: CvFanout;
  redis: RedisLink | null;
  /** The response cache's front door (src/server/fast-hit.ts): `answered` counts the hits it served. */
  front: FrontDoor;
}

declare module 'fastify' {
  interface FastifyInstance {
    folioEdge: Edge;
  }
}

/**
 * The edge in front of every public read (DESIGN.md picture): per-token rate limit, then the response cache,
 * as stages of the delivery pipeline after auth; the in-memory cv per space and its fan-out between instances;
 * metrics and readiness. It owns the Redis connection and closes everything it opened with the app.
 */
export const edgePlugin = fp(
  async (app: FastifyInstance, opts: { services: AppServices; front: FrontDoor }) => {
    const { config, store, masterKey, metrics } = opts.services;
    // The shared queue and the pool, read when scraped (docs/operations.md "Monitoring").
    metrics.outbox(() => outboxCounts(store));
    const poolStats = store.poolStats();
    if (poolStats !== null) metrics.pool(() => store.poolStats() ?? poolStats);
    // Keys and channels carry the installation (derived from the store's master key) beside REDIS_PREFIX: two
    // installations sharing a Redis by mistake must never serve each other's bytes or adopt each other's cv.
    const installation = deriveKey(masterKey, 'redis-namespace').toString('hex').slice(0, 12);
    const prefix = `${config.redisPrefix}${installation}:`;
    const redis = config.redisUrl ? new RedisLink(config.redisUrl, prefix, app.log, metrics) : null;
    await redis?.connected(1000);
    const directory = new SpaceDirectory({ read: (id) => getSpace(store, id) }, app.log);
    const detach = attachSpaceDirectory(store, directory);
    const cluster = workerLink();
    const fanout = new CvFanout({
      store,
      storeConfig: config.store,
      directory,
      redis,
      pollMs: config.cvPollMs,
      log: app.log,
      tokens: opts.services.tokens,
      cluster,
    });
    const cache = new ResponseCache(config.cache, redis);
    const limit = createLimiter({ max: config.rateLimitPerMinute, name: 'delivery', redis, cluster });
    const visitors = new Visitors(masterKey, config.visitors.ipv6Prefix);
    const share: VisitorShare | null =
      config.rateLimitVisitorSharePerMinute > 0
        ? {
            limit: createLimiter({
              max: config.rateLimitVisitorSharePerMinute,
              name: 'delivery-visitor',
              redis,
              cluster,
            }),
            // A token with origins is a page's: its requests never name a visitor, the connection is the visitor.
            visitorOf: (request) => visitors.connection(request).key,
          }
        : null;

    const front = opts.front;
    app.decorate('folioEdge', { metrics, cache, directory, fanout, redis, front });
    app.decorateRequest('folioCacheKey', null);
    app.decorateRequest('folioExpiresAt', null);
    app.addDeliveryStage(rateLimitStage(limit, metrics, share));
    app.addDeliveryStage(cacheStage({ cache, directory, metrics }));
    const storeSent = storeResponse({ cache, directory });
    // One onSend hook for the cache's store and the request metrics (synchronous: a hit pays no promise).
    app.addHook('onSend', (request, reply, payload, done) => {
      const out = storeSent(request, reply, payload);
      perRequestEdgeHeaders(request, reply);
      recordResponse(metrics, request, reply);
      done(null, out);
    });
    // Request logs (LOG_LEVEL debug, trace) are Fastify's: then every request goes through it.
    if (config.fastHits && config.logLevel !== 'debug' && config.logLevel !== 'trace') {
      front.handler = fastHits({
        cache,
        directory,
        metrics,
        tokens: opts.services.tokens,
        ownOrigin: new URL(config.publicUrl).origin,
        limit,
        share,
        peerIsClient: config.trustProxy === false,
        tagHeader: config.cdn.tagHeader,
        front,
      });
    }
    // Closing: Fastify answers from here on (its 503s, `Connection: close`).
    app.addHook('preClose', (done) => {
      front.handler = null;
      done();
    });
    healthRoutes(app, { store, redis, metrics });
    app.log.info(
      {
        cvFanout: fanout.channel,
        redis: redis !== null,
        rateLimitPerMinute: config.rateLimitPerMinute,
        rateLimitVisitorSharePerMinute: config.rateLimitVisitorSharePerMinute,
      },
      'edge ready: response cache, rate limit, cv fan-out',
    );
    app.addHook('onClose', async () => {
      detach();
      await fanout.close();
      await redis?.close();
    });
  },
  { name: 'folio-edge', dependencies: ['delivery-pipeline'] },
);

import type { FastifyInstance } from 'fastify';
import type { RedisLink } from '../cluster/redis-link.js';
import type { Store } from '../store/open-store.js';
import type { Metrics } from './metrics.js';
import { json, media, NO_SECURITY, object, S } from '../lib/api-schema.js';

const PING_TIMEOUT_MS = 2000;

const checks = object(
  {
    ready: S.boolean,
    checks: object({
      store: { type: 'string', enum: ['up', 'down'] },
      redis: { type: 'string', enum: ['up', 'down', 'not configured'] },
    }),
  },
  undefined,
  'Whether the store answers, and whether Redis (when configured) is up: Redis down leaves the instance ready.',
);
const operator = { tags: ['operations'], security: NO_SECURITY };
const readySchema = {
  ...operator,
  summary: 'Readiness',
  description: 'Outside /v1, without a token: restrict it at the proxy. `Cache-Control: no-store`.',
  response: {
    200: json('Ready (the store answers); `redis: down` means serving on local caches and counters.', checks),
    503: json('Not ready: the store is `down`.', checks),
  },
};
const metricsSchema = {
  ...operator,
  summary: 'Prometheus metrics',
  description: 'Outside /v1, without a token: restrict it at the proxy. docs/api.md "Operator endpoints".',
  response: {
    200: media('The Prometheus text format.', { 'text/plain': { type: 'string' } }),
  },
};

async function within(ms: number, check: () => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    return await Promise.race([check().then((r) => r !== false), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Operator endpoints beside `/healthz` (liveness, src/server/app.ts), outside /v1 and without a token: restrict
 * them at the proxy. `/readyz` is 200 when the store answers, else 503. Redis is reported but does not decide: without
 * it every instance keeps serving from its own cache and counts limits locally, so a probe that took instances out
 * of rotation during a Redis outage would turn a degraded service into none. `/metrics` is the Prometheus text
 * format.
 */
export function healthRoutes(
  app: FastifyInstance,
  deps: { store: Store; redis: RedisLink | null; metrics: Metrics },
): void {
  const { store, redis, metrics } = deps;
  app.get('/readyz', { schema: readySchema }, async (_request, reply) => {
    const [storeUp, redisUp] = await Promise.all([
      within(PING_TIMEOUT_MS, () => store.ping()),
      redis ? within(PING_TIMEOUT_MS, () => redis.ping()) : Promise.resolve(null),
    ]);
    const ready = storeUp;
    const checks = {
      store: storeUp ? 'up' : 'down',
      redis: redisUp === null ? 'not configured' : redisUp ? 'up' : 'down',
    };
    return reply
      .code(ready ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({ ready, checks });
  });
  app.get('/metrics', { schema: metricsSchema }, async (_request, reply) => {
    const text = await metrics.registry.metrics();
    return reply.header('cache-control', 'no-store').type(metrics.registry.contentType).send(text);
  });
}

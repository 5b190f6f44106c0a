import type { FastifyInstance } from 'fastify';
import type { RedisLink } from '../cluster/redis-link.js';
import type { Store } from '../store/open-store.js';
import type { Metrics } from './metrics.js';

const PING_TIMEOUT_MS = 2000;

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
 * them at the proxy. `/readyz` is 200 when the store answers and Redis (when configured) is connected, else 503;
 * `/metrics` is the Prometheus text format.
 */
export function healthRoutes(
  app: FastifyInstance,
  deps: { store: Store; redis: RedisLink | null; metrics: Metrics },
): void {
  const { store, redis, metrics } = deps;
  app.get('/readyz', async (_request, reply) => {
    const [storeUp, redisUp] = await Promise.all([
      within(PING_TIMEOUT_MS, () => store.ping()),
      redis ? within(PING_TIMEOUT_MS, () => redis.ping()) : Promise.resolve(null),
    ]);
    const ready = storeUp && redisUp !== false;
    const checks = {
      store: storeUp ? 'up' : 'down',
      redis: redisUp === null ? 'not configured' : redisUp ? 'up' : 'down',
    };
    return reply
      .code(ready ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({ ready, checks });
  });
  app.get('/metrics', async (_request, reply) => {
    const text = await metrics.registry.metrics();
    return reply.header('cache-control', 'no-store').type(metrics.registry.contentType).send(text);
  });
}

import { Redis } from 'ioredis';
import { freePort, RedisServer } from '../helpers/processes.js';
import { type EngineForTests, SetupError } from './engine.js';

/** Where a developer's own Redis usually is; FOLIO_TEST_REDIS_PROBE moves it (to check the fallback). */
const LOCAL = process.env.FOLIO_TEST_REDIS_PROBE ?? 'redis://127.0.0.1:6379';
// The binary itself is checked (and installed) by system-packages.ts: test/cluster.test.ts needs one even with REDIS_URL.
const NEEDED =
  'Redis is needed: apt-get install redis-server (or brew install redis); the suite starts it itself';

/** `7.0.15` for a Redis that answers PING within a second, else null. */
export async function redisVersion(url: string): Promise<string | null> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    if ((await redis.ping()) !== 'PONG') return null;
    return /redis_version:(\S+)/.exec(await redis.info('server'))?.[1] ?? '?';
  } catch {
    return null;
  } finally {
    redis.disconnect();
  }
}

const where = (url: string): string => {
  const u = new URL(url);
  return `${u.hostname}:${u.port || 6379}`;
};

/** REDIS_URL, else the local Redis, else a redis-server of the run's own on a free port. */
export async function redisForTests(): Promise<EngineForTests> {
  const given = process.env.REDIS_URL;
  if (given) {
    const version = await redisVersion(given);
    if (!version) throw new SetupError(`REDIS_URL (${where(given)}) does not answer: start it, or unset it`);
    return { url: given, label: `${version} at ${where(given)}, REDIS_URL`, stop: async () => {} };
  }
  const local = await redisVersion(LOCAL);
  if (local) return { url: LOCAL, label: `${local} at ${where(LOCAL)}`, stop: async () => {} };
  const server = new RedisServer(await freePort());
  await server.start().catch(async (e: unknown) => {
    await server.kill();
    throw new SetupError(`${NEEDED} (redis-server did not start: ${e instanceof Error ? e.message : e})`);
  });
  return {
    url: server.url,
    label: `started ${(await redisVersion(server.url)) ?? '?'} at ${where(server.url)}`,
    stop: () => server.kill(),
  };
}

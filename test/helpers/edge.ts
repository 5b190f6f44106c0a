import { createServer, type Server, Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { importBundle } from '../../src/bundle/import-bundle.js';
import { randomBase62 } from '../../src/lib/ids.js';
import { buildApp } from '../../src/server/app.js';
import type { Config } from '../../src/config/config.js';
import { type Engine, openTestEnv, type TestEnv } from './engines.js';
import { fixtureBundle, fixtureDir } from './fixture.js';
import { overHttp, type ReadPath } from './over-http.js';

/** Set by test/setup/global.ts (given, found or started), like DATABASE_URL; tests keep apart by key prefix. */
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export const uniquePrefix = (): string => `t_${randomBase62(10)}:`;

/** How many keys exist under `prefix`. */
export async function redisKeys(prefix: string, url = REDIS_URL): Promise<number> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    return (await redis.keys(`${prefix}*`)).length;
  } finally {
    redis.disconnect();
  }
}

/** Deletes every key under `prefix` (tests clean up what they wrote). */
export async function clearRedisPrefix(prefix: string, url = REDIS_URL): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

export interface Response {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test bodies are read loosely
  body: any;
  raw: string;
  headers: Record<string, string | string[] | number | undefined>;
}

export async function get(
  app: FastifyInstance,
  url: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  const res = await app.inject({ method: 'GET', url, headers });
  const raw = res.body;
  let body: unknown = null;
  try {
    body = raw === '' ? null : JSON.parse(raw);
  } catch {
    body = raw;
  }
  return { status: res.statusCode, body, raw, headers: res.headers };
}

/**
 * Builds one more app on an opened env with some configuration changed (Redis, limits, poll). With `path`, the
 * app answers the way it names: fast hits on and requests over HTTP, or Fastify only (over-http.ts).
 */
export async function buildEdgeApp(
  env: TestEnv,
  config: Partial<Config>,
  path?: ReadPath,
): Promise<FastifyInstance> {
  const app = await buildApp({
    ...env,
    config: { ...env.config, ...config, ...(path ? { fastHits: path.fastHits } : {}) },
  });
  if (path?.fastHits) await overHttp(app);
  return app;
}

export interface EdgeTestApp {
  env: TestEnv;
  app: FastifyInstance;
  close(): Promise<void>;
}

/** The real app with the fixture space imported, with configuration overrides. */
export async function openEdgeTestApp(
  engine: Engine,
  config: Partial<Config> = {},
  path?: ReadPath,
): Promise<EdgeTestApp> {
  const env = await openTestEnv(engine);
  await importBundle(env.store, env.blobs, fixtureBundle(), { baseDir: await fixtureDir() });
  const app = await buildEdgeApp(env, config, path);
  return {
    env,
    app,
    async close() {
      await app.close();
      await env.close();
    },
  };
}

/**
 * A TCP proxy on loopback in front of a real server: `cut()` closes every connection and refuses new ones
 * (the server looks down), `restore()` listens again on the same port.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<number> {
    const server = createServer((client) => {
      const upstream = new Socket();
      this.sockets.add(client).add(upstream);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        this.sockets.delete(client);
        this.sockets.delete(upstream);
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      upstream.connect(this.targetPort, this.targetHost, () => {
        client.pipe(upstream).pipe(client);
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
    this.server = server;
    return this.port;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async restore(): Promise<void> {
    if (this.server === null) await this.start();
  }
}

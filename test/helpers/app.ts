import type { FastifyInstance } from 'fastify';
import { importBundle } from '../../src/bundle/import-bundle.js';
import { buildApp } from '../../src/server/app.js';
import type { Config } from '../../src/config/config.js';
import { type Engine, openTestEnv, type TestEnv } from './engines.js';
import { fixtureBundle, fixtureDir } from './fixture.js';

export interface TestApp extends TestEnv {
  app: FastifyInstance;
  get(
    url: string,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Record<string, unknown> }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test bodies are read loosely
}

/** The real app on a fresh store with the fixture space (and a second space) imported. */
export async function openTestApp(engine: Engine): Promise<TestApp> {
  const env = await openTestEnv(engine);
  const dir = await fixtureDir();
  await importBundle(env.store, env.blobs, fixtureBundle(), { baseDir: dir });
  await importBundle(env.store, env.blobs, fixtureBundle('spc_other'), { baseDir: dir });
  return serveEnv(env);
}

/** The real app on a test store, with `config` over the environment's, and `get` through inject. */
export async function serveEnv(env: TestEnv, config: Partial<Config> = {}): Promise<TestApp> {
  const app = await buildApp({ ...env, config: { ...env.config, ...config } });
  return {
    ...env,
    app,
    async get(url, headers = {}) {
      const res = await app.inject({ method: 'GET', url, headers });
      return { status: res.statusCode, body: res.json(), headers: res.headers };
    },
    async close() {
      await app.close();
      await env.close();
    },
  };
}

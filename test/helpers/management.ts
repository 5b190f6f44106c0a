import { rmSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { importBundle } from '../../src/bundle/import-bundle.js';
import { buildApp } from '../../src/server/app.js';
import type { Config } from '../../src/config/config.js';
import { type Engine, openTestEnv, type TestEnv } from './engines.js';
import { fixtureBundle, fixtureDir, TOKENS } from './fixture.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test bodies are read loosely
type Body = any;
export interface Res {
  status: number;
  body: Body;
  headers: Record<string, unknown>;
}

export interface ManagementApp extends TestEnv {
  app: FastifyInstance;
  /** A management API call for spc_test: `api('POST', '/entries', {...})` → /v1/spaces/spc_test/entries. */
  api(method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<Res>;
  /** A delivery GET for spc_test with the public token: `get('/redirects?locale=de')`. */
  get(path: string): Promise<Res>;
  /** Builds another app on the same store (a restart of the HTTP layer). */
  rebuild(config?: Partial<Config>): Promise<FastifyInstance>;
}

const mgt = { authorization: `Bearer ${TOKENS.management}` };
const pub = { authorization: `Bearer ${TOKENS.public}` };

export async function call(
  app: FastifyInstance,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Res> {
  const res = await app.inject({
    method: method as 'GET',
    url,
    headers,
    ...(body === undefined ? {} : { payload: body as object }),
  });
  let parsed: Body = null;
  try {
    parsed = res.json();
  } catch {
    parsed = res.body;
  }
  return { status: res.statusCode, body: parsed, headers: res.headers };
}

/** The real app on a fresh store with the fixture space imported, configurable (worker, private webhooks). */
export async function openManagementApp(
  engine: Engine,
  config: Partial<Config> = {},
): Promise<ManagementApp> {
  const env = await openTestEnv(engine);
  const dir = await fixtureDir();
  await importBundle(env.store, env.blobs, fixtureBundle(), { baseDir: dir });
  const merged: Config = { ...env.config, ...config };
  let app = await buildApp({ ...env, config: merged });
  const apps = [app];
  return {
    ...env,
    config: merged,
    get app() {
      return app;
    },
    api: (method, path, body) => call(app, method, `/v1/spaces/spc_test${path}`, mgt, body),
    get: (path) => call(app, 'GET', `/v1/spc_test${path}`, pub),
    async rebuild(patch = {}) {
      await app.close();
      app = await buildApp({ ...env, config: { ...merged, ...patch } });
      apps.push(app);
      return app;
    },
    async close() {
      for (const a of apps) await a.close();
      await env.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

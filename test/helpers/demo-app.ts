import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { importBundle } from '../../src/bundle/import-bundle.js';
import { buildApp } from '../../src/server/app.js';
import { type Engine, openTestEnv, type TestEnv } from './engines.js';
import { TOKENS } from './fixture.js';
import { call, type Res } from './management.js';

/** The demo space (examples/demo), with the fixture's public and management tokens. */
export const DEMO_SPACE = 'spc_demo';

export interface DemoApp extends TestEnv {
  app: FastifyInstance;
  /** A management API call for the demo space: `api('POST', '/entries/ent_about/publish')`. */
  api(method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<Res>;
  /** A delivery GET for the demo space with the public token: `get('/tree?locale=de')`. */
  get(path: string): Promise<Res>;
}

/** The real app on a fresh store with the demo bundle imported (its assets from examples/demo/assets). */
export async function openDemoApp(engine: Engine): Promise<DemoApp> {
  const env = await openTestEnv(engine);
  const dir = new URL('../../examples/demo/', import.meta.url);
  const bundle = JSON.parse(readFileSync(new URL('bundle.json', dir), 'utf8')) as Record<string, unknown>;
  bundle.tokens = [
    { kind: 'public', value: TOKENS.public },
    { kind: 'management', value: TOKENS.management },
  ];
  await importBundle(env.store, env.blobs, bundle, { baseDir: dir.pathname });
  // The oracle tests read thousands of answers a minute with one token.
  const app = await buildApp({
    ...env,
    config: { ...env.config, worker: false, rateLimitPerMinute: 1_000_000 },
  });
  const mgt = { authorization: `Bearer ${TOKENS.management}` };
  const pub = { authorization: `Bearer ${TOKENS.public}` };
  return {
    ...env,
    app,
    api: (method, path, body) => call(app, method, `/v1/spaces/${DEMO_SPACE}${path}`, mgt, body),
    get: (path) => call(app, 'GET', `/v1/${DEMO_SPACE}${path}`, pub),
    async close() {
      await app.close();
      await env.close();
    },
  };
}

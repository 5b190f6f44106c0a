import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { importBundle } from '../../src/bundle/import-bundle.js';
import { buildApp } from '../../src/server/app.js';
import type { Config } from '../../src/config/config.js';
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

export interface DemoOptions {
  /** Settings beside the test defaults (no job runner, no rate limit to speak of). */
  config?: Partial<Config>;
  /** Copies of a post to add, `ent_copy_00000` on (a space with long lists). */
  copies?: number;
  /** More tokens beside the fixture's public and management ones. */
  tokens?: Record<string, unknown>[];
  /** Semantic search off: a job runner would otherwise embed every entry with the local model. */
  noAi?: boolean;
}

/** The real app on a fresh store with the demo bundle imported (its assets from examples/demo/assets). */
export async function openDemoApp(engine: Engine, options: DemoOptions = {}): Promise<DemoApp> {
  const env = await openTestEnv(engine);
  const dir = new URL('../../examples/demo/', import.meta.url);
  const bundle = JSON.parse(readFileSync(new URL('bundle.json', dir), 'utf8')) as {
    space: Record<string, unknown>;
    entries: Record<string, unknown>[];
    tokens?: unknown;
  };
  if (options.noAi === true) bundle.space.ai = false;
  bundle.tokens = [
    { kind: 'public', value: TOKENS.public },
    { kind: 'management', value: TOKENS.management },
    ...(options.tokens ?? []),
  ];
  const template = bundle.entries.find((e) => e.id === 'ent_release_1_0');
  for (let i = 0; i < (options.copies ?? 0); i++) {
    const n = String(i).padStart(5, '0');
    bundle.entries.push({
      ...template,
      id: `ent_copy_${n}`,
      slug: `copy-${n}`,
      slugs: {},
      name: `Copy ${n}`,
    });
  }
  await importBundle(env.store, env.blobs, bundle, { baseDir: dir.pathname });
  // The oracle tests read thousands of answers a minute with one token.
  const config: Config = { ...env.config, worker: false, rateLimitPerMinute: 1_000_000, ...options.config };
  const app = await buildApp({ ...env, config });
  const mgt = { authorization: `Bearer ${TOKENS.management}` };
  const pub = { authorization: `Bearer ${TOKENS.public}` };
  return {
    ...env,
    config,
    app,
    api: (method, path, body) => call(app, method, `/v1/spaces/${DEMO_SPACE}${path}`, mgt, body),
    get: (path) => call(app, 'GET', `/v1/${DEMO_SPACE}${path}`, pub),
    async close() {
      await app.close();
      await env.close();
    },
  };
}

// The response cache's front door (src/server/fast-hit.ts) answers exactly what Fastify's pipeline answers: two
// apps on one store, one with fast hits and one without, get the same requests over real HTTP; every answer must
// match byte for byte and header for header, and only the clean L1 hits may be the front door's.

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBundle } from '../src/bundle/import-bundle.js';
import type { Config } from '../src/config/config.js';
import { buildApp } from '../src/server/app.js';
import { ENGINES, openTestEnv, type TestEnv } from './helpers/engines.js';
import { fixtureBundle, fixtureDir, SITE_ORIGIN, TOKENS } from './helpers/fixture.js';
import { type HttpAnswer, portOf, sendHttp } from './helpers/over-http.js';

const base = '/v1/spc_test';
const pub = { authorization: `Bearer ${TOKENS.public}` };
const restricted = { authorization: `Bearer ${TOKENS.publicOrigins}` };

interface Case {
  name: string;
  method?: 'GET' | 'HEAD';
  url: string;
  headers?: Record<string, string>;
  /** The front door answers it (a clean L1 hit once warmed); else Fastify does. */
  fast: boolean;
}

const CASES: Case[] = [
  { name: 'a page', url: `${base}/entries/by-path/about`, headers: pub, fast: true },
  { name: 'HEAD of a page', method: 'HEAD', url: `${base}/entries/by-path/about`, headers: pub, fast: true },
  {
    name: 'a list, query in another order',
    url: `${base}/entries?limit=2&type=author`,
    headers: pub,
    fast: true,
  },
  { name: 'the same list', url: `${base}/entries?type=author&limit=2`, headers: pub, fast: true },
  { name: 'the token in the URL', url: `${base}/globals/footer?token=${TOKENS.public}`, fast: true },
  { name: 'a cached 404', url: `${base}/entries/by-path/does-not-exist`, headers: pub, fast: true },
  { name: 'pinned', url: `${base}/entries/ent_post?cv=1`, headers: pub, fast: true },
  {
    name: 'an allowed origin',
    url: `${base}/globals/footer`,
    headers: { ...restricted, origin: SITE_ORIGIN },
    fast: true,
  },
  {
    name: 'any origin, token without origins',
    url: `${base}/globals/footer`,
    headers: { ...pub, origin: 'https://x.example' },
    fast: true,
  },
  {
    name: 'a caller request id',
    url: `${base}/globals/footer`,
    headers: { ...pub, 'x-request-id': 'edge-42' },
    fast: true,
  },
  // Left to Fastify, with the same answer.
  {
    name: 'a refused origin',
    url: `${base}/globals/footer`,
    headers: { ...restricted, origin: 'https://evil.example' },
    fast: false,
  },
  { name: 'no token', url: `${base}/entries/by-path/about`, fast: false },
  {
    name: 'an unknown token',
    url: `${base}/entries/by-path/about`,
    headers: { authorization: 'Bearer folio_pub_nope' },
    fast: false,
  },
  {
    name: 'two different tokens',
    url: `${base}/globals/footer?token=${TOKENS.publicOrigins}`,
    headers: pub,
    fast: false,
  },
  {
    name: 'a draft with a public token',
    url: `${base}/entries/by-path/about?draft=1`,
    headers: pub,
    fast: false,
  },
  { name: 'a trailing slash', url: `${base}/entries/by-path/about/`, headers: pub, fast: false },
  { name: 'a bad query', url: `${base}/entries/ent_home?nope=1`, headers: pub, fast: false },
  { name: 'another space', url: '/v1/spc_other/globals/footer', headers: pub, fast: false },
];

/** Headers that differ between any two answers: the clock, and a generated id (checked for its form). */
function comparable(a: HttpAnswer): Record<string, unknown> {
  const { date, 'x-request-id': id, ...rest } = a.headers;
  expect(date).toMatch(/GMT$/);
  expect(id).toMatch(/^[\w.-]{1,64}$/);
  // The window's reset may fall a second apart between two apps' counters.
  if (rest['ratelimit-reset'] !== undefined) rest['ratelimit-reset'] = 'n';
  return { status: a.status, headers: rest, body: a.body.toString('base64') };
}

/** The request metrics and cache lookups /metrics reports, as text lines. */
async function countedLines(port: number): Promise<string[]> {
  const text = (await sendHttp(port, 'GET', '/metrics')).body.toString('utf8');
  return text
    .split('\n')
    .filter((l) => /^folio_(http_requests_total|cache_lookups_total|rate_limit)/.test(l))
    .sort();
}

describe.each(ENGINES)('fast hits answer as Fastify does, on %s', (engine) => {
  let env: TestEnv;
  let fast: FastifyInstance;
  let slow: FastifyInstance;
  const start = async (config: Partial<Config>) => {
    const app = await buildApp({ ...env, config: { ...env.config, ...config } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    return app;
  };
  beforeAll(async () => {
    env = await openTestEnv(engine);
    await importBundle(env.store, env.blobs, fixtureBundle(), { baseDir: await fixtureDir() });
    await importBundle(env.store, env.blobs, fixtureBundle('spc_other'), { baseDir: await fixtureDir() });
    fast = await start({ fastHits: true });
    slow = await start({ fastHits: false });
    // The first token generation an app sees drops the token lookups it remembered (src/auth/token-cache.ts). On
    // PostgreSQL that first poll runs when the LISTEN connection is up, which on a loaded host can fall between a
    // case's warm-up and its measured request; poll now, so later polls see the same generation and drop nothing.
    await Promise.all([fast.folioEdge.fanout.poll(), slow.folioEdge.fanout.poll()]);
  });
  afterAll(async () => {
    await fast?.close();
    await slow?.close();
    await env?.close();
  });

  it.each(CASES)('$name', async (c) => {
    const method = c.method ?? 'GET';
    const send = (app: FastifyInstance, extra: Record<string, string> = {}) =>
      sendHttp(portOf(app), method, c.url, { ...c.headers, ...extra });
    // Warm both alike (a miss stores; more than once: a token lookup dropped by the cv's first adoption on
    // PostgreSQL is looked up again by Fastify's path), then compare.
    for (let i = 0; i < 3; i++) {
      await send(fast);
      await send(slow);
    }
    const before = fast.folioEdge.front.answered;
    const [f, s] = [await send(fast), await send(slow)];
    expect(comparable(f)).toEqual(comparable(s));
    expect(fast.folioEdge.front.answered - before).toBe(c.fast ? 1 : 0);
    expect(slow.folioEdge.front.answered).toBe(0);
    if (c.fast) expect(f.headers['x-svc-cache']).toBe('HIT-L1');
    if (c.headers?.['x-request-id']) expect(f.headers['x-request-id']).toBe(c.headers['x-request-id']);
    // With the ETag it was given, each answers 304, HEAD with GET's length.
    const etag = s.headers.etag;
    if (typeof etag === 'string') {
      const [f304, s304] = [
        await send(fast, { 'if-none-match': etag }),
        await send(slow, { 'if-none-match': etag }),
      ];
      expect(s304.status).toBe(304);
      expect(comparable(f304)).toEqual(comparable(s304));
      const weak = { 'if-none-match': `"other", W/${etag}` };
      expect(comparable(await send(fast, weak))).toEqual(comparable(await send(slow, weak)));
    }
  });

  it('counts every request alike: request metrics, cache lookups, rate limits', async () => {
    expect(fast.folioEdge.front.answered).toBeGreaterThan(10);
    expect(await countedLines(portOf(fast))).toEqual(await countedLines(portOf(slow)));
  });
});

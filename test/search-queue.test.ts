// Query embeddings waiting for the model are bounded (SEARCH_QUEUE_MAX); past the bound a search
// answers 503 `unavailable` with Retry-After at once instead of queueing without end. On both engines.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBundle } from '../src/bundle/import-bundle.js';
import { buildApp } from '../src/server/app.js';
import { ENGINES, openTestEnv, type TestEnv } from './helpers/engines.js';
import { expectEnvelope } from './helpers/envelope.js';
import { startEmbeddingsServer } from './helpers/search.js';
import { SEARCH_TOKEN, searchBundle } from './helpers/search-corpus.js';
import { tempDir } from './helpers/temp-dirs.js';

const QUEUE = 2;

describe.each(ENGINES)('the query embedding queue on %s', (engine) => {
  let env: TestEnv;
  let app: FastifyInstance;
  let provider: Awaited<ReturnType<typeof startEmbeddingsServer>>;
  const search = async (q: string) => {
    const res = await app.inject({
      method: 'GET',
      url: `/v1/spc_search/search?q=${encodeURIComponent(q)}`,
      headers: { authorization: `Bearer ${SEARCH_TOKEN}` },
    });
    return { status: res.statusCode, headers: res.headers, text: res.body, body: res.json() };
  };

  beforeAll(async () => {
    env = await openTestEnv(engine);
    await importBundle(env.store, env.blobs, searchBundle(), { baseDir: tempDir('folio-search-queue-') });
    // A provider that answers only when told to: what is waiting for it stays waiting.
    provider = await startEmbeddingsServer('held');
    const embeddings = {
      provider: 'http',
      url: provider.url,
      model: 'toy',
      apiKey: null,
      timeoutMs: 30_000,
    } as const;
    app = await buildApp({
      ...env,
      config: { ...env.config, worker: false, embeddings, searchQueueMax: QUEUE },
    });
  });
  afterAll(async () => {
    provider.release();
    await app.close();
    await provider.close();
    await env.close();
  });

  it('refuses a query past the bound with 503 and Retry-After, shares one already waiting, and serves once drained', async () => {
    const waiting = [search('coffee beans by post'), search('opening hours on sunday')];
    await expect.poll(() => provider.held()).toBe(QUEUE);
    // A third distinct query: the queue is full. Answered now, not after the two ahead of it.
    const refused = await Promise.race([
      search('gift cards for a friend'),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 3000)),
    ]);
    if (refused === null) throw new Error('no answer while the queue was full');
    expectEnvelope(refused, 'unavailable');
    expect(refused.headers['retry-after']).toBe('1');
    // The same words as a query already waiting take no second place: they wait for its vector.
    waiting.push(search('coffee beans by post'));
    provider.release();
    expect((await Promise.all(waiting)).map((r) => r.status)).toEqual([200, 200, 200]);
    expect(provider.requests.length).toBe(QUEUE);
    // The queue is empty again: the refused query now passes.
    expect((await search('gift cards for a friend')).status).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBundle } from '../src/bundle/import-bundle.js';
import { createJobRunner } from '../src/wiring/jobs.js';
import { buildApp } from '../src/server/app.js';
import { ENGINES, openTestEnv, type TestEnv } from './helpers/engines.js';
import { drainJobs } from './helpers/jobs.js';
import { QUERIES, SEARCH_TOKEN, searchBundle } from './helpers/search-corpus.js';
import { tempDir } from './helpers/temp-dirs.js';

/**
 * The labelled quality check of semantic search: a small bilingual space and queries written as visitors ask them
 * (paraphrases, not the entries' own words), each with the one entry that answers it. The offline model and the
 * full-text rank together must put that entry in the top 3 for at least 80 % of them.
 */
describe.each(ENGINES)('search quality on %s', (engine) => {
  let env: TestEnv;
  let app: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    env = await openTestEnv(engine);
    await importBundle(env.store, env.blobs, searchBundle(), { baseDir: tempDir('folio-quality-') });
    app = await buildApp({ ...env, config: { ...env.config, worker: false } });
    await drainJobs(
      env.store,
      createJobRunner({ store: env.store, blobs: env.blobs, config: env.config }),
      60_000,
    );
  }, 90_000);
  afterAll(async () => {
    await app.close();
    await env.close();
  });

  it('has at least 30 labelled queries in both languages', () => {
    expect(QUERIES.length).toBeGreaterThanOrEqual(30);
    expect(new Set(QUERIES.map((q) => q.locale))).toEqual(new Set(['en', 'de']));
  });

  it('puts the expected entry in the top 3 for at least 80 % of the queries', async () => {
    const misses: string[] = [];
    for (const { q, locale, expect: id } of QUERIES) {
      const res = await app.inject({
        method: 'GET',
        url: `/v1/spc_search/search?q=${encodeURIComponent(q)}&locale=${locale}&limit=3`,
        headers: { authorization: `Bearer ${SEARCH_TOKEN}` },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['x-folio-search-index']).toBe('complete');
      const top = (res.json() as { items: { entry: { id: string } }[] }).items.map((i) => i.entry.id);
      if (!top.includes(id)) misses.push(`${locale} "${q}" → ${top.join(', ')} (expected ${id})`);
    }
    const rate = 1 - misses.length / QUERIES.length;
    console.log(
      `search quality on ${engine}: ${QUERIES.length - misses.length}/${QUERIES.length} in the top 3 (${(rate * 100).toFixed(0)} %)` +
        (misses.length ? `\n  misses:\n  ${misses.join('\n  ')}` : ''),
    );
    expect(rate, misses.join('\n')).toBeGreaterThanOrEqual(0.8);
  }, 60_000);
});

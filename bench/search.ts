/**
 * `npm run bench -- search`: semantic search over 50,000 entries on SQLite and PostgreSQL.
 *
 * - Query latency: sequential `GET /search` requests whose query vector is cached (each query was searched once
 *   before with another `limit`, so the response cache cannot answer but the embedding cache does), p50 and p99,
 *   beside bare Fastify serving a body of the same size in the same run, and the in-process exact cosine scan alone.
 *   The 50k vectors are random unit vectors written straight to the store: embedding 50k texts with the offline
 *   model takes over ten minutes on this machine, and the scan's cost does not depend on what the vectors mean.
 * - Indexing throughput: the real job (`indexSpace`: read versions, embed with the offline model, write vectors)
 *   over a space of 300 entries, in entries per second, and the model alone on the same texts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import { LocalDirBlobStore } from '../src/blobs/blob-store.js';
import { importBundle } from '../src/bundle/import-bundle.js';
import { loadConfig, type StoreConfig } from '../src/config/config.js';
import { randomBase62 } from '../src/lib/ids.js';
import { indexSpace } from '../src/search/indexer.js';
import { LocalEmbedder } from '../src/search/local-embedder.js';
import { ExactVectorIndex } from '../src/search/vector-index.js';
import { buildApp } from '../src/server/app.js';
import { openStore } from '../src/store/open-store.js';
import { dropSchema } from '../test/helpers/engines.js';
import { fmt, measure } from './lib-measure.js';
import { fillVectors, LOCAL_MODEL_DIM, randomUnit } from './lib-search-vectors.js';

const ENTRIES = 50_000;
const QUERIES = 200;
const INDEXED = 300;
const DIM = LOCAL_MODEL_DIM;
const TOKEN = 'folio_pub_BenchSearchToken00000000001';

/** A deterministic vocabulary: texts share words, so full-text matches exist without matching everything. */
let seed = 42;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ren',
  'to',
  'sa',
  'vel',
  'dor',
  'ni',
  'que',
  'bar',
  'tem',
  'lis',
  'gor',
];
const VOCAB = Array.from({ length: 3000 }, () =>
  Array.from(
    { length: 2 + Math.floor(rand() * 2) },
    () => SYLLABLES[Math.floor(rand() * SYLLABLES.length)],
  ).join(''),
);
const words = (n: number) =>
  Array.from({ length: n }, () => VOCAB[Math.floor(rand() * VOCAB.length)]).join(' ');

function bundle(count: number, spaceId: string): Record<string, unknown> {
  const published = { at: '2026-03-01T10:00:00.000Z', firstAt: '2026-01-01T10:00:00.000Z' };
  const entries = Array.from({ length: count }, (_, i) => ({
    id: `ent_s${i}`,
    type: i % 2 ? 'post' : 'page',
    name: `Entry ${i} ${words(3)}`,
    slug: `entry-${i}`,
    parent: null,
    position: i,
    tags: [],
    published,
    fields: { title: { en: words(6) }, body: { en: `${words(40)}. ${words(30)}.` } },
  }));
  const fields = [
    { key: 'title', type: 'text', localized: true },
    { key: 'body', type: 'textarea', localized: true },
  ];
  return {
    format: 'folio-bundle@1',
    space: { id: spaceId, name: 'Bench', ai: true, locales: [{ code: 'en', default: true }] },
    tokens: [{ kind: 'public', value: TOKEN }],
    types: [
      { key: 'page', kind: 'page', fields },
      { key: 'post', kind: 'collection', pages: true, fields },
    ],
    entries,
  };
}

async function engineRun(
  name: string,
  storeConfig: StoreConfig,
  dataDir: string,
  embedder: LocalEmbedder,
): Promise<void> {
  const config = {
    ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', FOLIO_DEMO: 'false' }),
    store: storeConfig,
    worker: false,
    rateLimitPerMinute: 100_000_000,
  };
  const store = await openStore(storeConfig);
  const blobs = new LocalDirBlobStore(join(dataDir, 'blobs'));
  let t0 = performance.now();
  await importBundle(store, blobs, bundle(ENTRIES, 'spc_bench'), { baseDir: dataDir });
  // What the job runner does after an import (the search-merge job): PostgreSQL's GIN pending list merged.
  await store.dialect.bulkSearchLoad?.after(store.db);
  await fillVectors(store, 'spc_bench', embedder.model, rand);
  console.log(
    `  ${name}: ${ENTRIES} entries imported and given vectors in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const app = await buildApp({ config, store, blobs, embedder });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const auth = { authorization: `Bearer ${TOKEN}` };
  const queries = Array.from({ length: QUERIES }, () => encodeURIComponent(words(3)));
  const url = (q: string, more: string) => `${base}/v1/spc_bench/search?q=${q}${more}`;
  // Embeds every query once and loads the index (first search of the space).
  t0 = performance.now();
  await measure([url(queries[0]!, '&limit=20')], auth);
  console.log(
    `  ${name}: first search (index loaded from the store): ${(performance.now() - t0).toFixed(0)} ms`,
  );
  await measure(
    queries.map((q) => url(q, '&limit=20')),
    auth,
  );
  const all = await measure(
    [...queries.map((q) => url(q, '&limit=10')), ...queries.map((q) => url(q, '&limit=9'))],
    auth,
  );
  const typed = await measure(
    queries.map((q) => url(q, '&limit=10&type=post')),
    auth,
  );
  console.log(`  ${name} /search, cached query vector:       ${fmt(all)}`);
  console.log(`  ${name} /search&type=post (25k rows scanned): ${fmt(typed)}`);
  await app.close();
  await store.close();
}

async function indexing(embedder: LocalEmbedder, dataDir: string): Promise<void> {
  const storeConfig: StoreConfig = { engine: 'sqlite', file: join(dataDir, 'index.sqlite') };
  const store = await openStore(storeConfig);
  const b = bundle(INDEXED, 'spc_index');
  await importBundle(store, new LocalDirBlobStore(join(dataDir, 'blobs2')), b, { baseDir: dataDir });
  await embedder.embed(['warm up the model'], 'query');
  const t0 = performance.now();
  await indexSpace(store, embedder, 'spc_index');
  const job = (performance.now() - t0) / 1000;
  const texts = (
    b.entries as { name: string; fields: { title: { en: string }; body: { en: string } } }[]
  ).map((e) => `${e.name}\n${e.fields.title.en}\n${e.fields.body.en}`);
  const t1 = performance.now();
  await embedder.embed(texts, 'index');
  const model = (performance.now() - t1) / 1000;
  console.log(
    `  indexing (offline model, one worker thread): job ${(INDEXED / job).toFixed(1)} entries/s; model alone ${(INDEXED / model).toFixed(1)} texts/s (${texts[0]!.length} chars each)`,
  );
  await store.close();
}

function scanAlone(): void {
  const index = new ExactVectorIndex(DIM, ENTRIES);
  for (let i = 0; i < ENTRIES; i++)
    index.add({ entryId: `e${i}`, cvFrom: 1, cvTo: null, type: 'page', chunk: 0 }, randomUnit(rand, DIM));
  const times: number[] = [];
  for (let i = 0; i < 120; i++) {
    const q = randomUnit(rand, DIM);
    const t = performance.now();
    index.nearest(q, 100, { cv: 1, type: null });
    if (i >= 20) times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(
    `  exact cosine scan alone, ${ENTRIES} × ${DIM} in process: p50 ${times[50]!.toFixed(2)} ms  p99 ${times[98]!.toFixed(2)} ms`,
  );
}

/** `-- search sqlite` or `-- search postgres`: that engine only, no indexing run. */
export default async function run(args: string[] = []): Promise<void> {
  const only = args[0];
  console.log(
    `search bench: ${ENTRIES} entries (one locale), ${DIM}-dimension vectors, ${QUERIES} distinct queries`,
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-bench-'));
  const embedder = new LocalEmbedder(120_000);
  const pgUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `bench_${randomBase62(8).toLowerCase()}`;
  try {
    scanAlone();
    // Baseline: bare Fastify, a constant JSON body the size of a 10-item search answer.
    const body = JSON.stringify({
      items: Array.from({ length: 10 }, () => ({ filler: 'x'.repeat(700) })),
      cv: 1,
    });
    const bare = Fastify();
    bare.get('/*', async (_req, reply) => reply.header('content-type', 'application/json').send(body));
    const bareBase = await bare.listen({ host: '127.0.0.1', port: 0 });
    await measure(Array.from({ length: 200 }, (_, i) => `${bareBase}/w${i}`));
    const bareLatency = await measure(Array.from({ length: 2 * QUERIES }, (_, i) => `${bareBase}/s${i}`));
    console.log(`  bare Fastify (constant ${body.length} B JSON): ${fmt(bareLatency)}`);
    await bare.close();
    if (only !== 'postgres')
      await engineRun('sqlite', { engine: 'sqlite', file: join(dataDir, 'bench.sqlite') }, dataDir, embedder);
    if (only !== 'sqlite')
      await engineRun(
        'postgres',
        { engine: 'postgres', url: pgUrl, schema },
        mkdtempSync(join(tmpdir(), 'folio-bench-')),
        embedder,
      );
    if (only === undefined) await indexing(embedder, dataDir);
  } finally {
    await embedder.close();
    await dropSchema(schema, pgUrl);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Uncached by-path and by-id latency on a generated space of 10k entries, SQLite and PostgreSQL, beside bare
 * Fastify returning a constant JSON body of the same size in the same run. Every request names a different
 * entry, so no response cache can answer it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { LocalDirBlobStore } from '../src/blobs/blob-store.js';
import { importBundle } from '../src/bundle/import-bundle.js';
import { randomBase62 } from '../src/lib/ids.js';
import { buildApp } from '../src/server/app.js';
import { loadConfig, type StoreConfig } from '../src/config/config.js';
import { openStore } from '../src/store/open-store.js';
import { fmt, get, measure, waitForJobs } from './lib-measure.js';
import { dropSchema } from '../test/helpers/engines.js';

const ENTRIES = 10_000;
const SAMPLES = 2_000;
const TOKEN = 'folio_pub_BenchPublicToken0000000001';

function bundle(): Record<string, unknown> {
  const published = { at: '2026-03-01T10:00:00.000Z', firstAt: '2026-01-01T10:00:00.000Z' };
  const entries: Record<string, unknown>[] = [];
  for (let f = 0; f < 20; f++) {
    entries.push({
      id: `ent_f${f}`,
      type: 'folder',
      name: `Folder ${f}`,
      slug: `section-${f}`,
      slugs: { de: `bereich-${f}` },
      parent: null,
      position: f,
      tags: [],
      published,
      fields: {},
    });
  }
  for (let a = 0; a < 50; a++) {
    entries.push({
      id: `ent_a${a}`,
      type: 'author',
      name: `Author ${a}`,
      slug: `a${a}`,
      parent: null,
      position: a,
      tags: [],
      published,
      fields: { name: `Author ${a}` },
    });
  }
  for (let i = 0; entries.length < ENTRIES; i++) {
    entries.push({
      id: `ent_p${i}`,
      type: 'page',
      name: `Page ${i}`,
      slug: `page-${i}`,
      slugs: { de: `seite-${i}` },
      parent: `ent_f${i % 20}`,
      position: i,
      tags: [i % 2 ? 'odd' : 'even'],
      published,
      fields: {
        title: { en: `Page ${i}`, de: `Seite ${i}` },
        body: [
          { id: `blk_h${i}`, type: 'hero', fields: { heading: { en: `Hello ${i}`, de: `Hallo ${i}` } } },
          {
            id: `blk_t${i}`,
            type: 'text',
            fields: {
              text: {
                en: {
                  type: 'doc',
                  content: [
                    {
                      type: 'paragraph',
                      content: [{ type: 'text', text: 'Lorem ipsum dolor sit amet. '.repeat(10) }],
                    },
                  ],
                },
              },
            },
          },
        ],
        author: `ent_a${i % 50}`,
        link: { kind: 'entry', entry: `ent_p${(i + 1) % 1000}` },
      },
    });
  }
  return {
    format: 'folio-bundle@1',
    space: {
      id: 'spc_bench',
      name: 'Bench',
      locales: [
        { code: 'en', default: true },
        { code: 'de', fallbacks: [] },
        { code: 'de-ch', fallbacks: ['de'] },
      ],
    },
    tokens: [{ kind: 'public', value: TOKEN }],
    types: [
      {
        key: 'page',
        kind: 'page',
        fields: [
          { key: 'title', type: 'text', localized: true },
          { key: 'body', type: 'blocks', blocks: ['hero', 'text'] },
          { key: 'author', type: 'reference', to: ['author'] },
          { key: 'link', type: 'link' },
        ],
      },
      { key: 'author', kind: 'collection', pages: false, fields: [{ key: 'name', type: 'text' }] },
      { key: 'folder', kind: 'folder', fields: [] },
      { key: 'hero', kind: 'block', fields: [{ key: 'heading', type: 'text', localized: true }] },
      { key: 'text', kind: 'block', fields: [{ key: 'text', type: 'richtext', localized: true }] },
    ],
    entries,
  };
}

async function engineRun(name: string, store: StoreConfig, dataDir: string): Promise<void> {
  // The rate limit (1,200 per minute per token) would stop the run: this measures the origin, not the limiter.
  const config = {
    ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', FOLIO_DEMO: 'false' }),
    store,
    rateLimitPerMinute: 100_000_000,
  };
  const opened = await openStore(store);
  const blobs = new LocalDirBlobStore(join(dataDir, 'blobs'));
  const t0 = Date.now();
  await importBundle(opened, blobs, bundle(), { baseDir: dataDir });
  console.log(`  ${name}: imported ${ENTRIES} entries in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const app = await buildApp({ config, store: opened, blobs });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  // The import leaves jobs for the app's worker (the search tables' merge): measure after them.
  await waitForJobs(opened);
  const auth = { authorization: `Bearer ${TOKEN}` };
  const pick = (k: number) => Array.from({ length: SAMPLES }, (_, j) => (j * 7919 + k) % (ENTRIES - 100));
  // Warm up the connection and the JIT on other entries than the measured ones.
  await measure(
    pick(1)
      .slice(0, 200)
      .map((i) => `${base}/v1/spc_bench/entries/ent_p${i}?locale=de&include=author`),
    auth,
  );
  const byPath = await measure(
    pick(3).map(
      (i) => `${base}/v1/spc_bench/entries/by-path/bereich-${i % 20}/seite-${i}?locale=de-ch&include=author`,
    ),
    auth,
  );
  const byId = await measure(
    pick(5).map((i) => `${base}/v1/spc_bench/entries/ent_p${i}?locale=de&include=author`),
    auth,
  );
  console.log(`  ${name} by-path: ${fmt(byPath)}`);
  console.log(`  ${name} by-id:   ${fmt(byId)}`);
  await app.close();
  await opened.close();
}

export default async function run(): Promise<void> {
  console.log(
    `by-path bench: ${ENTRIES} entries, ${SAMPLES} sequential requests per figure, each for a different entry`,
  );
  // Baseline: bare Fastify, the same size of JSON body, constant.
  const sampleDir = mkdtempSync(join(tmpdir(), 'folio-bench-'));
  const body = JSON.stringify({
    entry: { filler: 'x'.repeat(2600) },
    included: { entries: [], links: {} },
    cv: 1,
  });
  const bare = Fastify();
  bare.get('/*', async (_req, reply) => reply.header('content-type', 'application/json').send(body));
  const bareBase = await bare.listen({ host: '127.0.0.1', port: 0 });
  await measure(Array.from({ length: 200 }, (_, i) => `${bareBase}/w${i}`));
  console.log(
    `  bare Fastify (constant ${body.length} B JSON): ${fmt(await measure(Array.from({ length: SAMPLES }, (_, i) => `${bareBase}/e${i}`)))}`,
  );
  await bare.close();

  await engineRun('sqlite', { engine: 'sqlite', file: join(sampleDir, 'bench.sqlite') }, sampleDir);
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `bench_${randomBase62(8).toLowerCase()}`;
  try {
    await engineRun(
      'postgres',
      { engine: 'postgres', url, schema },
      mkdtempSync(join(tmpdir(), 'folio-bench-')),
    );
  } finally {
    await dropSchema(schema, url);
    rmSync(sampleDir, { recursive: true, force: true });
  }
  void get;
}

/**
 * The server side of the throughput part of `npm run bench -- entries` (bench/lib-child.ts starts it), on the
 * store the bench generated:
 *   lib-entries-server.ts folio <dataDir>    Folio with its response cache's L1 sized to nothing, so every
 *                                            request reaches the origin; SQLite in the data dir (folio.sqlite), or
 *                                            PostgreSQL when DATABASE_URL and DATABASE_SCHEMA are set
 *   lib-entries-server.ts bare <body file>   bare Fastify with Folio's options answering the file's bytes on
 *                                            /v1/spc_bench/entries whatever the query
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { LogController } from 'fastify';
import { LocalDirBlobStore } from '../src/blobs/blob-store.js';
import { loadConfig, type StoreConfig } from '../src/config/config.js';
import { buildApp } from '../src/server/app.js';
import { openStore } from '../src/store/open-store.js';
import { serveBenchChild } from './lib-serve.js';

const [mode, arg] = process.argv.slice(2);
if (mode === 'folio' && arg) {
  const url = process.env.DATABASE_URL;
  const schema = process.env.DATABASE_SCHEMA;
  const storeConfig: StoreConfig =
    url && schema
      ? { engine: 'postgres', url, schema }
      : { engine: 'sqlite', file: join(arg, 'folio.sqlite') };
  const store = await openStore(storeConfig);
  const config = {
    ...loadConfig({ DATA_DIR: arg, LOG_LEVEL: 'warn', FOLIO_DEMO: 'false', FOLIO_WORKER: 'off' }),
    store: storeConfig,
    rateLimitPerMinute: 100_000_000,
    cache: { l1MaxBytes: 1, ttlSeconds: 1, pinnedTtlSeconds: 1 },
  };
  const app = await buildApp({ config, store, blobs: new LocalDirBlobStore(join(arg, 'blobs')) });
  await serveBenchChild(app, {}, async () => {
    await app.close();
    await store.close();
  });
} else if (mode === 'bare' && arg) {
  const body = readFileSync(arg);
  // The same Fastify options Folio uses (src/server/app.ts), so the comparison measures Folio's work only.
  const app = Fastify({
    logger: { level: 'warn' },
    bodyLimit: 64 * 1024,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 2048 },
    logController: new LogController({ disableRequestLogging: true }),
  });
  app.get('/v1/spc_bench/entries', (_request, reply) => {
    reply.type('application/json; charset=utf-8').send(body);
  });
  await serveBenchChild(app, {}, async () => {
    await app.close();
  });
} else {
  console.error('usage: lib-entries-server.ts folio <dataDir> | bare <body file>');
  process.exit(2);
}

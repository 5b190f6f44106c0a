/**
 * The server side of the throughput part of `npm run bench -- entries` (bench/lib-child.ts starts it), on the
 * store the bench generated:
 *   lib-entries-server.ts folio <dataDir> [workers]
 *                                            Folio with its response cache's L1 sized to nothing, so every
 *                                            request reaches the origin; SQLite in the data dir (folio.sqlite), or
 *                                            PostgreSQL when DATABASE_URL and DATABASE_SCHEMA are set. With
 *                                            `workers` above 1, that many processes on one port (WORKERS, the
 *                                            pool of src/cluster/worker-pool.ts)
 *   lib-entries-server.ts bare <body file>   bare Fastify with Folio's options answering the file's bytes on
 *                                            /v1/spc_bench/entries whatever the query
 */
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { LogController } from 'fastify';
import { LocalDirBlobStore } from '../src/blobs/blob-store.js';
import { loadConfig, type StoreConfig } from '../src/config/config.js';
import { buildApp } from '../src/server/app.js';
import { openStore } from '../src/store/open-store.js';
import { workerLink, WorkerPool } from '../src/cluster/worker-pool.js';
import { serveBenchChild } from './lib-serve.js';
import { wireDomains } from '../src/wiring/publish.js';

// Publishing and delivery need the domains' hooks before anything is generated (src/wiring/publish.ts).
wireDomains();

const [mode, arg, workersArg] = process.argv.slice(2);
const workers = Number(workersArg ?? 1);
if (mode === 'folio' && arg && workers > 1 && cluster.isPrimary) {
  const pool = await WorkerPool.start({
    count: workers,
    env: () => ({}),
    log: { info: () => {}, error: (m) => console.error(m) },
  });
  console.log(JSON.stringify({ port: pool.port, workers }));
  process.once('SIGTERM', () => {
    void pool.stop().then(() => {
      console.log(JSON.stringify({}));
      process.exit(0);
    });
  });
} else if (mode === 'folio' && arg) {
  const url = process.env.DATABASE_URL;
  const schema = process.env.DATABASE_SCHEMA;
  // DATABASE_NAMED_STATEMENTS as the service reads it, for comparing named statements on and off.
  const fromEnv = loadConfig({ ...process.env, DATABASE_URL: url || 'postgres://unused' }).store;
  const storeConfig: StoreConfig =
    url && schema
      ? {
          engine: 'postgres',
          url,
          schema,
          namedStatements: fromEnv.engine === 'postgres' && fromEnv.namedStatements !== false,
        }
      : { engine: 'sqlite', file: join(arg, 'folio.sqlite') };
  const store = await openStore(storeConfig);
  const config = {
    ...loadConfig({
      DATA_DIR: arg,
      LOG_LEVEL: 'warn',
      FOLIO_DEMO: 'false',
      FOLIO_WORKER: 'off',
      // The entries bench runs one server with the rows index off, for its before/after.
      LIST_INDEX_MB: process.env.LIST_INDEX_MB,
    }),
    store: storeConfig,
    rateLimitPerMinute: 100_000_000,
    cache: { l1MaxBytes: 1, ttlSeconds: 1, pinnedTtlSeconds: 1 },
  };
  const app = await buildApp({ config, store, blobs: new LocalDirBlobStore(join(arg, 'blobs')) });
  const link = workerLink();
  if (link) {
    // A worker of the pool above: the primary prints the port, and stops it with SIGTERM.
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    link.send({ folio: 'listening', port: typeof address === 'object' && address ? address.port : 0 });
    process.once('SIGTERM', () => void app.close().then(() => store.close().then(() => process.exit(0))));
  } else
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

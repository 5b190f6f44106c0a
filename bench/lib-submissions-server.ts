/**
 * The server side of `npm run bench -- submissions`, run as a child process so the load generator and the
 * server never share an event loop:
 *   lib-submissions-server.ts folio <dataDir> [<postgres schema>]   Folio with one space and one form
 *   lib-submissions-server.ts bare                                 bare Fastify parsing the JSON, answering ok
 * Prints one JSON line `{ port, … }` when listening; on SIGTERM prints `{ maxRssMb, cpuMs, stored }` (CPU time
 * since listening, which machine load does not inflate) and exits.
 */
import { mkdirSync } from 'node:fs';
import Fastify, { LogController } from 'fastify';
import { importBundle } from '../src/bundle/import-bundle.js';
import { openRuntime, type Runtime } from '../src/cli/runtime.js';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/config/config.js';
import { serveBenchChild } from './lib-serve.js';
import { BUNDLE } from './lib-submissions-space.js';
import { wireDomains } from '../src/wiring/publish.js';

// Publishing and delivery need the domains' hooks before anything is generated (src/wiring/publish.ts).
wireDomains();

async function folio(dataDir: string, schema: string | undefined): Promise<void> {
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    FOLIO_DEMO: 'false',
    // The outbox runner would compete for the same store; the bench measures accepting submissions.
    FOLIO_WORKER: 'false',
    // Limits lifted: one client sends far more than 10 a minute (spec 8 limits are tested, not benchmarked).
    RATE_LIMIT_VISITOR_PER_MINUTE: '1000000000',
    RATE_LIMIT_FORM_PER_MINUTE: '1000000000',
    RATE_LIMIT_DELIVERY_PER_MINUTE: '100000000',
    ...(schema === undefined ? { DATABASE_URL: '' } : { DATABASE_SCHEMA: schema }),
  });
  mkdirSync(dataDir, { recursive: true });
  const rt: Runtime = await openRuntime(config);
  await importBundle(rt.store, rt.blobs, BUNDLE, { baseDir: dataDir });
  const app = await buildApp(rt);
  await serveBenchChild(app, { engine: config.store.engine }, async () => {
    const row = await rt.store.db
      .selectFrom('submissions')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    await app.close();
    await rt.close();
    return { stored: Number(row.n) };
  });
}

async function bare(): Promise<void> {
  // The same Fastify options Folio uses (src/server/app.ts), so the comparison measures Folio's work only.
  const app = Fastify({
    logger: { level: 'warn' },
    bodyLimit: 64 * 1024,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 2048 },
    logController: new LogController({ disableRequestLogging: true }),
  });
  app.post('/v1/:spaceId/forms/:key/submissions', async () => ({ ok: true, successMessage: 'Thanks!' }));
  await serveBenchChild(app, {}, async () => app.close());
}

const [mode, arg, schema] = process.argv.slice(2);
if (mode === 'folio' && arg) await folio(arg, schema);
else if (mode === 'bare') await bare();
else {
  console.error('usage: lib-submissions-server.ts folio <dataDir> [<schema>] | bare');
  process.exit(2);
}

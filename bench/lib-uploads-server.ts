/**
 * The server side of `npm run bench -- uploads`, in a child process of its own:
 *   lib-uploads-server.ts folio <dataDir>   Folio on SQLite with local blobs, one form with a file field
 *   lib-uploads-server.ts bare <dataDir>    bare Fastify + @fastify/multipart streaming each file to disk
 * Prints `{ port }` when listening; on SIGTERM prints `{ maxRssMb, cpuMs, stored }` and exits.
 */
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import Fastify, { LogController } from 'fastify';
import { importBundle } from '../src/bundle/import-bundle.js';
import { openRuntime } from '../src/cli/runtime.js';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/config/config.js';
import { serveBenchChild } from './lib-serve.js';
import { UPLOADS_BUNDLE } from './lib-uploads-space.js';
import { wireDomains } from '../src/wiring/publish.js';

// Publishing and delivery need the domains' hooks before anything is generated (src/wiring/publish.ts).
wireDomains();

async function folio(dataDir: string): Promise<void> {
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    S3_BUCKET: '',
    LOG_LEVEL: 'warn',
    FOLIO_DEMO: 'false',
    FOLIO_WORKER: 'false',
    RATE_LIMIT_VISITOR_PER_MINUTE: '1000000000',
    RATE_LIMIT_DELIVERY_PER_MINUTE: '100000000',
  });
  mkdirSync(dataDir, { recursive: true });
  const rt = await openRuntime(config);
  await importBundle(rt.store, rt.blobs, UPLOADS_BUNDLE, { baseDir: dataDir });
  const app = await buildApp(rt);
  await serveBenchChild(app, {}, async () => {
    const row = await rt.store.db
      .selectFrom('uploads')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('type', '<>', '')
      .executeTakeFirstOrThrow();
    await app.close();
    await rt.close();
    return { stored: Number(row.n) };
  });
}

async function bare(dataDir: string): Promise<void> {
  mkdirSync(dataDir, { recursive: true });
  const app = Fastify({
    logger: { level: 'warn' },
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 2048 },
    logController: new LogController({ disableRequestLogging: true }),
  });
  await app.register(multipart, { limits: { fileSize: 10 * 1024 * 1024 + 1, files: 1 } });
  let stored = 0;
  app.post('/v1/:spaceId/forms/:key/uploads', async (request, reply) => {
    let size = 0;
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      const file = join(dataDir, `${process.pid}-${++stored}`);
      part.file.on('data', (chunk: Buffer) => (size += chunk.length));
      await pipeline(part.file, createWriteStream(file));
    }
    return reply.status(201).send({ id: `fup_${stored}`, name: 'x', size, type: 'application/pdf' });
  });
  await serveBenchChild(app, {}, async () => {
    await app.close();
    return { stored };
  });
}

const [mode, dir] = process.argv.slice(2);
if (mode === 'folio' && dir) await folio(dir);
else if (mode === 'bare' && dir) await bare(dir);
else {
  console.error('usage: lib-uploads-server.ts folio|bare <dataDir>');
  process.exit(2);
}

/**
 * The server side of `npm run bench -- images`, a child process (bench/lib-child.ts starts it):
 *   lib-images-server.ts folio <dataDir> <bundleDir>   Folio on SQLite with the bench's bundle imported
 *   lib-images-server.ts bare <response.json>          bare Fastify sending the recorded bytes and headers
 * Prints `{ port, … }` when listening; on SIGTERM prints `{ maxRssMb, cpuMs }` and exits.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { LogController } from 'fastify';
import { importBundle } from '../src/bundle/import-bundle.js';
import { openRuntime } from '../src/cli/runtime.js';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/config/config.js';
import { serveBenchChild } from './lib-serve.js';
import { wireDomains } from '../src/wiring/publish.js';

// Publishing and delivery need the domains' hooks before anything is generated (src/wiring/publish.ts).
wireDomains();

export interface RecordedImage {
  path: string;
  headers: Record<string, string>;
  body: string; // base64
}

async function main(): Promise<void> {
  const [mode, a, b] = process.argv.slice(2);
  if (mode === 'folio' && a && b) {
    const config = loadConfig({
      ...process.env,
      DATA_DIR: a,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_DELIVERY_PER_MINUTE: '100000000',
      // The bench is one visitor asking for hundreds of new variants on purpose (the per-visitor limit is off).
      IMAGE_DERIVATIONS_PER_MINUTE: '0',
    });
    const rt = await openRuntime(config);
    const bundle = JSON.parse(readFileSync(join(b, 'bundle.json'), 'utf8')) as unknown;
    await importBundle(rt.store, rt.blobs, bundle, { baseDir: b });
    const app = await buildApp(rt);
    app.addHook('onClose', async () => rt.close());
    await serveBenchChild(app, {}, async () => {
      await app.close();
    });
  } else if (mode === 'bare' && a) {
    const recorded = JSON.parse(readFileSync(a, 'utf8')) as RecordedImage;
    const body = Buffer.from(recorded.body, 'base64');
    // Folio's own Fastify options (src/server/app.ts), so the difference is Folio's work.
    const app = Fastify({
      logger: { level: 'warn' },
      routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 2048 },
      logController: new LogController({ disableRequestLogging: true }),
    });
    app.get(recorded.path, (_request, reply) => {
      reply.headers(recorded.headers).send(body);
    });
    await serveBenchChild(app, {}, async () => {
      await app.close();
    });
  } else {
    console.error('usage: lib-images-server.ts folio <dataDir> <bundleDir> | bare <response.json>');
    process.exit(2);
  }
}

await main();

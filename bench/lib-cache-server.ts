/**
 * The server side of `npm run bench -- cache`, run as a child process so the load generator and the server
 * never share an event loop:
 *   lib-cache-server.ts folio <dataDir>             Folio with the demo space and a generated space of 3,000
 *                                                   entries (`spc_bench`, bench/lib-entries-space.ts); SQLite in
 *                                                   the data dir, or PostgreSQL when DATABASE_URL is set
 *   lib-cache-server.ts bare <responses.json>       bare Fastify answering each recorded response's bytes and
 *                                                   headers at its path
 * Prints one JSON line `{ port, … }` when listening; stops on SIGTERM.
 */
import { readFileSync } from 'node:fs';
import Fastify, { LogController } from 'fastify';
import { ensureDemo } from '../src/cli/demo.js';
import { openRuntime } from '../src/cli/runtime.js';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/config/config.js';
import { listSpaceIds } from '../src/store/spaces-repo.js';
import { generateSpace } from './lib-entries-space.js';
import { waitForJobs } from './lib-measure.js';
import { endWithParent } from './lib-serve.js';
import { wireDomains } from '../src/wiring/publish.js';

// Publishing and delivery need the domains' hooks before anything is generated (src/wiring/publish.ts).
wireDomains();

const LIST_SPACE = 'spc_bench';
const LIST_TOKEN = 'folio_pub_BenchCacheListToken00000001';

export interface RecordedResponse {
  path: string;
  headers: Record<string, string>;
  body: string; // base64
}

// The same Fastify options Folio uses (src/server/app.ts), so the comparison measures Folio's work only.
const fastifyOptions = {
  logger: { level: 'warn' },
  bodyLimit: 64 * 1024,
  routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 2048 },
  logController: new LogController({ disableRequestLogging: true }),
};

async function main(): Promise<void> {
  const [mode, arg] = process.argv.slice(2);
  if (mode === 'folio' && arg) {
    const config = loadConfig({
      ...process.env,
      DATA_DIR: arg,
      LOG_LEVEL: 'warn',
      // Counted like any request, never rejected: the bench sends far more than 1,200 a minute.
      RATE_LIMIT_DELIVERY_PER_MINUTE: '100000000',
    });
    const rt = await openRuntime(config);
    const demo = await ensureDemo(rt);
    if (!(await listSpaceIds(rt.store)).includes(LIST_SPACE))
      await generateSpace(rt.store, rt.blobs, LIST_SPACE, LIST_TOKEN, 3000);
    const app = await buildApp(rt);
    app.addHook('onClose', async () => rt.close());
    await app.listen({ port: 0, host: '127.0.0.1' });
    // The import and the generated space leave jobs for the app's worker (the search tables' merge, events):
    // measured while they ran, PostgreSQL's first case (by-path) lost a fifth of its rate. Report ready after them.
    await waitForJobs(rt.store);
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    console.log(
      JSON.stringify({
        port,
        spaceId: demo?.tokens.spaceId,
        token: demo?.tokens.public,
        listSpace: LIST_SPACE,
        listToken: LIST_TOKEN,
      }),
    );
    endWithParent();
    process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
  } else if (mode === 'bare' && arg) {
    // The bench's own file, written by its parent process a moment ago.
    const responses = JSON.parse(readFileSync(arg, 'utf8')) as RecordedResponse[];
    const app = Fastify(fastifyOptions);
    for (const recorded of responses) {
      const body = Buffer.from(recorded.body, 'base64');
      app.get(recorded.path, (_request, reply) => {
        reply.headers(recorded.headers).send(body);
      });
    }
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    console.log(JSON.stringify({ port }));
    endWithParent();
    process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
  } else {
    console.error('usage: lib-cache-server.ts folio <dataDir> | bare <responses.json>');
    process.exit(2);
  }
}

await main();

import cluster from 'node:cluster';
import type { Config } from '../config/config.js';
import { ConfigError, loadConfig } from '../config/config.js';
import { refusedRedisDatabase } from '../cluster/redis-link.js';
import { workerLink, WorkerPool } from '../cluster/worker-pool.js';
import { closeSmtpPools, describeMailTransport, mailFromWarning } from '../forms/notify/mailer.js';
import { buildApp } from '../server/app.js';
import { demoBanner, demoKeptLine, type DemoState, ensureDemo } from './demo.js';
import { checkDataDir, openRuntime } from './runtime.js';

export interface ServeOptions {
  /** `--demo` (what `npm start` passes): load the demo space into an empty store, as FOLIO_DEMO=true does. */
  demo: boolean;
}

/**
 * `folio serve`: the HTTP server until SIGINT/SIGTERM. With `WORKERS` above 1 this process becomes the primary of
 * a worker pool (src/cluster/worker-pool.ts): it migrates the store and loads the demo once, then forks the
 * workers, which run the same command and find both done. A setting the process cannot work with (a Redis
 * database the server refuses, a DATA_DIR it cannot write, a port taken) ends it at once with exit code 1.
 */
export async function serve(options: ServeOptions = { demo: false }): Promise<number> {
  const config = loadConfig();
  const wantDemo = config.demo || options.demo;
  await checkStartup(config);
  if (config.workers > 1 && cluster.isPrimary) return servePool(config, wantDemo);
  const link = workerLink();
  const rt = await openRuntime(config);
  let demo: DemoState | null = null;
  try {
    demo = wantDemo && link === null ? await ensureDemo(rt) : null;
  } catch (err) {
    await rt.close();
    throw err;
  }
  const app = await buildApp(rt).catch(async (err: unknown) => {
    await rt.close();
    throw err;
  });
  app.addHook('onClose', async () => rt.close());
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    // Nothing may run on without a listener (the job runner started with the app): close all, one line, exit 1.
    await app.close();
    closeSmtpPools();
    console.error(`Cannot listen on ${config.host}:${config.port}: ${(err as Error).message}`);
    if (link) process.exit(1);
    return 1;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  if (link) link.send({ folio: 'listening', port });
  else printBanner(config, port, demo, null);
  const code = await untilSignal(async (signal) => {
    app.log.info({ signal }, 'shutting down');
    // Fastify's close stops accepting, lets in-flight requests finish and closes idle keep-alive connections.
    await app.close();
    closeSmtpPools();
  });
  // A worker's IPC channel would keep it alive after its server closed.
  if (link) process.exit(code);
  return code;
}

/** What must hold before anything opens: each names the variable to fix. */
async function checkStartup(config: Config): Promise<void> {
  await checkDataDir(config.dataDir);
  if (config.redisUrl !== null) {
    const refused = await refusedRedisDatabase(config.redisUrl);
    if (refused !== null)
      throw new ConfigError('REDIS_URL', `names a database the Redis server refuses (${refused})`);
  }
}

async function servePool(config: Config, wantDemo: boolean): Promise<number> {
  const rt = await openRuntime(config);
  let demo: DemoState | null;
  try {
    demo = wantDemo ? await ensureDemo(rt) : null;
  } finally {
    await rt.close();
  }
  const pool = await WorkerPool.start({
    count: config.workers,
    // The primary migrated and loaded the demo. One worker runs the outbox jobs, as one `folio worker` would: on
    // SQLite every writer waits for the others, and the jobs need no more than one.
    env: (index) => ({ FOLIO_DEMO: 'false', ...(index > 0 ? { FOLIO_WORKER: 'off' } : {}) }),
    log: { info: (m) => console.log(m), error: (m) => console.error(m) },
  });
  printBanner(
    config,
    pool.port,
    demo,
    `Workers: ${config.workers} processes (pids ${pool.pids.join(', ')}).`,
  );
  return untilSignal(() => pool.stop());
}

/**
 * Where the instance serves and where mail goes; the demo's tokens and examples only on the start that made them
 * (a later start says where they are kept, never their values).
 */
function printBanner(config: Config, port: number, demo: DemoState | null, workers: string | null): void {
  const base = process.env.PUBLIC_URL
    ? config.publicUrl
    : `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
  // One write: whoever waits for the serving line (a supervisor, a test) reads the demo's line with it.
  if (demo?.created) console.log(demoBanner(base, demo.tokens));
  else
    console.log(
      [
        `Folio is serving ${base} (store: ${config.store.engine}).`,
        ...(demo ? [demoKeptLine(demo.tokens.spaceId, config.dataDir)] : []),
      ].join('\n'),
    );
  if (workers !== null) console.log(workers);
  // The forms inbox for people, signed in with a management token.
  console.log(`Inbox: ${base}/inbox/ (sign in with a management token).`);
  // spec 4.4 rule 6: say where notification email goes, so a missing SMTP_URL is noticed at once.
  console.log(`Mail: ${describeMailTransport(config.mail)}.`);
  // A made-up sender on an IP address or localhost does not reach anyone's inbox.
  const fromWarning = mailFromWarning(config.mail);
  if (fromWarning !== null) console.warn(`Warning: ${fromWarning}`);
}

/** Waits for SIGINT or SIGTERM (either, once: Ctrl+C reaches a pool's workers and its primary), then stops. */
function untilSignal(stop: (signal: string) => Promise<void>): Promise<number> {
  return new Promise<number>((resolveExit) => {
    let stopping = false;
    const onSignal = (signal: string) => {
      if (stopping) return;
      stopping = true;
      stop(signal).then(
        () => resolveExit(0),
        () => resolveExit(1),
      );
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

import cluster from 'node:cluster';
import type { Config } from '../config/config.js';
import { loadConfig } from '../config/config.js';
import { workerLink, WorkerPool } from '../cluster/worker-pool.js';
import { describeMailTransport, mailFromWarning } from '../forms/notify/mailer.js';
import { buildApp } from '../server/app.js';
import { demoBanner, type DemoTokens, ensureDemo } from './demo.js';
import { openRuntime } from './runtime.js';

/**
 * `folio serve`: the HTTP server until SIGINT/SIGTERM. With `WORKERS` above 1 this process becomes the primary of
 * a worker pool (src/cluster/worker-pool.ts): it migrates the store and loads the demo once, then forks the
 * workers, which run the same command and find both done.
 */
export async function serve(): Promise<number> {
  const config = loadConfig();
  if (config.workers > 1 && cluster.isPrimary) return servePool(config);
  const link = workerLink();
  const rt = await openRuntime(config);
  const demo = config.demo && link === null ? await ensureDemo(rt) : null;
  const app = await buildApp(rt);
  app.addHook('onClose', async () => rt.close());
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  if (link) link.send({ folio: 'listening', port });
  else printBanner(config, port, demo, null);
  const code = await untilSignal(async (signal) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
  });
  // A worker's IPC channel would keep it alive after its server closed.
  if (link) process.exit(code);
  return code;
}

async function servePool(config: Config): Promise<number> {
  const rt = await openRuntime(config);
  let demo: DemoTokens | null;
  try {
    demo = config.demo ? await ensureDemo(rt) : null;
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

/** Where the instance serves (with the demo's tokens and examples when it loaded the demo) and where mail goes. */
function printBanner(config: Config, port: number, demo: DemoTokens | null, workers: string | null): void {
  const base = process.env.PUBLIC_URL
    ? config.publicUrl
    : `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
  if (demo) console.log(demoBanner(base, demo));
  else console.log(`Folio is serving ${base} (store: ${config.store.engine}).`);
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

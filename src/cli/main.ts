import { closeSmtpPools, mailFromWarning } from '../forms/notify/mailer.js';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseScopes, type Scope } from '../auth/scopes.js';
import { exportBundleToDir } from '../bundle/export-bundle.js';
import { BundleError, importBundle } from '../bundle/import-bundle.js';
import { ConfigError, loadConfig } from '../config/config.js';
import { openStore } from '../store/open-store.js';
import { LATEST_MIGRATION, StoreNewerError } from '../store/migrations/index.js';
import { FOLIO_VERSION } from '../lib/version.js';
import { getSpace } from '../store/spaces-repo.js';
import type { TokenKind } from '../store/tokens-repo.js';
import { isOrigin, issueToken } from '../management/token-ops.js';
import { importProgress } from './progress.js';
import { createJobRunner } from '../wiring/jobs.js';
import { wireDomains } from '../wiring/publish.js';
import { embedderFor } from '../search/embedder.js';
import { queueStaleSearchIndexes } from '../search/indexer.js';
import { checkDataDir, openRuntime, REINDEX_STEPS } from './runtime.js';
import { backupCommand, restoreCommand } from './backup.js';
import { serve } from './serve.js';
import { loadPurgeRelayConfig, startPurgeRelay } from './purge-relay.js';
import { sweepRetention } from '../forms/retention/sweeps.js';
import { outboxCounts } from '../jobs/jobs-repo.js';
import { lineLog } from '../observability/log.js';
import { Metrics } from '../observability/metrics.js';
import { serveWorkerEndpoints } from '../observability/worker-endpoints.js';

const USAGE = `Usage: folio <command>

  serve [--demo]                          start the HTTP server; --demo (npm start) imports the demo space into an
                                          empty store and prints its tokens once, when it makes them
  import <bundle.json> [--replace]        import a space bundle in one transaction
  export <spaceId> <dir> [--secrets]      write <dir>/bundle.json and the asset files (content, not submissions;
                                          forms' turnstileSecret and chatWebhookUrl only with --secrets)
  backup <dir>                            store (SQLite online copy; PostgreSQL: pg_dump first), files, manifest
  restore <dir> [--force]                 restore a backup into a stopped Folio (docs/operations.md)
  migrate                                 bring the store's schema up to date (and backfill what older Folios left)
  worker                                  run the outbox jobs (webhooks, …) without HTTP; any number on PostgreSQL
                                          (WORKER_METRICS_PORT: serve /healthz and /metrics)
  sweep                                   delete expired submissions, unused uploads and their files once (cron)
  purge-relay                             receive Folio's webhooks and purge a CDN by their keys (PURGE_RELAY_*)
  token create --space <id> --kind public|preview|management [--origin <origin>]… [--name <text>]
               [--scope <scope>,…]         management tokens only: content.write, forms.write, forms.read,
                                          forms.erase, tokens.admin (default: every scope)
               [--server-side]             public tokens without origins: a site's server, which may name its
                                          visitor in Folio-Visitor-Ip
  --version                               print this Folio's version

Configuration comes from the environment: PORT, HOST, DATA_DIR, DATABASE_URL, REDIS_URL, LOG_LEVEL, PUBLIC_URL, …
`;

/** Runs a CLI command; returns the exit code (serve resolves only when the server stops). */
export async function main(argv: string[]): Promise<number> {
  wireDomains();
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'serve':
        return await serveCommand(rest);
      case 'worker':
        return await worker();
      case 'sweep':
        return await sweepCommand();
      case 'import':
        return await importCommand(rest);
      case 'export':
        return await exportCommand(rest);
      case 'backup':
        return await backupCommand(rest);
      case 'restore':
        return await restoreCommand(rest);
      case 'migrate':
        return await migrateCommand();
      case '--version':
      case 'version':
        console.log(FOLIO_VERSION);
        return 0;
      case 'token':
        return await tokenCommand(rest);
      case 'purge-relay':
        return await purgeRelayCommand();
      case undefined:
      case 'help':
      case '--help':
        console.log(USAGE);
        return command === undefined ? 2 : 0;
      default:
        console.error(`Unknown command "${command}".\n\n${USAGE}`);
        return 2;
    }
  } catch (err) {
    if (err instanceof ConfigError || err instanceof BundleError || err instanceof StoreNewerError) {
      console.error(err.message);
      return 1;
    }
    throw err;
  }
}

function serveCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { demo: { type: 'boolean' } } });
  return serve({ demo: values.demo === true });
}

/** `folio migrate`: one line per migration and backfill applied (openStore's), then what it did in sum. */
async function migrateCommand(): Promise<number> {
  const store = await openStore(loadConfig().store, {
    reindex: REINDEX_STEPS,
    log: (line) => console.log(line),
  });
  const { migrations, reindexed } = store.opened;
  await store.close();
  if (migrations.length === 0 && reindexed.length === 0)
    console.log(`Store schema is up to date (${LATEST_MIGRATION}); nothing to backfill.`);
  else
    console.log(
      `Applied ${migrations.length} migration${migrations.length === 1 ? '' : 's'} and ${reindexed.length} backfill${reindexed.length === 1 ? '' : 's'}; the schema is at ${LATEST_MIGRATION}.`,
    );
  return 0;
}

/** `folio purge-relay`: until SIGINT/SIGTERM (docs/operations.md "CDN"). */
async function purgeRelayCommand(): Promise<number> {
  const config = loadPurgeRelayConfig(process.env, (path) => readFileSync(path, 'utf8'));
  const relay = await startPurgeRelay(config);
  const address = relay.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  console.log(
    `purge-relay: listening on http://${config.host}:${port}, purging ${config.targets.map((t) => t.host).join(', ')}`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await relay.close();
  return 0;
}

/** `folio worker`: the outbox job runner on its own, until SIGINT/SIGTERM (jobs in hand finish first). */
async function worker(): Promise<number> {
  const config = loadConfig();
  await checkDataDir(config.dataDir);
  const rt = await openRuntime(config);
  const metrics = new Metrics();
  const runner = createJobRunner(
    { store: rt.store, blobs: rt.blobs, config, log: lineLog(config.logLevel) },
    { observer: metrics },
  );
  metrics.outbox(() => outboxCounts(rt.store));
  if (rt.store.poolStats() !== null)
    metrics.pool(() => rt.store.poolStats() ?? { total: 0, idle: 0, waiting: 0 });
  const endpoints =
    config.workerMetricsPort === null
      ? null
      : await serveWorkerEndpoints(metrics, { port: config.workerMetricsPort, host: config.host });
  runner.start();
  const stale = await queueStaleSearchIndexes(rt.store, embedderFor(config.embeddings).model);
  if (stale.length > 0) console.log(`Semantic search: indexing queued for ${stale.join(', ')}.`);
  console.log(`Folio worker ${runner.workerId} is running (store: ${config.store.engine}).`);
  if (endpoints !== null)
    console.log(`Worker metrics: http://${config.host}:${endpoints.port}/metrics (and /healthz).`);
  const fromWarning = mailFromWarning(config.mail);
  if (fromWarning !== null) console.warn(`Warning: ${fromWarning}`);
  await new Promise<void>((resolveStop) => {
    process.once('SIGINT', () => resolveStop());
    process.once('SIGTERM', () => resolveStop());
  });
  await runner.stop();
  await endpoints?.close();
  metrics.close();
  closeSmtpPools();
  await rt.close();
  return 0;
}

/** `folio sweep`: the retention sweeps once (spec 3.2, 3.3), the job runner's hourly run made explicit. */
async function sweepCommand(): Promise<number> {
  const rt = await openRuntime(loadConfig());
  try {
    const n = await sweepRetention(
      rt.store,
      { blobs: rt.blobs, mailDir: rt.config.mail.outboxDir },
      new Date(),
    );
    console.log(
      `Deleted ${n.submissions} expired submissions, ${n.uploads} unused uploads, ${n.files} files and ${n.mailFiles} mail files.`,
    );
    return 0;
  } finally {
    await rt.close();
  }
}

async function importCommand(args: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: { replace: { type: 'boolean' } },
  });
  const file = positionals[0];
  if (!file || positionals.length > 1) {
    console.error('Usage: folio import <bundle.json> [--replace]');
    return 2;
  }
  let input: unknown;
  try {
    input = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    console.error(`Cannot read ${file}: ${(err as Error).message}`);
    return 1;
  }
  const rt = await openRuntime(loadConfig());
  const display = importProgress();
  const started = performance.now();
  try {
    const r = await importBundle(rt.store, rt.blobs, input, {
      baseDir: dirname(resolve(file)),
      replace: values.replace === true,
      onProgress: (p) => display.update(p),
    });
    display.stop();
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `Imported ${r.spaceId}: ${r.counts.types} types, ${r.counts.entries} entries, ${r.counts.assets} assets; cv ${r.cv} (${seconds} s).`,
    );
    return 0;
  } finally {
    display.stop();
    await rt.close();
  }
}

async function exportCommand(args: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: { secrets: { type: 'boolean' } },
  });
  const [spaceId, dir, ...extra] = positionals;
  if (!spaceId || !dir || extra.length > 0) {
    console.error('Usage: folio export <spaceId> <dir> [--secrets]');
    return 2;
  }
  const secrets = values.secrets === true;
  const rt = await openRuntime(loadConfig());
  try {
    if (!(await getSpace(rt.store, spaceId))) {
      console.error(`Space "${spaceId}" does not exist.`);
      return 1;
    }
    console.log(`Wrote ${await exportBundleToDir(rt.store, rt.blobs, spaceId, dir, { secrets })}`);
    if (!secrets)
      console.log(
        "Forms' turnstileSecret and chatWebhookUrl are left out (--secrets keeps them); submissions are not exported (folio backup).",
      );
    return 0;
  } finally {
    await rt.close();
  }
}

async function tokenCommand(args: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      space: { type: 'string' },
      kind: { type: 'string' },
      origin: { type: 'string', multiple: true },
      name: { type: 'string' },
      scope: { type: 'string', multiple: true },
      'server-side': { type: 'boolean' },
    },
  });
  const kind = values.kind as TokenKind | undefined;
  if (
    positionals[0] !== 'create' ||
    !values.space ||
    !kind ||
    !['public', 'preview', 'management'].includes(kind)
  ) {
    console.error(
      'Usage: folio token create --space <id> --kind public|preview|management [--origin <origin>]… [--name <text>] [--scope <scope>,…] [--server-side]',
    );
    return 2;
  }
  // `--scope a,b` or `--scope a --scope b`; left out, a management token has every scope.
  let scopes: Scope[] | null = null;
  if (values.scope !== undefined) {
    if (kind !== 'management') {
      console.error('--scope applies to management tokens only.');
      return 2;
    }
    const parsed = parseScopes(values.scope.join(','));
    if (!parsed.ok) {
      console.error(`--scope ${parsed.problem}.`);
      return 2;
    }
    scopes = parsed.scopes;
  }
  const origins = values.origin ?? [];
  for (const o of origins) {
    if (!isOrigin(o)) {
      console.error(
        `--origin "${o}" must be an origin like https://example.com (no path, no trailing slash).`,
      );
      return 2;
    }
  }
  const serverSide = values['server-side'] === true;
  // As on POST /tokens: only a public token kept on a server (no origins) may vouch for its visitors.
  if (serverSide && (kind !== 'public' || origins.length > 0)) {
    console.error('--server-side applies to public tokens without --origin.');
    return 2;
  }
  const store = await openStore(loadConfig().store, { reindex: REINDEX_STEPS });
  try {
    if (!(await getSpace(store, values.space))) {
      console.error(`Space "${values.space}" does not exist.`);
      return 1;
    }
    const { value } = await issueToken(store, values.space, 'cli', {
      kind,
      name: values.name ?? null,
      origins,
      scopes,
      serverSide,
    });
    // The only time the token is shown: the store keeps its hash.
    console.log(value);
    return 0;
  } finally {
    await store.close();
  }
}

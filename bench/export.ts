/**
 * `npm run bench -- export [count]`: downloads a form's submissions as CSV and NDJSON over real HTTP (exports
 * stream, so the server's memory must stay within 50 MB of idle for 100k submissions). Generates
 * `count` submissions (default 100,000) in bulk into a SQLite store and a PostgreSQL schema, starts Folio on each
 * in a child process, and prints rows/s, MB/s and the server's peak RSS during each download beside its RSS when
 * idle. The baseline is bare Fastify streaming as many rows, byte for byte the same size (the same values through
 * the same encoders), generated in memory in its own process: the difference is reading from the store.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { importBundle } from '../src/bundle/import-bundle.js';
import { openRuntime } from '../src/cli/runtime.js';
import { loadConfig } from '../src/config/config.js';
import { dropSchema } from '../test/helpers/engines.js';
import { type ServerChild, startServerChild, stopServerChild } from './lib-child.js';
import {
  EXPORT_BUNDLE,
  EXPORT_FORM,
  EXPORT_SPACE,
  EXPORT_TOKEN,
  generateSubmissions,
} from './lib-export-space.js';

const SERVER = join(import.meta.dirname, 'lib-export-server.ts');
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** The target: peak RSS during an export within this of the idle server's. */
const TARGET_MB = 50;

interface Download {
  status: number;
  bytes: number;
  lines: number;
  firstByteMs: number;
  ms: number;
}

/** Streams a response to nowhere, counting bytes and line feeds (bench rows have no line breaks inside). */
function download(url: string, headers: Record<string, string> = {}): Promise<Download> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let firstByteMs = 0;
    let bytes = 0;
    let lines = 0;
    const req = request(url, { headers }, (res) => {
      res.on('data', (chunk: Buffer) => {
        if (bytes === 0) firstByteMs = performance.now() - t0;
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, bytes, lines, firstByteMs, ms: performance.now() - t0 }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

interface Memory {
  rssMb: number;
  peakMb: number;
  heapMb: number;
  heapPeakMb: number;
}

async function memory(port: number, reset: boolean): Promise<Memory> {
  const res = await fetch(`http://127.0.0.1:${port}/__bench/memory${reset ? '?reset=1' : ''}`);
  return (await res.json()) as Memory;
}

interface Measured {
  rows: number;
  rowsPerSecond: number;
}

/** One download per format on a running server, each with its own idle → peak memory figure. */
async function run(name: string, server: ServerChild, url: (format: string) => string): Promise<Measured> {
  const headers = { authorization: `Bearer ${EXPORT_TOKEN}` };
  let rows = 0;
  let rowsPerSecond = 0;
  for (const format of ['csv', 'ndjson']) {
    const idle = await memory(server.info.port, true);
    const d = await download(url(format), headers);
    const after = await memory(server.info.port, false);
    if (d.status !== 200) throw new Error(`${name} ${format}: answered ${d.status}`);
    rows = format === 'csv' ? d.lines - 1 : d.lines; // the CSV's header row
    rowsPerSecond = rows / (d.ms / 1000);
    const over = after.peakMb - idle.rssMb;
    console.log(
      `${name.padEnd(24)} ${format.padEnd(6)} ${rows} rows  ${rowsPerSecond.toFixed(0).padStart(7)} rows/s` +
        `  ${(d.bytes / 1024 / 1024 / (d.ms / 1000)).toFixed(1).padStart(6)} MB/s  ${(d.bytes / rows).toFixed(0)} B/row` +
        `  first byte ${d.firstByteMs.toFixed(0).padStart(4)} ms  RSS idle ${String(idle.rssMb).padStart(3)} MB,` +
        ` peak ${String(after.peakMb).padStart(3)} MB (+${over} MB${over <= TARGET_MB ? '' : ', OVER TARGET'})` +
        `  JS heap ${idle.heapMb} → peak ${after.heapPeakMb} MB`,
    );
  }
  await stopServerChild(server);
  return { rows, rowsPerSecond };
}

/** Fills a store with the bench space and `count` submissions, as `folio serve` in the child will open it. */
async function fill(dataDir: string, schema: string | undefined, count: number): Promise<void> {
  mkdirSync(dataDir, { recursive: true });
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    FOLIO_DEMO: 'false',
    ...(schema === undefined ? { DATABASE_URL: '' } : { DATABASE_URL, DATABASE_SCHEMA: schema }),
  });
  const rt = await openRuntime(config);
  try {
    await importBundle(rt.store, rt.blobs, EXPORT_BUNDLE, { baseDir: dataDir });
    const t0 = performance.now();
    await generateSubmissions(rt.store, count);
    // Statistics, as autovacuum keeps them on a table that grew by submissions: a table filled seconds ago has
    // none, and PostgreSQL then plans every page as a sort of the whole remaining range.
    await sql`analyze submissions`.execute(rt.store.db);
    const s = (performance.now() - t0) / 1000;
    console.log(`generated ${count} submissions on ${config.store.engine} in ${s.toFixed(1)} s`);
  } finally {
    await rt.close();
  }
}

export default async function bench(args: string[]): Promise<void> {
  const count = Number(args[0] ?? 100_000);
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-export-'));
  const schema = `bench_export_${Date.now().toString(36)}`;
  const children: ChildProcess[] = [];
  const started = async (args: string[], env?: Record<string, string>) => {
    const c = await startServerChild(SERVER, args, env);
    children.push(c.child);
    if (c.info['peakReset'] !== true) console.log('(VmHWM cannot be reset here: peaks include start-up)');
    return c;
  };
  const folioUrl = (port: number) => (format: string) =>
    `http://127.0.0.1:${port}/v1/spaces/${EXPORT_SPACE}/forms/${EXPORT_FORM}/submissions/export?format=${format}`;
  try {
    await fill(join(dir, 'sqlite'), undefined, count);
    await fill(join(dir, 'postgres'), schema, count);
    const sqlite = await started(['folio', join(dir, 'sqlite')]);
    const onSqlite = await run('Folio on SQLite', sqlite, folioUrl(sqlite.info.port));
    const postgres = await started(['folio', join(dir, 'postgres'), schema], { DATABASE_URL });
    const onPostgres = await run('Folio on PostgreSQL', postgres, folioUrl(postgres.info.port));
    // As many rows as Folio exported (the default filter leaves the spam folder out).
    const bare = await started(['bare', String(onSqlite.rows)]);
    const baseline = await run(
      'bare Fastify (baseline)',
      bare,
      (format) => `http://127.0.0.1:${bare.info.port}/export?format=${format}`,
    );
    const pct = (m: Measured) => ((m.rowsPerSecond / baseline.rowsPerSecond) * 100).toFixed(0);
    console.log(
      `NDJSON rows/s: SQLite ${pct(onSqlite)}% and PostgreSQL ${pct(onPostgres)}% of the baseline; ` +
        `target: peak RSS within ${TARGET_MB} MB of idle (per line above)`,
    );
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    await dropSchema(schema, DATABASE_URL);
  }
}

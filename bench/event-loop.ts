/**
 * `npm run bench -- event-loop [entries] [seconds] [sqlite|postgres|both] [kinds]`: does a heavy request hold the event
 * loop? A space of `entries` published entries (default 20,000) and as many form submissions is generated, Folio
 * (response cache as shipped) starts in a child process, and a cached read (`/entries/by-path/page-1`, an L1 hit)
 * is timed back to back: first on the idle server, then for `seconds` (default 5) while four requests (three exports: the most an instance runs at once) of one heavy
 * kind run at a time: a list of 100 posts with their authors included (a new search word each, so every one
 * misses the cache), the sitemap, the tree to depth 10 (read up to its 10,000-node cap, then 400), a CSV export
 * of the submissions, a full `/sync` and a semantic search (the space's entries given random vectors, two new words
 * each time). Prints the cached read's p50, p99 and max per phase beside the idle
 * figures, and the server's CPU per heavy request from /proc (the cached reads' share taken out at the idle rate).
 * `kinds` (comma-separated words of the labels: `list,sync`) runs only those heavy kinds, to profile one. The SQLite
 * server gets the Node flags of `npm start`; `BENCH_SERVER_FLAGS=--max-semi-space-size=16` measures V8's default.
 */
import { request } from 'node:http';
import { join } from 'node:path';
import { importBundle } from '../src/bundle/import-bundle.js';
import { LocalEmbedder } from '../src/search/local-embedder.js';
import { openBenchStore } from './lib-bench-store.js';
import { npmStartCommand, type ServerChild, startServerChild, stopServerChild } from './lib-child.js';
import { generateSpace, WORDS } from './lib-entries-space.js';
import {
  EXPORT_BUNDLE,
  EXPORT_FORM,
  EXPORT_SPACE,
  EXPORT_TOKEN,
  generateSubmissions,
} from './lib-export-space.js';
import { peakRssMbOf } from './lib-peak-rss.js';
import { fillVectors } from './lib-search-vectors.js';
import { processTreeCpuMs } from './lib-proc-cpu.js';

const SERVER = join(import.meta.dirname, 'lib-event-loop-server.ts');
const SPACE = 'spc_bench';
const TOKEN = 'folio_pub_BenchEventLoopToken0000001';
const HEAVY_AT_ONCE = 4;

/** One GET; answers its status and time, the body read and dropped. */
function get(port: number, path: string, token: string): Promise<{ status: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request(
      { host: '127.0.0.1', port, path, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0 }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

interface HeavyKind {
  label: string;
  /** How many run at once, when not HEAVY_AT_ONCE (exports: an instance runs at most 3, a 4th is refused). */
  atOnce?: number;
  token: string;
  path: (i: number) => string;
}

const HEAVY: HeavyKind[] = [
  {
    label: 'list, 100 posts + authors',
    token: TOKEN,
    path: (i) =>
      `/v1/${SPACE}/entries?type=post&limit=100&include=author&search=${WORDS[i % WORDS.length] ?? 'ka'}`,
  },
  { label: 'sitemap', token: TOKEN, path: () => `/v1/${SPACE}/sitemap` },
  { label: 'tree, depth 10', token: TOKEN, path: () => `/v1/${SPACE}/tree?depth=10` },
  {
    label: 'export, CSV',
    atOnce: 3,
    token: EXPORT_TOKEN,
    path: () => `/v1/spaces/${EXPORT_SPACE}/forms/${EXPORT_FORM}/submissions/export?format=csv`,
  },
  // Another limit each time: a response-cache miss, which the span's kept difference answers.
  {
    label: 'sync, since 0',
    token: TOKEN,
    path: (i) => `/v1/${SPACE}/sync?since=0&limit=${1000 - (i % 500)}`,
  },
  // Two words each time, a new pair nearly always: the query is embedded (the model's thread), the index of every
  // entry's random vector scanned, the words ranked by the full-text list, the hits rendered.
  {
    label: 'semantic search',
    token: TOKEN,
    path: (i) =>
      `/v1/${SPACE}/search?limit=${1 + (i % 20)}&q=${WORDS[i % WORDS.length] ?? 'ka'}+${WORDS[(i * 7 + 3) % WORDS.length] ?? 'lo'}`,
  },
];
const SEARCH_KIND = 'semantic search';

/** A deterministic generator for the stand-in vectors. */
function seeded(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))] ?? NaN;
const ms = (n: number) => `${n.toFixed(1).padStart(7)} ms`;

/** Times the cached read back to back until `until()` says stop. */
async function cachedReads(port: number, until: () => boolean): Promise<number[]> {
  const times: number[] = [];
  while (!until()) {
    const r = await get(port, `/v1/${SPACE}/entries/by-path/page-1`, TOKEN);
    if (r.status !== 200) throw new Error(`cached read answered ${r.status}`);
    times.push(r.ms);
  }
  return times;
}

async function runEngine(
  engine: 'sqlite' | 'postgres',
  total: number,
  seconds: number,
  kinds: HeavyKind[],
): Promise<void> {
  const bench = await openBenchStore(engine, 'eventloop');
  let server: ServerChild | null = null;
  try {
    const t0 = performance.now();
    const searching = kinds.some((k) => k.label === SEARCH_KIND);
    await generateSpace(bench.store, bench.blobs, SPACE, TOKEN, total, { ai: searching });
    // The server's embedder is the offline model (the default); its vectors are stood in for by random ones.
    if (searching) await fillVectors(bench.store, SPACE, new LocalEmbedder(0).model, seeded(7));
    await importBundle(bench.store, bench.blobs, EXPORT_BUNDLE, { baseDir: '.' });
    await generateSubmissions(bench.store, total);
    console.log(
      `\n== ${engine}: ${total} entries and ${total} submissions (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
    );
    const env: Record<string, string> =
      engine === 'postgres' ? { DATABASE_SCHEMA: bench.schema } : { DATABASE_URL: '' };
    // SQLite is the embedded default, which `npm start` runs with a larger young generation.
    server = await startServerChild(
      SERVER,
      [bench.dataDir],
      env,
      engine === 'sqlite' ? npmStartCommand().nodeFlags : [],
    );
    const { port } = server.info;
    const pid = server.child.pid ?? 0;
    // Warm-up: the cached read enters the cache, each heavy kind runs once (first reads load what they keep).
    await get(port, `/v1/${SPACE}/entries/by-path/page-1`, TOKEN);
    for (const k of kinds) {
      const r = await get(port, k.path(0), k.token);
      if (r.status !== 200 && r.status !== 400) throw new Error(`${k.label} answered ${r.status}`);
    }

    const idleEnd = performance.now() + seconds * 1000;
    const cpuIdle0 = processTreeCpuMs(pid);
    const idle = await cachedReads(port, () => performance.now() > idleEnd);
    const cpuIdle1 = processTreeCpuMs(pid);
    const cachedCpuMs =
      cpuIdle0 === null || cpuIdle1 === null ? null : (cpuIdle1 - cpuIdle0) / Math.max(1, idle.length);
    console.log(
      `${'cached read, idle server'.padEnd(34)} p50 ${ms(quantile(idle, 0.5))}  p99 ${ms(quantile(idle, 0.99))}  max ${ms(Math.max(...idle))}  (${idle.length} reads${cachedCpuMs === null ? '' : `, ${(cachedCpuMs * 1000).toFixed(0)} µs CPU each`})`,
    );

    let n = 1;
    for (const k of kinds) {
      const end = performance.now() + seconds * 1000;
      const over = () => performance.now() > end;
      const heavyMs: number[] = [];
      // Every answer's status is counted: a heavy request answered by a refusal (a limit, a cap) costs nothing and
      // would make the figures look better than they are.
      const statuses = new Map<number, number>();
      const cpu0 = processTreeCpuMs(pid);
      const loops = Array.from({ length: k.atOnce ?? HEAVY_AT_ONCE }, async () => {
        while (!over()) {
          const r = await get(port, k.path(n++), k.token);
          heavyMs.push(r.ms);
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        }
      });
      const reads = await cachedReads(port, over);
      await Promise.all(loops);
      const cpu1 = processTreeCpuMs(pid);
      const cpuPerHeavy =
        cpu0 === null || cpu1 === null || cachedCpuMs === null
          ? null
          : (cpu1 - cpu0 - reads.length * cachedCpuMs) / Math.max(1, heavyMs.length);
      console.log(
        `${`cached read, ${k.atOnce ?? HEAVY_AT_ONCE} × ${k.label}`.padEnd(34)} p50 ${ms(quantile(reads, 0.5))}  p99 ${ms(quantile(reads, 0.99))}  max ${ms(Math.max(...reads))}  (${reads.length} reads; ${heavyMs.length} heavy, p50 ${quantile(heavyMs, 0.5).toFixed(0)} ms${cpuPerHeavy === null ? '' : `, ${cpuPerHeavy.toFixed(1)} ms CPU each`}; ${[...statuses].map(([status, count]) => `${count} × ${status}`).join(', ')})`,
      );
    }
    const peak = peakRssMbOf(pid);
    if (peak !== null) console.log(`server's peak RSS: ${peak} MB`);
  } finally {
    if (server !== null) await stopServerChild(server);
    await bench.close();
  }
}

export default async function bench(args: string[]): Promise<void> {
  const total = Number(args[0] ?? 20_000);
  const seconds = Number(args[1] ?? 5);
  const which = args[2] ?? 'sqlite';
  const words = args[3]?.split(',') ?? [];
  const kinds = HEAVY.filter((k) => words.length === 0 || words.some((w) => k.label.includes(w)));
  if (kinds.length === 0) throw new Error(`no heavy kind matches ${args[3]}`);
  if (which === 'sqlite' || which === 'both') await runEngine('sqlite', total, seconds, kinds);
  if (which === 'postgres' || which === 'both') await runEngine('postgres', total, seconds, kinds);
}

/**
 * `npm run bench -- entries [sqlite|postgres] [--entries N]`: entry lists at scale. Generates a space of
 * 100k published entries in 3 locales (plus a 10k one for the sitemap memory comparison) per engine, then
 * measures sequential requests over real HTTP against `buildApp` on 127.0.0.1, with the response cache's L1
 * sized to nothing so every request reaches the origin, beside a bare Fastify baseline serving a constant
 * body of the same size. Prints p50/p99 in ms; the PostgreSQL schema and the SQLite file are removed at the end.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import Fastify from 'fastify';
import { CompiledQuery, sql } from 'kysely';
import { buildApp } from '../src/server/app.js';
import { type Config, loadConfig } from '../src/config/config.js';
import { compileList, numberWalkSlot } from '../src/delivery/list/list-query-repo.js';
import type { ListPlan } from '../src/delivery/list/plan.js';
import { slotLayout } from '../src/delivery/list/slots.js';
import { RowsIndex } from '../src/delivery/list/rows/rows-index.js';
import type { Store } from '../src/store/open-store.js';
import { CATEGORIES, generateSpace, POST_TYPE, WORDS } from './lib-entries-space.js';
import { autocannon } from './lib-autocannon.js';
import { waitForJobs } from './lib-measure.js';
import { type ServerChild, startServerChild, stopServerChild } from './lib-child.js';
import { withCpuPerRequest } from './lib-proc-cpu.js';
import { DATABASE_URL, openBenchStore } from './lib-bench-store.js';

const TOKEN = 'folio_pub_BenchEntriesToken0000000001';
const SMALL_TOKEN = 'folio_pub_BenchEntriesToken0000000002';
const auth = { authorization: `Bearer ${TOKEN}` };
// Forced collections while sampling, so the memory figure is live data, not garbage V8 has not collected yet.
v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

interface Stats {
  p50: number;
  p99: number;
  n: number;
  gc: { n: number; maxMs: number; totalMs: number };
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

async function timeOne(url: string): Promise<{ ms: number; body: string; status: number }> {
  const t0 = performance.now();
  const res = await fetch(url, { headers: auth });
  const body = await res.text();
  return { ms: performance.now() - t0, body, status: res.status };
}

async function measure(urls: string[], warmup = 5): Promise<Stats> {
  for (const u of urls.slice(0, warmup)) await timeOne(u);
  const times: number[] = [];
  // GC pauses of this process (server and client) while measuring: what explains a p99 far above the p50.
  const pauses: number[] = [];
  const gcs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) pauses.push(e.duration);
  });
  gcs.observe({ entryTypes: ['gc'] });
  try {
    for (const u of urls) {
      const r = await timeOne(u);
      if (r.status !== 200) throw new Error(`${u} answered ${r.status}: ${r.body.slice(0, 300)}`);
      times.push(r.ms);
    }
  } finally {
    gcs.disconnect();
  }
  times.sort((a, b) => a - b);
  const gc = { n: pauses.length, maxMs: Math.max(0, ...pauses), totalMs: pauses.reduce((a, b) => a + b, 0) };
  return { p50: pct(times, 0.5), p99: pct(times, 0.99), n: times.length, gc };
}

const fmt = (s: Stats) =>
  `p50 ${s.p50.toFixed(2)} ms  p99 ${s.p99.toFixed(2)} ms  (n=${s.n}; GC ${s.gc.n} pauses, longest ` +
  `${s.gc.maxMs.toFixed(1)} ms, ${s.gc.totalMs.toFixed(0)} ms in all)`;

/** Streams a sitemap, counting bytes without keeping them. */
async function sitemapTime(url: string, token: string): Promise<{ ms: number; bytes: number }> {
  const t0 = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  let bytes = 0;
  for await (const chunk of res.body ?? []) bytes += (chunk as Uint8Array).length;
  return { ms: performance.now() - t0, bytes };
}

/** The same, sampling live heap (after a forced GC) and RSS every 25 ms: peak growth over the start. */
async function sitemapMemory(url: string, token: string): Promise<{ heapMb: number; rssMb: number }> {
  gc();
  const heap0 = process.memoryUsage().heapUsed;
  const rss0 = process.memoryUsage().rss;
  let heap = heap0;
  let rss = rss0;
  const timer = setInterval(() => {
    gc();
    const m = process.memoryUsage();
    heap = Math.max(heap, m.heapUsed);
    rss = Math.max(rss, m.rss);
  }, 25);
  await sitemapTime(url, token);
  clearInterval(timer);
  return { heapMb: (heap - heap0) / 1e6, rssMb: (rss - rss0) / 1e6 };
}

/** Prints the engine's plan of the count and the page statement of the sample list query. */
async function explain(store: Store, engine: 'sqlite' | 'postgres'): Promise<void> {
  const space = await store.db
    .selectFrom('spaces')
    .select('cv')
    .where('id', '=', 'spc_bench')
    .executeTakeFirst();
  const plan: ListPlan = {
    spaceId: 'spc_bench',
    cv: Number(space?.cv),
    locale: 'en',
    type: 'post',
    folderTypes: ['folder'],
    under: null,
    conds: [
      {
        source: { kind: 'value', key: 'category', col: 'str', many: false, locs: 'any' },
        negate: false,
        test: 'in',
        values: ['c3'],
      },
      {
        source: { kind: 'value', key: 'rating', col: 'num', many: false, locs: 'any' },
        negate: false,
        test: 'cmp',
        cmp: '>=',
        value: 3,
      },
    ],
    words: null,
    sort: [{ source: { kind: 'column', column: 'published_at', nullable: false }, desc: true }],
    limit: 20,
    after: null,
    layout: slotLayout(POST_TYPE),
  };
  const [count, page] = compileList(store, plan, false);
  const t0 = performance.now();
  const table = await new RowsIndex(store, 1024 * 1024 * 1024).load(plan, 'bench');
  console.log(
    `rows table of the post type: ${table?.size ?? 0} rows, about ${((table?.bytes ?? 0) / 1e6).toFixed(0)} MB, ` +
      `loaded in ${(performance.now() - t0).toFixed(0)} ms (chunks of 1,000 rows, in the background)`,
  );
  // The same selection by rating, best first: a dense page walks the rating's slot index (migration 0017).
  const byRating: ListPlan = {
    ...plan,
    sort: [{ source: { kind: 'value', key: 'rating', col: 'num', many: false, locs: 'any' }, desc: true }],
  };
  const [, walk] = compileList(store, byRating, false, numberWalkSlot(byRating));
  for (const [name, q] of [
    ['count', count],
    ['page', page],
    ['rating-sorted page', walk],
  ] as const) {
    if (!q) continue;
    const prefix = engine === 'sqlite' ? 'explain query plan ' : 'explain (analyze, costs off) ';
    const { rows } = await store.db.executeQuery<Record<string, unknown>>(
      CompiledQuery.raw(prefix + q.sql, [...q.parameters]),
    );
    console.log(`plan of the ${name} statement:`);
    for (const r of rows) console.log(`    ${String(r.detail ?? r['QUERY PLAN'])}`);
  }
}

async function runEngine(engine: 'sqlite' | 'postgres', total: number): Promise<void> {
  const { dataDir, schema, storeConfig, store, blobs, close } = await openBenchStore(engine, 'entries');
  try {
    let t0 = performance.now();
    await generateSpace(store, blobs, 'spc_bench', TOKEN, total);
    await generateSpace(store, blobs, 'spc_small', SMALL_TOKEN, Math.round(total / 10));
    // After a bulk load PostgreSQL's autovacuum sets the visibility map (index-only scans) and statistics, on
    // every table the load wrote, and the checkpointer writes out about a gigabyte of WAL. The bench does that
    // work itself before measuring, so none of it runs during the measurements and lands in their p99 (measured:
    // same-query p99 59 ms with the background work pending, 7 ms on the settled database). It measures the
    // steady state; an import's tail is its own cost. SQLite runs without ANALYZE, as an installation does.
    if (engine === 'postgres') {
      const { rows } = await sql<{ name: string }>`select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(store.db);
      for (const { name } of rows) await sql`vacuum analyze ${sql.table(name)}`.execute(store.db);
      await sql`checkpoint`.execute(store.db);
    } else await sql`pragma wal_checkpoint(truncate)`.execute(store.db);
    console.log(
      `\n== ${engine}: generated ${total} + ${Math.round(total / 10)} entries in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    await explain(store, engine);

    const config: Config = {
      ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PUBLIC_URL: 'http://127.0.0.1' }),
      store: storeConfig,
      rateLimitPerMinute: 100_000_000,
      cache: { l1MaxBytes: 1, ttlSeconds: 1, pinnedTtlSeconds: 1 },
    };
    const app = await buildApp({ config, store, blobs });
    const base = `${await app.listen({ host: '127.0.0.1', port: 0 })}/v1/spc_bench`;
    // The same app with the list rows index off (LIST_INDEX_MB=0): every published list is SQL, as before it.
    const sqlApp = await buildApp({ config: { ...config, listIndexMb: 0 }, store, blobs });
    const sqlBase = `${await sqlApp.listen({ host: '127.0.0.1', port: 0 })}/v1/spc_bench`;
    // The import leaves jobs for the app's worker (the search tables' merge, a content.published event). Measured
    // while they ran, PostgreSQL's p99 was 60–95 ms (its GIN merge and 70 GC pauses in this process); wait for them.
    const waited = await waitForJobs(store);
    console.log(`import jobs (search merge, events) done ${waited.toFixed(1)} s after start`);

    const list = (c: number, r: number, loc: string) =>
      `${base}/entries?type=post&filter[fields.category][eq]=c${c}&filter[fields.rating][gte]=${r}&sort=-publishedAt&include=author&limit=20&locale=${loc}`;
    const sample = await timeOne(list(3, 3, 'en'));
    const parsed = JSON.parse(sample.body) as { total: number };
    // The first list of the type started loading its rows into memory (src/delivery/list/rows/rows-index.ts); the
    // figures below are the steady state after that load (timed on its own in explain()).
    await new Promise((r) => setTimeout(r, 2000));
    const cold: string[] = [];
    for (const loc of ['en', 'de', 'fr'])
      for (let r = 1; r <= 5; r++) for (let c = 0; c < CATEGORIES; c++) cold.push(list(c, r, loc));
    // Both apps render the pages of every selection once first (under other selections, so nothing is counted
    // yet): what follows compares counting and paging, not which app read the entries first.
    for (const loc of ['en', 'de', 'fr'])
      for (let r = 1; r <= 5; r++)
        for (let c = 0; c < CATEGORIES; c++)
          for (const b of [base, sqlBase]) await timeOne(list(c, r - 0.0002, loc).replace(base, b));
    console.log(`list (issue query, total ${parsed.total} for c3/rating>=3, ${sample.body.length} bytes)`);
    console.log(`  distinct selections (total counted each time): ${fmt(await measure(cold))}`);
    // Totals are cached per store, which both apps share: the SQL-only app asks for a rating bound a hair lower
    // (ratings are whole numbers), the same matches under selections it has not seen, so it counts each one.
    const coldSql: string[] = [];
    for (const loc of ['en', 'de', 'fr'])
      for (let r = 1; r <= 5; r++)
        for (let c = 0; c < CATEGORIES; c++) coldSql.push(list(c, r - 0.0001, loc).replace(base, sqlBase));
    console.log(`  the same, LIST_INDEX_MB=0 (SQL only):          ${fmt(await measure(coldSql))}`);
    console.log(
      `  same query repeated (total cached per cv):    ${fmt(await measure(Array(200).fill(list(3, 3, 'en'))))}`,
    );

    // Deep page: walk to page 200 of one category (≈5,000 posts at 100k), or its last page in a smaller space,
    // then time that page.
    const deep = `${base}/entries?type=post&filter[fields.category][eq]=c7&sort=-publishedAt&limit=20`;
    const deepTotal = (JSON.parse((await timeOne(deep)).body) as { total: number }).total;
    const target = Math.min(200, Math.ceil(deepTotal / 20));
    let url = deep;
    t0 = performance.now();
    for (let page = 1; page < target; page++) {
      const next = (JSON.parse((await timeOne(url)).body) as { nextCursor: string | null }).nextCursor;
      if (next === null) throw new Error(`no page ${page + 1}`);
      url = `${deep}&cursor=${encodeURIComponent(next)}`;
    }
    const walked = Math.max(1, target - 1);
    console.log(
      `cursor walk pages 1-${walked}: ${((performance.now() - t0) / walked).toFixed(2)} ms per page`,
    );
    console.log(
      `  page ${target} by cursor:${' '.repeat(Math.max(1, 30 - String(target).length))}${fmt(await measure(Array(100).fill(url)))}`,
    );

    const words = WORDS.filter((_, i) => i >= 300 && i % 27 === 0).slice(0, 100);
    const counts = await Promise.all(
      words
        .slice(0, 3)
        .map(
          async (w) =>
            (JSON.parse((await timeOne(`${base}/entries?search=${w}&limit=20`)).body) as { total: number })
              .total,
        ),
    );
    console.log(
      `search (100 words, e.g. ${words
        .slice(0, 3)
        .map((w, i) => `${w}: ${counts[i]} hits`)
        .join(', ')})`,
    );
    console.log(
      `  search=<word>&limit=20:                        ${fmt(await measure(words.map((w) => `${base}/entries?search=${w}&limit=20`)))}`,
    );

    console.log(
      `tree?depth=3:                                   ${fmt(await measure(Array(100).fill(`${base}/tree?depth=3`)))}`,
    );
    const byPath = await store.db
      .selectFrom('entry_paths')
      .select('path_key')
      .where('space_id', '=', 'spc_bench')
      .where('locale', '=', 'en')
      .where('path_key', 'like', '/blog/%/post-%')
      .orderBy('entry_id')
      .limit(300)
      .execute();
    console.log(
      `by-path (300 posts):                            ${fmt(await measure(byPath.map((p) => `${base}/entries/by-path${p.path_key}`)))}`,
    );

    for (const [space, token] of [
      ['spc_small', SMALL_TOKEN],
      ['spc_bench', TOKEN],
    ] as const) {
      const url = `${base.replace('spc_bench', space)}/sitemap?locale=de`;
      const runs = [];
      for (let i = 0; i < 3; i++) runs.push(await sitemapTime(url, token));
      const best = runs.reduce((a, b) => (a.ms < b.ms ? a : b));
      const mem = await sitemapMemory(url, token);
      console.log(
        `sitemap ${space} (${(best.bytes / 1e6).toFixed(1)} MB): best of 3 ${best.ms.toFixed(0)} ms; ` +
          `peak growth while streaming: live heap ${mem.heapMb.toFixed(1)} MB, RSS ${mem.rssMb.toFixed(1)} MB`,
      );
    }

    // Baseline: bare Fastify answering a constant body of the list response's size, same client, same loop.
    const bare = Fastify();
    bare.get('/x', async (_req, reply) => reply.type('application/json').send(sample.body));
    const bareUrl = `${await bare.listen({ host: '127.0.0.1', port: 0 })}/x`;
    console.log(
      `baseline (bare Fastify, same body):             ${fmt(await measure(Array(300).fill(bareUrl)))}`,
    );
    await bare.close();
    await app.close();
    await sqlApp.close();
    await throughput(engine, dataDir, schema, sample.body, base);
  } finally {
    await close();
  }
}

/**
 * Uncached list throughput: 500 distinct filter + sort + include + locale queries, cycled by 64
 * connections (autocannon in this process) against Folio in a process of its own with the response cache's L1
 * sized to nothing, so every request is rendered; the same with the rows index off (`LIST_INDEX_MB=0`); the same
 * Folio as two processes on one port (`WORKERS=2`);
 * then bare Fastify, also in its own process, answering a list body of the same size. Two rounds each, alternating.
 */
async function throughput(
  engine: 'sqlite' | 'postgres',
  dataDir: string,
  schema: string,
  body: string,
  base: string,
): Promise<void> {
  const prefix = new URL(base).pathname;
  const paths: string[] = [];
  for (const loc of ['en', 'de', 'fr'])
    for (const sort of ['-publishedAt', 'publishedAt', 'fields.rating'])
      for (let r = 1; r <= 3; r++)
        for (let c = 0; c < CATEGORIES && paths.length < 500; c++)
          paths.push(
            `${prefix}/entries?type=post&filter[fields.category][eq]=c${c}&filter[fields.rating][gte]=${r}` +
              `&sort=${sort}&include=author&limit=20&locale=${loc}`,
          );
  const bodyFile = join(dataDir, 'list-body.json');
  writeFileSync(bodyFile, body);
  const env: Record<string, string> =
    engine === 'postgres' ? { DATABASE_URL, DATABASE_SCHEMA: schema } : { DATABASE_URL: '' };
  const server = join(import.meta.dirname, 'lib-entries-server.ts');
  const folio = await startServerChild(server, ['folio', dataDir], env);
  // WORKERS=2: the same Folio as two processes on one port (src/cluster/worker-pool.ts).
  const pool = await startServerChild(server, ['folio', dataDir, '2'], env);
  // The same one process with the rows index off (LIST_INDEX_MB=0): every list SQL, as before it.
  const sqlOnly = await startServerChild(server, ['folio', dataDir], { ...env, LIST_INDEX_MB: '0' });
  const bare = await startServerChild(server, ['bare', bodyFile]);
  try {
    const run = (server: ServerChild, seconds: number) =>
      withCpuPerRequest(server.child.pid, async () => {
        const r = await autocannon({
          url: `http://127.0.0.1:${server.info.port}`,
          connections: 64,
          duration: seconds,
          headers: auth,
          requests: paths.map((path) => ({ method: 'GET', path })),
        });
        if (r.non2xx > 0 || r.errors > 0) throw new Error(`${r.non2xx} non-2xx, ${r.errors} errors`);
        return r;
      });
    for (const s of [folio, sqlOnly, pool, bare]) await run(s, 2);
    // Requests per second, and the server's CPU per request (all its processes), which the load generator sharing
    // the two cores does not bound.
    const figure = (r: Awaited<ReturnType<typeof run>>) =>
      `${r.requests.average.toFixed(0)} req/s p99 ${r.latency.p99} ms` +
      (r.cpuUs === null ? '' : ` CPU ${r.cpuUs.toFixed(0)} µs/req`);
    for (let round = 1; round <= 2; round++) {
      const f = await run(folio, 8);
      const q = await run(sqlOnly, 8);
      const w = await run(pool, 8);
      const b = await run(bare, 8);
      console.log(
        `uncached list throughput, ${paths.length} distinct queries, 64 connections (round ${round}): ` +
          `folio ${figure(f)} | LIST_INDEX_MB=0 ${figure(q)} | WORKERS=2 ${figure(w)} | bare Fastify ${figure(b)} ` +
          `(target ≥ 4,500 req/s)`,
      );
    }
  } finally {
    await stopServerChild(folio);
    await stopServerChild(sqlOnly);
    await stopServerChild(pool);
    await stopServerChild(bare);
  }
}

export default async function entriesBench(args: string[]): Promise<void> {
  const n = args.indexOf('--entries');
  const total = n >= 0 ? Number(args[n + 1]) : 100_000;
  const engines = args.filter((a) => a === 'sqlite' || a === 'postgres');
  for (const engine of engines.length > 0 ? engines : (['sqlite', 'postgres'] as const))
    await runEngine(engine, total);
}

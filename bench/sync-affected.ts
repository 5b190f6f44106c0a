/**
 * `npm run bench -- sync-affected [posts] [sqlite|postgres|both]`: what `/sync`'s `affected` costs the server on
 * a space where 1,500 posts (the demo bundle plus copies) each link and reference one post, measured from /proc
 * on a `folio serve` process of its own, beside the CPU of a `/sitemap` of the same space in the same run:
 *
 * (a) an uncached `/sync` after a content-only edit of the post every copy links (a number changed);
 * (b) an uncached `/sync` after a rename of it (every copy's `included.links` changed), then the same span again
 *     with another `limit` (a response-cache miss that the span's kept difference answers);
 * (c) the latency of a cached by-path read while three uncached syncs run.
 *
 * Each figure is an average over several distinct spans (each edit or rename is a publish of its own), since the
 * kernel counts CPU in 10 ms ticks. Goals: (a) ≤ 50 ms, (b) ≤ 300 ms the first time, (c) ≤ 100 ms.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { importBundle } from '../src/bundle/import-bundle.js';
import { freePort } from '../test/helpers/processes.js';
import { DATABASE_URL, openBenchStore } from './lib-bench-store.js';
import { processTreeCpuMs } from './lib-proc-cpu.js';

const PUBLIC = 'folio_pub_BenchSyncAffected0000000001';
const MANAGEMENT = 'folio_mgt_BenchSyncAffected000000002';
const SPACE = 'spc_demo';
const TARGET = 'ent_hello_world';

interface Answer {
  status: number;
  body: string;
  ms: number;
}

function call(port: number, method: string, path: string, token: string, body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: {
          authorization: `Bearer ${token}`,
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString(),
            ms: performance.now() - t0,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The demo bundle plus `posts` copies of a post, each linking (rich text) and referencing (`related`) TARGET. */
function bundleWith(posts: number): Record<string, unknown> {
  const dir = new URL('../examples/demo/', import.meta.url);
  const bundle = JSON.parse(readFileSync(new URL('bundle.json', dir), 'utf8')) as {
    entries: { id: string; type: string; fields: Record<string, unknown> }[];
    tokens?: unknown;
  };
  const template = bundle.entries.find((e) => e.id === 'ent_content_modeling');
  if (!template) throw new Error('the demo bundle has no ent_content_modeling');
  const link = (text: string) => ({
    type: 'doc',
    content: [
      {
        type: 'paragraph',
        content: [{ type: 'text', text, marks: [{ type: 'link', attrs: { kind: 'entry', entry: TARGET } }] }],
      },
    ],
  });
  for (let i = 0; i < posts; i++) {
    const n = String(i).padStart(5, '0');
    bundle.entries.push({
      ...template,
      id: `ent_copy_${n}`,
      slug: `copy-${n}`,
      slugs: {},
      name: `Copy ${n}`,
      fields: { ...template.fields, body: { en: link(`Read ${n}`) }, related: [TARGET], rating: i % 5 },
    } as (typeof bundle.entries)[number]);
  }
  bundle.tokens = [
    { kind: 'public', value: PUBLIC },
    { kind: 'management', value: MANAGEMENT },
  ];
  return bundle as unknown as Record<string, unknown>;
}

async function runEngine(engine: 'sqlite' | 'postgres', posts: number): Promise<void> {
  const bench = await openBenchStore(engine, 'sync_affected');
  const { dataDir, schema } = bench;
  let child: ReturnType<typeof spawn> | undefined;
  try {
    const t0 = performance.now();
    await importBundle(bench.store, bench.blobs, bundleWith(posts), {
      baseDir: new URL('../examples/demo/', import.meta.url).pathname,
    });
    const port = await freePort();
    child = spawn(process.execPath, [join(import.meta.dirname, '..', 'bin', 'folio.js'), 'serve'], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        FOLIO_DEMO: 'false',
        FOLIO_WORKER: 'off',
        RATE_LIMIT_DELIVERY_PER_MINUTE: '100000000',
        ...(engine === 'postgres' ? { DATABASE_URL, DATABASE_SCHEMA: schema } : { DATABASE_URL: '' }),
      },
    });
    const pid = child.pid ?? 0;
    for (let i = 0; ; i++) {
      const up = await call(port, 'GET', `/v1/${SPACE}/status`, PUBLIC).catch(() => null);
      if (up?.status === 200) break;
      if (i > 600) throw new Error('folio serve did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    const get = (path: string) => call(port, 'GET', `/v1/${SPACE}${path}`, PUBLIC);
    const api = async (method: string, path: string, body?: unknown) => {
      const r = await call(port, method, `/v1/spaces/${SPACE}${path}`, MANAGEMENT, body);
      if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.body.slice(0, 200)}`);
      return JSON.parse(r.body) as { cv: number };
    };
    const cvNow = async () => (JSON.parse((await get('/status')).body) as { cv: number }).cv;
    /** Server CPU (ms) per request of a batch run one after another. */
    const cpuPer = async (paths: readonly string[]): Promise<{ ms: number; bytes: number }> => {
      const before = processTreeCpuMs(pid) ?? 0;
      let bytes = 0;
      for (const p of paths) {
        const r = await get(p);
        if (r.status !== 200) throw new Error(`${p}: ${r.status} ${r.body.slice(0, 300)}`);
        bytes += r.body.length;
      }
      return { ms: ((processTreeCpuMs(pid) ?? 0) - before) / paths.length, bytes: bytes / paths.length };
    };
    console.log(
      `\n== ${engine}: demo + ${posts} posts linking and referencing ${TARGET} (${((performance.now() - t0) / 1000).toFixed(1)} s to build)`,
    );

    // Baseline: an uncached /sitemap (pinned at distinct cvs, so the response cache never answers).
    const fields = async () =>
      (
        JSON.parse((await call(port, 'GET', `/v1/spaces/${SPACE}/entries/${TARGET}`, MANAGEMENT)).body) as {
          entry: { fields: Record<string, unknown> };
        }
      ).entry.fields;
    const spans: number[] = [];
    for (let i = 0; i < 12; i++) {
      await api('PATCH', `/entries/${TARGET}`, { fields: { ...(await fields()), rating: 10 + i } });
      spans.push((await api('POST', `/entries/${TARGET}/publish`)).cv);
    }
    const sitemap = await cpuPer(spans.map((cv) => `/sitemap?cv=${cv}`));
    console.log(
      `${'baseline: /sitemap, uncached'.padEnd(52)} ${sitemap.ms.toFixed(1)} ms CPU, ${(sitemap.bytes / 1024).toFixed(0)} KB`,
    );

    // (a) a content-only edit of the post every copy links and references.
    const a = await cpuPer(spans.map((cv) => `/sync?since=${cv - 1}&cv=${cv}&limit=701`));
    console.log(
      `${'(a) /sync after a content-only edit (goal ≤ 50 ms)'.padEnd(52)} ${a.ms.toFixed(1)} ms CPU, ${a.bytes.toFixed(0)} B`,
    );
    const aInclude = await cpuPer(
      spans.slice(0, 4).map((cv) => `/sync?since=${cv - 1}&cv=${cv}&limit=701&include=related`),
    );
    console.log(
      `${'    the same with include=related (copies include it)'.padEnd(52)} ${aInclude.ms.toFixed(1)} ms CPU, ${(aInclude.bytes / 1024).toFixed(0)} KB`,
    );

    // (b) renames of the page every copy links.
    const renames: number[] = [];
    for (let i = 0; i < 5; i++)
      renames.push((await api('POST', `/entries/${TARGET}/rename`, { slug: `hello-${i}` })).cv);
    const b = await cpuPer(renames.map((cv) => `/sync?since=${cv - 1}&cv=${cv}&limit=701`));
    console.log(
      `${'(b) /sync after a rename, first (goal ≤ 300 ms)'.padEnd(52)} ${b.ms.toFixed(1)} ms CPU, ${(b.bytes / 1024).toFixed(0)} KB`,
    );
    const bAgain = await cpuPer(renames.map((cv) => `/sync?since=${cv - 1}&cv=${cv}&limit=702`));
    console.log(`${'    the same span again, another limit'.padEnd(52)} ${bAgain.ms.toFixed(1)} ms CPU`);

    // (c) a cached read while three uncached syncs run (each asks for a span and include not computed yet).
    const page = '/entries/by-path/about?locale=en';
    await get(page);
    const last = renames.at(-1) ?? (await cvNow());
    const heavy = ['related', 'author', 'author,related'].map((inc) =>
      get(`/sync?since=${renames[0] ?? 1}&cv=${last}&limit=703&include=${inc}`),
    );
    let done = false;
    void Promise.all(heavy).then(() => (done = true));
    const latencies: number[] = [];
    while (!done || latencies.length < 20) {
      latencies.push((await get(page)).ms);
      if (latencies.length > 5000) break;
    }
    latencies.sort((x, y) => x - y);
    const p99 = latencies[Math.floor(0.99 * (latencies.length - 1))] ?? NaN;
    console.log(
      `${'(c) cached by-path read during 3 uncached syncs (≤ 100)'.padEnd(52)} max ${(latencies.at(-1) ?? NaN).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms over ${latencies.length} reads`,
    );
  } finally {
    child?.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    await bench.close();
  }
}

export default async function run(args: string[]): Promise<void> {
  const posts = Number(args[0] ?? 1500);
  const which = args[1] ?? 'both';
  if (which !== 'postgres') await runEngine('sqlite', posts);
  if (which !== 'sqlite') await runEngine('postgres', posts);
}

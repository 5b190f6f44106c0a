/**
 * `npm run bench -- cache [sqlite|postgres] [seconds] [rounds]`: Folio's cached reads (L1 hits:
 * auth, rate limit, cache lookup on every request) against bare Fastify, with Folio's Fastify options, answering
 * the same bytes and headers (the baseline, measured in the same run), for the real mix of hits. Folio runs twice,
 * on the same store: with its fast hits (answered before Fastify, src/server/fast-hit.ts) and with
 * FOLIO_FAST_HITS=0 (every hit through Fastify's routing and the delivery pipeline):
 *
 * - a by-path page of the demo space (a small body),
 * - a list with two filters, a sort, an include and a locale over a generated space (about 27 KB, and a long
 *   query string to canonicalise),
 * - the demo space's `/globals`.
 *
 * autocannon with 64 connections runs in this process; each server runs in a child process of it, so all share
 * the machine with the load generator alike. The three servers take turns, round by round. Prints req/s, p99 and
 * CPU per request of each per round and, per URL, the median ratios to bare Fastify with their spread. Both engines by default (a hit reads no store,
 * but the engine's pool and listener run in the process).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBase62 } from '../src/lib/ids.js';
import { dropSchema } from '../test/helpers/engines.js';
import type { RecordedResponse } from './lib-cache-server.js';
import { type AutocannonResult, autocannon } from './lib-autocannon.js';
import { withCpuPerRequest } from './lib-proc-cpu.js';
import { benchServerArgv } from './lib-child.js';

const SERVER = join(import.meta.dirname, 'lib-cache-server.ts');
const CONNECTIONS = 64;
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface FolioInfo {
  port: number;
  spaceId: string;
  token: string;
  listSpace: string;
  listToken: string;
}

function start(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ child: ChildProcess; info: unknown }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, benchServerArgv(SERVER, args), {
      // stdin: a pipe the server watches, so it ends with this process however that ends (lib-serve.ts).
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, ...env },
    });
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      // The first line with a port: a log line (JSON too, at LOG_LEVEL warn) may come before it.
      for (const line of out.split('\n').slice(0, -1)) {
        const info: unknown = JSON.parse(line);
        if (typeof info === 'object' && info !== null && 'port' in info) return resolve({ child, info });
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** A round against one server, with the CPU it spent per request (null where /proc is not there). */
function measure(url: string, headers: Record<string, string>, seconds: number, server: ChildProcess) {
  return withCpuPerRequest(server.pid, async () => {
    const r = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
    if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    return r;
  });
}

const sorted = (xs: number[]) => [...xs].sort((x, y) => x - y);
const median = (xs: number[]): number => sorted(xs)[Math.floor(xs.length / 2)] ?? NaN;

/** Fetches a URL twice and records the second answer (an L1 hit) for the baseline to send verbatim. */
async function record(url: string, headers: Record<string, string>): Promise<RecordedResponse> {
  await fetch(url, { headers });
  const res = await fetch(url, { headers });
  if (res.status !== 200 || res.headers.get('x-svc-cache') !== 'HIT-L1')
    throw new Error(`${url}: expected a 200 L1 hit, got ${res.status} ${res.headers.get('x-svc-cache')}`);
  return {
    path: new URL(url).pathname,
    headers: Object.fromEntries(
      [...res.headers].filter(([k]) => !['content-length', 'date', 'connection', 'keep-alive'].includes(k)),
    ),
    body: Buffer.from(await res.arrayBuffer()).toString('base64'),
  };
}

async function engineRun(engine: 'sqlite' | 'postgres', seconds: number, rounds: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-cache-'));
  const schema = `bench_cache_${randomBase62(8).toLowerCase()}`;
  const env = engine === 'postgres' ? { DATABASE_URL, DATABASE_SCHEMA: schema } : { DATABASE_URL: '' };
  const children: ChildProcess[] = [];
  try {
    const folio = await start(['folio', join(dir, 'data')], { ...env, FOLIO_FAST_HITS: '1' });
    children.push(folio.child);
    const info = folio.info as FolioInfo;
    // The same store, already set up by the first: only the switch differs.
    const slow = await start(['folio', join(dir, 'data')], { ...env, FOLIO_FAST_HITS: '0' });
    children.push(slow.child);
    const slowPort = (slow.info as { port: number }).port;
    const base = `http://127.0.0.1:${info.port}/v1`;
    const demo = { authorization: `Bearer ${info.token}` };
    const list = { authorization: `Bearer ${info.listToken}` };
    const cases = [
      { name: 'by-path', url: `${base}/${info.spaceId}/entries/by-path/about`, headers: demo },
      {
        name: 'list',
        url:
          `${base}/${info.listSpace}/entries?type=post&filter[fields.category][eq]=c3&filter[fields.rating][gte]=2` +
          `&sort=-publishedAt&include=author&limit=20&locale=de`,
        headers: list,
      },
      { name: 'globals', url: `${base}/${info.spaceId}/globals`, headers: demo },
    ];
    const recorded: RecordedResponse[] = [];
    for (const c of cases) recorded.push(await record(c.url, c.headers));
    const file = join(dir, 'responses.json');
    writeFileSync(file, JSON.stringify(recorded));
    const bare = await start(['bare', file]);
    children.push(bare.child);
    const barePort = (bare.info as { port: number }).port;
    console.log(
      `\n== ${engine}: ${CONNECTIONS} connections, ${rounds} rounds of ${seconds} s per URL and server`,
    );
    const line = (name: string, r: AutocannonResult & { cpuUs: number | null }) =>
      `${name} ${r.requests.average.toFixed(0).padStart(6)} req/s p99 ${String(r.latency.p99).padStart(3)} ms` +
      (r.cpuUs === null ? '' : ` CPU ${r.cpuUs.toFixed(1)} µs/req`);
    const spread = (xs: number[]) => {
      const s = sorted(xs);
      return `${median(xs).toFixed(2)} (${s[0]!.toFixed(2)}–${s.at(-1)!.toFixed(2)})`;
    };
    for (const [i, c] of cases.entries()) {
      const slowUrl = c.url.replace(`:${info.port}/`, `:${slowPort}/`);
      const bareUrl = c.url.replace(`:${info.port}/`, `:${barePort}/`);
      const bytes = Buffer.from(recorded[i]!.body, 'base64').length;
      console.log(`${c.name}: ${bytes} bytes, GET ${new URL(c.url).pathname}${new URL(c.url).search}`);
      // Warm up all three (JIT, caches; the second Folio stores its own entry) before measuring.
      await measure(c.url, c.headers, 2, folio.child);
      await measure(slowUrl, c.headers, 2, slow.child);
      await measure(bareUrl, c.headers, 2, bare.child);
      const ratio = { fast: [] as number[], slow: [] as number[] };
      // CPU per request over bare's: what a hit costs beyond serving the bytes, which the load generator sharing
      // the cores does not blur as it does requests per second.
      const cpu = { fast: [] as number[], slow: [] as number[] };
      const p99 = { fast: [] as number[], slow: [] as number[], bare: [] as number[] };
      for (let r = 1; r <= rounds; r++) {
        const f = await measure(c.url, c.headers, seconds, folio.child);
        const s = await measure(slowUrl, c.headers, seconds, slow.child);
        const b = await measure(bareUrl, c.headers, seconds, bare.child);
        ratio.fast.push(f.requests.average / b.requests.average);
        ratio.slow.push(s.requests.average / b.requests.average);
        if (f.cpuUs !== null && s.cpuUs !== null && b.cpuUs !== null) {
          cpu.fast.push(f.cpuUs / b.cpuUs);
          cpu.slow.push(s.cpuUs / b.cpuUs);
        }
        p99.fast.push(f.latency.p99);
        p99.slow.push(s.latency.p99);
        p99.bare.push(b.latency.p99);
        console.log(`  round ${r}: ${line('folio fast', f)} | ${line('folio off', s)} | ${line('bare', b)}`);
      }
      console.log(
        `  ${engine} ${c.name} (median of ${rounds}, spread): req/s over bare: fast ${spread(ratio.fast)}, ` +
          `off ${spread(ratio.slow)}; p99 fast ${median(p99.fast)} ms, off ${median(p99.slow)} ms, bare ` +
          `${median(p99.bare)} ms` +
          (cpu.fast.length === 0
            ? ''
            : `; CPU per request over bare: fast ${spread(cpu.fast)}, off ${spread(cpu.slow)} (target ≤ 1.2)`),
      );
    }
  } finally {
    for (const c of children) await stop(c);
    rmSync(dir, { recursive: true, force: true });
    if (engine === 'postgres') await dropSchema(schema, DATABASE_URL);
  }
}

export default async function bench(args: string[]): Promise<void> {
  const first = args[0];
  const only = first === 'sqlite' || first === 'postgres' ? first : null;
  const engines: ('sqlite' | 'postgres')[] = only === null ? ['sqlite', 'postgres'] : [only];
  const rest = only === null ? args : args.slice(1);
  const seconds = Number(rest[0] ?? 5);
  const rounds = Number(rest[1] ?? 3);
  for (const engine of engines) await engineRun(engine, seconds, rounds);
}

/**
 * `npm run bench -- cache [sqlite|postgres] [seconds] [rounds]`: Folio's cached reads (L1 hits:
 * auth, rate limit, cache lookup on every request) against bare Fastify, with Folio's Fastify options, answering
 * the same bytes and headers (the baseline, measured in the same run), for the real mix of hits:
 *
 * - a by-path page of the demo space (a small body),
 * - a list with two filters, a sort, an include and a locale over a generated space (about 27 KB, and a long
 *   query string to canonicalise),
 * - the demo space's `/globals`.
 *
 * autocannon with 64 connections runs in this process; each server runs in a child process of it, so both share
 * the machine with the load generator alike. The two servers take turns, round by round. Prints req/s and p99 of
 * both per round and, per URL, the median ratio with its spread. Both engines by default (a hit reads no store,
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
import { benchServerFlags } from './lib-child.js';

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
    const child = spawn(process.execPath, [...benchServerFlags(), '--import', 'tsx', SERVER, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...env },
    });
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve({ child, info: JSON.parse(line) });
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
    const folio = await start(['folio', join(dir, 'data')], env);
    children.push(folio.child);
    const info = folio.info as FolioInfo;
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
    for (const [i, c] of cases.entries()) {
      const bareUrl = c.url.replace(`:${info.port}/`, `:${barePort}/`);
      const bytes = Buffer.from(recorded[i]!.body, 'base64').length;
      console.log(`${c.name}: ${bytes} bytes, GET ${new URL(c.url).pathname}${new URL(c.url).search}`);
      // Warm up both (JIT, caches) before measuring.
      await measure(c.url, c.headers, 2, folio.child);
      await measure(bareUrl, c.headers, 2, bare.child);
      const ratios: number[] = [];
      // CPU per request, Folio's over bare's: what a hit costs beyond serving the bytes, which the load generator
      // sharing the cores does not blur as it does requests per second.
      const cpuRatios: number[] = [];
      const p99: { folio: number[]; bare: number[] } = { folio: [], bare: [] };
      for (let r = 1; r <= rounds; r++) {
        const f = await measure(c.url, c.headers, seconds, folio.child);
        const b = await measure(bareUrl, c.headers, seconds, bare.child);
        ratios.push(f.requests.average / b.requests.average);
        if (f.cpuUs !== null && b.cpuUs !== null) cpuRatios.push(f.cpuUs / b.cpuUs);
        p99.folio.push(f.latency.p99);
        p99.bare.push(b.latency.p99);
        console.log(
          `  round ${r}: ${line('folio', f)} | ${line('bare', b)} | ratio ${ratios.at(-1)!.toFixed(3)}`,
        );
      }
      const s = sorted(ratios);
      console.log(
        `  ${engine} ${c.name}: ratio folio / bare ${median(ratios).toFixed(3)} (median of ${rounds}; ` +
          `spread ${s[0]!.toFixed(3)}–${s.at(-1)!.toFixed(3)}), p99 ${median(p99.folio)} ms vs bare ` +
          `${median(p99.bare)} ms (target ≥ 0.95, p99 no worse)` +
          (cpuRatios.length === 0 ? '' : `; CPU per request folio / bare ${median(cpuRatios).toFixed(2)}`),
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

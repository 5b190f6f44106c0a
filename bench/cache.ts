/**
 * `npm run bench -- cache [seconds] [rounds]`: Folio's cached by-path read (L1 hits: auth, rate limit, cache
 * lookup on every request) against bare Fastify with Folio's Fastify options answering the same bytes and
 * headers (the baseline, measured in the same run). autocannon with 64 connections runs in this process; each
 * server runs in a child process of it (one process tree), so both share the machine with the load generator
 * alike. Prints req/s and p99 latency of both per round and the median ratio (issue 5 target: ≥ 0.9).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedResponse } from './lib-cache-server.js';
import { type AutocannonResult, autocannon } from './lib-autocannon.js';

const SERVER = join(import.meta.dirname, 'lib-cache-server.ts');
const CONNECTIONS = 64;

function start(args: string[]): Promise<{ child: ChildProcess; info: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SERVER, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve({ child, info: JSON.parse(line) as Record<string, unknown> });
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

async function measure(url: string, headers: Record<string, string>, seconds: number) {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return r;
}

const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] ?? NaN;

/**
 * `[seconds] [rounds]`: both servers run side by side and take turns under load, `rounds` times each (3 by
 * default), so a noisy neighbour on the machine hits both alike; the ratio reported is the median of the rounds'.
 */
export default async function bench(args: string[]): Promise<void> {
  const seconds = Number(args[0] ?? 10);
  const rounds = Number(args[1] ?? 3);
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-cache-'));
  const children: ChildProcess[] = [];
  try {
    const folio = await start(['folio', join(dir, 'data')]);
    children.push(folio.child);
    const { port, spaceId, token } = folio.info as { port: number; spaceId: string; token: string };
    const path = `/v1/${spaceId}/entries/by-path/about`;
    const url = `http://127.0.0.1:${port}${path}`;
    const headers = { authorization: `Bearer ${token}` };
    // Record Folio's answer (a hit from the second request on) for the baseline to send verbatim.
    await fetch(url, { headers });
    const res = await fetch(url, { headers });
    if (res.headers.get('x-svc-cache') !== 'HIT-L1') throw new Error('expected an L1 hit');
    const recorded: RecordedResponse = {
      path,
      headers: Object.fromEntries(
        [...res.headers].filter(([k]) => !['content-length', 'date', 'connection', 'keep-alive'].includes(k)),
      ),
      body: Buffer.from(await res.arrayBuffer()).toString('base64'),
    };
    writeFileSync(join(dir, 'response.json'), JSON.stringify(recorded));
    const bare = await start(['bare', join(dir, 'response.json')]);
    children.push(bare.child);
    const bareUrl = `http://127.0.0.1:${String(bare.info.port)}${path}`;
    console.log(
      `GET ${path}: ${Buffer.from(recorded.body, 'base64').length} bytes, ${CONNECTIONS} connections, ` +
        `${rounds} rounds of ${seconds} s each`,
    );
    // Warm up both (JIT, caches) before measuring.
    await measure(url, headers, 2);
    await measure(bareUrl, headers, 2);
    const ratios: number[] = [];
    const line = (name: string, r: AutocannonResult) =>
      `${name} ${r.requests.average.toFixed(0).padStart(7)} req/s p99 ${String(r.latency.p99).padStart(3)} ms`;
    for (let i = 1; i <= rounds; i++) {
      const f = await measure(url, headers, seconds);
      const b = await measure(bareUrl, headers, seconds);
      const ratio = f.requests.average / b.requests.average;
      ratios.push(ratio);
      console.log(
        `round ${i}: ${line('folio (cached by-path)', f)} | ${line('bare fastify', b)} | ratio ${ratio.toFixed(3)}`,
      );
    }
    console.log(`ratio folio / bare (median of ${rounds}): ${median(ratios).toFixed(3)} (target ≥ 0.9)`);
  } finally {
    for (const c of children) await stop(c);
    rmSync(dir, { recursive: true, force: true });
  }
}

import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Store } from '../src/store/open-store.js';

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** One GET over a kept-alive socket; resolves with the status after the whole body arrived. */
export function get(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

export interface Latency {
  n: number;
  p50: number;
  p99: number;
  mean: number;
}

/** Sequential requests (one in flight): latency as a client sees it, in milliseconds. */
export async function measure(urls: string[], headers: Record<string, string> = {}): Promise<Latency> {
  const times: number[] = [];
  for (const url of urls) {
    const t0 = performance.now();
    const status = await get(url, headers);
    times.push(performance.now() - t0);
    if (status !== 200) throw new Error(`${url} answered ${status}`);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  return {
    n: times.length,
    p50: at(0.5),
    p99: at(0.99),
    mean: times.reduce((a, b) => a + b, 0) / times.length,
  };
}

export const fmt = (l: Latency): string =>
  `p50 ${l.p50.toFixed(2)} ms  p99 ${l.p99.toFixed(2)} ms  mean ${l.mean.toFixed(2)} ms  (n=${l.n})`;

/**
 * Waits until the store's outbox has no pending job: an import leaves jobs for the app's worker (the search
 * tables' merge, events), and measured while they ran PostgreSQL's list p99 was 60–95 ms. Answers the seconds waited.
 */
export async function waitForJobs(store: Store, limitMs = 300_000): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    const pending = await store.db
      .selectFrom('outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(pending?.n ?? 0) === 0) return (performance.now() - t0) / 1000;
    if (performance.now() - t0 > limitMs) throw new Error('the import jobs did not finish in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

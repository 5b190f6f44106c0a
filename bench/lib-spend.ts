/**
 * What the benches of what one client can make the server spend (`image-variants`, `slow-body`, `search-queue`, `origin-share`) share:
 * one HTTP request with its status, time and body (optionally from another loopback address, so the server sees
 * another visitor), quantiles, and the bytes under a directory.
 */
import { readdirSync, statSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

export interface Fetched {
  status: number;
  ms: number;
  body: Buffer;
  headers: Record<string, string>;
}

/** Sockets without a limit: the benches send hundreds of requests at once, as an attacker would. */
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });

/** One GET; `localAddress` (`127.0.0.2`, …) makes the request come from another visitor on loopback. */
export function fetchOnce(
  url: string,
  headers: Record<string, string> = {},
  localAddress?: string,
): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request(
      url,
      { headers, agent, ...(localAddress === undefined ? {} : { localAddress }) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const flat: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') flat[k] = v;
          resolve({
            status: res.statusCode ?? 0,
            ms: performance.now() - t0,
            body: Buffer.concat(chunks),
            headers: flat,
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

export const quantile = (xs: readonly number[], q: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? NaN;

/** How many responses had each status, as `{ "200": n, "429": m }`. */
export function statusCounts(results: readonly { status: number }[]): string {
  const counts = new Map<number, number>();
  for (const r of results) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  return JSON.stringify(Object.fromEntries([...counts].sort((a, b) => a[0] - b[0])));
}

/** The bytes of every file under `dir` (0 when it does not exist). */
export function dirBytes(dir: string): number {
  let total = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    const path = join(dir, name);
    const s = statSync(path);
    total += s.isDirectory() ? dirBytes(path) : s.size;
  }
  return total;
}

export const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(2)} MB`;

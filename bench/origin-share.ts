/**
 * `npm run bench -- origin-share`: what one client can spend of a published browser token.
 * Folio in a process of its own (SQLite, memory counters, the default 1,200 requests per minute per token), a
 * public token restricted to `https://site.example`. A script with no `Origin` header (curl, a bot) sends cached
 * reads with it, 16 at a time, until it gets a 429 or has sent 1,500; then a second visitor (another loopback
 * address, with the site's `Origin`) asks once. Prints how many the first got answered 200, in how long, and
 * what the second got. Then the same against a token without origins (server-side rendering: one address), whose
 * budget stays the token's alone.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerChild, stopServerChild, type ServerChild } from './lib-child.js';
import { fetchOnce, statusCounts, type Fetched } from './lib-spend.js';

const SERVER = join(import.meta.dirname, 'lib-spend-server.ts');
const SPACE = 'spc_bench_origin_share';
const SITE = 'https://site.example';
const BROWSER = 'folio_pub_BenchOriginShareBrowser00001';
const SERVER_SIDE = 'folio_pub_BenchOriginShareServer000001';
const MAX = 1500;

const BUNDLE = {
  format: 'folio-bundle@1',
  space: { id: SPACE, name: 'Origin share', locales: [{ code: 'en', default: true }] },
  tokens: [
    { kind: 'public', value: BROWSER, origins: [SITE] },
    { kind: 'public', value: SERVER_SIDE },
  ],
  types: [{ key: 'page', kind: 'page', fields: [{ key: 'title', type: 'text' }] }],
  entries: [
    {
      id: 'ent_home',
      type: 'page',
      name: 'Home',
      slug: '',
      parent: null,
      position: 0,
      tags: [],
      published: { at: '2026-01-01T00:00:00.000Z', firstAt: '2026-01-01T00:00:00.000Z' },
      fields: { title: 'Home' },
    },
  ],
};

/** Requests 16 at a time from 127.0.0.1 until a 429 or `MAX`: the answers. */
async function spend(url: string, headers: Record<string, string>): Promise<Fetched[]> {
  const out: Fetched[] = [];
  let limited = false;
  while (!limited && out.length < MAX) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(16, MAX - out.length) }, () => fetchOnce(url, headers, '127.0.0.1')),
    );
    out.push(...batch);
    limited = batch.some((r) => r.status === 429);
  }
  return out;
}

async function round(base: string, token: string, label: string): Promise<void> {
  const url = `${base}/entries/by-path/`;
  const t0 = performance.now();
  const first = await spend(url, { authorization: `Bearer ${token}` });
  const ms = performance.now() - t0;
  const ok = first.filter((r) => r.status === 200).length;
  const limited = first.find((r) => r.status === 429);
  console.log(
    `${label}: a client without Origin got ${ok} × 200 in ${(ms / 1000).toFixed(1)} s (${first.length} sent, ${statusCounts(first)})${
      limited ? `; its 429 said RateLimit-Limit ${limited.headers['ratelimit-limit']}` : ''
    }`,
  );
  const second = await fetchOnce(url, { authorization: `Bearer ${token}`, origin: SITE }, '127.0.0.2');
  console.log(
    `${' '.repeat(label.length)}  then a second visitor with Origin ${SITE}: ${second.status}, RateLimit-Remaining ${second.headers['ratelimit-remaining']} of ${second.headers['ratelimit-limit']}`,
  );
}

export default async function bench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-origin-share-'));
  let server: ServerChild | null = null;
  try {
    mkdirSync(join(dir, 'bundle'));
    writeFileSync(join(dir, 'bundle', 'bundle.json'), JSON.stringify(BUNDLE));
    server = await startServerChild(SERVER, [join(dir, 'data'), join(dir, 'bundle')]);
    const base = `http://127.0.0.1:${server.info.port}/v1/${SPACE}`;
    await round(base, BROWSER, 'token with origins   ');
    await round(base, SERVER_SIDE, 'token without origins');
  } finally {
    if (server) await stopServerChild(server).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

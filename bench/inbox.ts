/**
 * `npm run bench -- inbox [count] [rounds]`: what opening the inbox page costs on a form with `count` (100,000)
 * submissions spread over the last 30 days (the worst case for the overview's per-day counts: every row is in the
 * window). On SQLite and PostgreSQL, the app in this process on loopback, requests one at a time, p50 and p95 of
 * `rounds` (30) calls each:
 *   - the overview the page opens on (`GET /forms-overview`, 30 days; and 90, the charts' window),
 *   - the session read the page starts with (`GET /inbox/session`, with the cookie),
 *   - beside them the call the overview is measured against: the plain inbox list (`GET …/submissions`, 50 rows).
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { importBundle } from '../src/bundle/import-bundle.js';
import { loadConfig } from '../src/config/config.js';
import { newId } from '../src/lib/ids.js';
import { buildApp } from '../src/server/app.js';
import type { Store } from '../src/store/open-store.js';
import { openBenchStore } from './lib-bench-store.js';
import { benchValues, EXPORT_BUNDLE, EXPORT_FORM, EXPORT_SPACE, EXPORT_TOKEN } from './lib-export-space.js';
import { get } from './lib-measure.js';

const DAY = 86_400_000;

/**
 * `count` submissions over the 30 days before `now`, 2% spam, a quarter done, 500 per INSERT, each its own
 * transaction (PostgreSQL counts inserts at commit, per row: one transaction of 100k rows would update each counter
 * row 100k times in it).
 */
async function seed(store: Store, count: number, now: number): Promise<void> {
  const step = (30 * DAY - 60_000) / count;
  const tx = store.db;
  {
    for (let from = 0; from < count; from += 500) {
      const rows = [];
      for (let i = from; i < Math.min(count, from + 500); i++)
        rows.push({
          id: newId('sub'),
          space_id: EXPORT_SPACE,
          form_key: EXPORT_FORM,
          folder: i % 50 === 0 ? ('spam' as const) : ('inbox' as const),
          values: JSON.stringify(benchValues(i)),
          page: '/contact',
          locale: 'en',
          user_agent: 'Mozilla/5.0 (bench)',
          consent: '{}',
          unique_key: null,
          created_at: new Date(now - 30 * DAY + 60_000 + i * step).toISOString(),
          delete_after: '2099-01-01T00:00:00.000Z',
          status: i % 4 === 0 ? ('done' as const) : ('new' as const),
          assignee: null,
        });
      await tx.insertInto('submissions').values(rows).execute();
    }
  }
}

async function timed(url: string, headers: Record<string, string>, rounds: number): Promise<string> {
  const times: number[] = [];
  for (let i = 0; i < rounds + 3; i++) {
    const t0 = performance.now();
    const status = await get(url, headers);
    if (status !== 200) throw new Error(`${url} answered ${status}`);
    if (i >= 3) times.push(performance.now() - t0); // the first three warm the JIT and the caches
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  return `p50 ${at(0.5).toFixed(1).padStart(6)} ms   p95 ${at(0.95).toFixed(1).padStart(6)} ms`;
}

export default async function bench(args: string[]): Promise<void> {
  const count = Number(args[0] ?? 100_000);
  const rounds = Number(args[1] ?? 30);
  console.log(`${count} submissions of one form over 30 days; ${rounds} sequential calls each`);
  for (const engine of ['sqlite', 'postgres'] as const) {
    const bs = await openBenchStore(engine, 'inbox');
    try {
      await importBundle(bs.store, bs.blobs, EXPORT_BUNDLE, { baseDir: bs.dataDir });
      const now = Date.now();
      const t0 = performance.now();
      await seed(bs.store, count, now);
      // What autovacuum does soon after a bulk load: without statistics PostgreSQL sorted the whole folder for the
      // list's first page (280 ms) instead of reading the index in order (0.2 ms).
      if (engine === 'postgres') await sql`analyze submissions`.execute(bs.store.db);
      console.log(`\n${engine}: seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      const config = loadConfig({ DATA_DIR: bs.dataDir, LOG_LEVEL: 'silent', FOLIO_WORKER: 'off' });
      const app = await buildApp({
        config: { ...config, store: bs.storeConfig },
        store: bs.store,
        blobs: bs.blobs,
      });
      const base = await app.listen({ port: 0, host: '127.0.0.1' });
      try {
        const signIn = await app.inject({
          method: 'POST',
          url: '/inbox/session',
          payload: { token: EXPORT_TOKEN },
        });
        const cookie = String(signIn.headers['set-cookie']).split(';')[0] ?? '';
        const bearer = { authorization: `Bearer ${EXPORT_TOKEN}` };
        const m = `${base}/v1/spaces/${EXPORT_SPACE}`;
        const rows: [string, string, Record<string, string>][] = [
          ['GET /forms-overview (30 days)', `${m}/forms-overview`, { cookie }],
          ['GET /forms-overview?days=90', `${m}/forms-overview?days=90`, { cookie }],
          ['GET /inbox/session', `${base}/inbox/session`, { cookie }],
          ['GET …/submissions (list, 50)', `${m}/forms/${EXPORT_FORM}/submissions`, bearer],
          ['GET …/submissions?status=new', `${m}/forms/${EXPORT_FORM}/submissions?status=new`, bearer],
        ];
        for (const [name, url, headers] of rows)
          console.log(`${engine.padEnd(9)}${name.padEnd(34)}${await timed(url, headers, rounds)}`);
      } finally {
        await app.close();
      }
    } finally {
      await bs.close();
    }
  }
}

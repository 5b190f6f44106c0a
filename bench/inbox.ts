/**
 * `npm run bench -- inbox [count] [rounds] [sqlite|postgres]`: what the inbox costs on a form with `count` (100,000) submissions spread
 * over the last 30 days. On SQLite and PostgreSQL, the app in this process on loopback, requests one at a time, p50
 * and p95 of `rounds` (30) calls each, and the process's CPU per request (server and client share the process):
 *   - the baseline: the plain inbox list (`GET …/submissions`, 50 rows, its total from the counters),
 *   - the overview the page opens on (unread counts for the person signed in included) and the session read,
 *   - first pages of filtered lists with their total (an option, an option with a status, oldest
 *     first, a date range, a person's assignments, folded searches of sparse and dense words, two answers, a text
 *     answer); a search's or several answers' total stops counting at 1,000 (`totalExact: false`),
 *   - an XLSX export of every row and of a tenth of them, with the process's RSS and heap growth while it streams:
 *     memory stays flat when the two grow alike; beside them the CSV export of every row.
 * The machine is shared with other work: compare figures within one run.
 */
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { type Insertable, sql } from 'kysely';
import type { SubmissionOptionsTable, SubmissionsTable } from '../src/store/forms-schema.js';
import { importBundle } from '../src/bundle/import-bundle.js';
import { loadConfig } from '../src/config/config.js';
import { chosenOptions } from '../src/forms/submission/chosen-options.js';
import { newId } from '../src/lib/ids.js';
import { searchTextOf } from '../src/lib/search-fold.js';
import { buildApp } from '../src/server/app.js';
import type { Store } from '../src/store/open-store.js';
import { openBenchStore } from './lib-bench-store.js';
import { benchValues, EXPORT_BUNDLE, EXPORT_FORM, EXPORT_SPACE, EXPORT_TOKEN } from './lib-export-space.js';
import { get } from './lib-measure.js';

const DAY = 86_400_000;
const FIELDS = EXPORT_BUNDLE.forms[0]?.fields ?? [];
/** The person the bench assigns every 20th submission to (a management token id). */
const PERSON = 'tok_benchperson0000000001';

/**
 * `count` submissions over the 30 days before `now`, 2% spam, a quarter done, every 20th assigned, with their
 * folded search copy and chosen options as submit writes them; 500 per INSERT, each its own transaction
 * (PostgreSQL counts inserts at commit, per row: one transaction of 100k rows would update each counter row 100k
 * times in it).
 */
async function seed(store: Store, count: number, now: number): Promise<void> {
  const step = (30 * DAY - 60_000) / count;
  await store.db
    .insertInto('tokens')
    .values({
      id: PERSON,
      space_id: EXPORT_SPACE,
      kind: 'management',
      hash: 'bench-person-hash',
      hint: 'folio_mgt_bench',
      name: null,
      origins: '[]',
      created_at: new Date(now).toISOString(),
      scopes: '["forms.read"]',
      person_name: 'Grace Hopper',
      person_email: null,
    })
    .execute();
  for (let from = 0; from < count; from += 500) {
    const rows: Insertable<SubmissionsTable>[] = [];
    const options: Insertable<SubmissionOptionsTable>[] = [];
    for (let i = from; i < Math.min(count, from + 500); i++) {
      const values = benchValues(i);
      const id = newId('sub');
      const folder = i % 50 === 0 ? ('spam' as const) : ('inbox' as const);
      const status = i % 4 === 0 ? ('done' as const) : ('new' as const);
      const createdAt = new Date(now - 30 * DAY + 60_000 + i * step).toISOString();
      rows.push({
        id,
        space_id: EXPORT_SPACE,
        form_key: EXPORT_FORM,
        folder,
        values: JSON.stringify(values),
        page: '/contact',
        locale: 'en',
        user_agent: 'Mozilla/5.0 (bench)',
        consent: '{}',
        unique_key: null,
        created_at: createdAt,
        delete_after: '2099-01-01T00:00:00.000Z',
        status,
        assignee: null,
        assignee_id: i % 20 === 0 ? PERSON : null,
        search_text: searchTextOf(values),
      });
      for (const o of chosenOptions(FIELDS, values))
        options.push({
          submission_id: id,
          space_id: EXPORT_SPACE,
          form_key: EXPORT_FORM,
          field_key: o.fieldKey,
          value: o.value,
          folder,
          status,
          created_at: createdAt,
        });
    }
    await store.db.transaction().execute(async (tx) => {
      await tx.insertInto('submissions').values(rows).execute();
      await tx.insertInto('submission_options').values(options).execute();
    });
  }
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

async function timed(url: string, headers: Record<string, string>, rounds: number): Promise<string> {
  const times: number[] = [];
  let cpu = 0;
  for (let i = 0; i < rounds + 3; i++) {
    const c0 = cpuMs();
    const t0 = performance.now();
    const status = await get(url, headers);
    if (status !== 200) throw new Error(`${url} answered ${status}`);
    // The first three warm the JIT and the caches.
    if (i >= 3) {
      times.push(performance.now() - t0);
      cpu += cpuMs() - c0;
    }
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  return `p50 ${at(0.5).toFixed(1).padStart(6)} ms   p95 ${at(0.95).toFixed(1).padStart(6)} ms   cpu/req ${(cpu / rounds).toFixed(1).padStart(5)} ms${await totalOf(url, headers)}`;
}

/** A list's `total` as the inbox shows it ("10000+" when counting stopped), after the timed calls. */
async function totalOf(url: string, headers: Record<string, string>): Promise<string> {
  if (!url.includes('/submissions')) return '';
  const body: unknown = await (await fetch(url, { headers })).json();
  if (typeof body !== 'object' || body === null || !('total' in body)) return '';
  const exact = 'totalExact' in body ? body.totalExact !== false : true;
  return `   total ${String(body.total).padStart(6)}${exact ? '' : '+'}`;
}

/** A full garbage collection, without starting Node with --expose-gc. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  const gc: unknown = runInNewContext('gc');
  if (typeof gc === 'function') gc();
}

/** Downloads to nowhere, sampling this process's RSS and heap: their growth over what they were before. */
function download(url: string, headers: Record<string, string>): Promise<string> {
  collectGarbage();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  let peakBuffers = before.arrayBuffers;
  // What the process holds, measured after a full collection twice a second: the peaks above include garbage V8 had
  // not collected yet; this is the memory a download really keeps while it runs (flat, or growing with the file).
  let peakHeld = 0;
  const held = setInterval(() => {
    collectGarbage();
    const m = process.memoryUsage();
    peakHeld = Math.max(peakHeld, m.heapUsed + m.external - (before.heapUsed + before.external));
  }, 500);
  const sample = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
    // Buffers' peak, uncollected garbage included.
    peakBuffers = Math.max(peakBuffers, m.arrayBuffers);
  }, 20);
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    let bytes = 0;
    const req = request(url, { headers }, (res) => {
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => {
        clearInterval(sample);
        clearInterval(held);
        if (res.statusCode !== 200) return reject(new Error(`${url} answered ${res.statusCode}`));
        const mb = (n: number) => (n / 1024 / 1024).toFixed(1).padStart(6);
        const seconds = ((performance.now() - t0) / 1000).toFixed(1).padStart(5);
        resolve(
          `${seconds} s  ${mb(bytes)} MB   RSS +${mb(peakRss - before.rss)} MB   heap +${mb(peakHeap - before.heapUsed)} MB   buffers +${mb(peakBuffers - before.arrayBuffers)} MB   held +${mb(peakHeld)} MB`,
        );
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export default async function bench(args: string[]): Promise<void> {
  const count = Number(args[0] ?? 100_000);
  const rounds = Number(args[1] ?? 30);
  const only = (['sqlite', 'postgres'] as const).find((e) => e === args[2]);
  const engines = only === undefined ? (['sqlite', 'postgres'] as const) : [only];
  console.log(
    `${count} submissions of one form over 30 days; ${rounds} sequential calls each (shared machine)`,
  );
  for (const engine of engines) {
    const bs = await openBenchStore(engine, 'inbox');
    try {
      await importBundle(bs.store, bs.blobs, EXPORT_BUNDLE, { baseDir: bs.dataDir });
      const now = Date.now();
      const t0 = performance.now();
      await seed(bs.store, count, now);
      // What autovacuum does soon after a bulk load: without statistics PostgreSQL sorted the whole folder for the
      // list's first page (280 ms) instead of reading the index in order (0.2 ms); the visibility map lets counts
      // read indexes only.
      if (engine === 'postgres') await sql`vacuum analyze`.execute(bs.store.db);
      // What the job runner's hourly sweep does on SQLite (the planner's statistics).
      await bs.store.dialect.refreshStatistics(bs.store.db);
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
        const list = `${m}/forms/${EXPORT_FORM}/submissions`;
        const week = new Date(now - 7 * DAY).toISOString();
        const rows: [string, string, Record<string, string>][] = [
          ['baseline: …/submissions (50, total)', list, bearer],
          ['GET /forms-overview (30 days)', `${m}/forms-overview`, { cookie }],
          ['GET /forms-overview?days=90', `${m}/forms-overview?days=90`, { cookie }],
          ['GET /inbox/session', `${base}/inbox/session`, { cookie }],
          ['?status=new', `${list}?status=new`, bearer],
          ['?field[topic]=press', `${list}?field[topic]=press`, bearer],
          ['?field[topic]=press&status=new', `${list}?field[topic]=press&status=new`, bearer],
          ['?field[tags]=api&sort=createdAt', `${list}?field[tags]=api&sort=createdAt`, bearer],
          ['?field[topic]=sales&from=<7 days>', `${list}?field[topic]=sales&from=${week}`, bearer],
          ['?from=<7 days>', `${list}?from=${week}`, bearer],
          [`?assignee=<person>`, `${list}?assignee=${PERSON}`, bearer],
          ['?q=person 4242 (folded search)', `${list}?q=person%204242`, bearer],
          ['?q=PERSON4242@EXAMPLE (an address)', `${list}?q=PERSON4242@EXAMPLE`, bearer],
          ['?q=Müller (no submission holds it)', `${list}?q=M%C3%BCller`, bearer],
          // A word of nearly every message: the page is quick, its total counts every row that holds it.
          ['?q=BERNOULLI (in ~every row)', `${list}?q=BERNOULLI`, bearer],
          // Counted row by row up to 1,000: a word of a seventh of the rows (past it), a name prefix (~1,100, under).
          ['?q=quoted (a seventh of the rows)', `${list}?q=quoted`, bearer],
          ['?q=Person 42 (~1,100 rows)', `${list}?q=Person%2042`, bearer],
          // Two answers together (both dense: their index ranges merged), a text answer (the search index, then the value).
          ['?field[topic]=press&field[tags]=api', `${list}?field[topic]=press&field[tags]=api`, bearer],
          ['?field[name]=Person 4242 (text)', `${list}?field[name]=Person%204242`, bearer],
        ];
        for (const [name, url, headers] of rows)
          console.log(`${engine.padEnd(9)}${name.padEnd(38)}${await timed(url, headers, rounds)}`);
        const tenth = new Date(now - 3 * DAY).toISOString();
        const exports: [string, string][] = [
          ['CSV, every row (baseline)', `${list}/export?format=csv`],
          [`XLSX, the last tenth of the rows`, `${list}/export?format=xlsx&from=${tenth}`],
          ['XLSX, every row', `${list}/export?format=xlsx`],
        ];
        for (const [name, url] of exports)
          console.log(`${engine.padEnd(9)}${name.padEnd(38)}${await download(url, bearer)}`);
      } finally {
        await app.close();
      }
    } finally {
      await bs.close();
    }
  }
}

// Requests whose work grows with the space give the event loop back while they run: on a space of a few thousand
// pages and submissions, the sitemap, a deep tree level and an export enter the time slicer once per batch they
// read (counted, not timed: the slicer itself decides from the clock whether a tick yields). And `/metrics`
// reports the event loop's delay, which is what an operator watches for a request that holds it.
import Database from 'better-sqlite3';
import { CompiledQuery } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateSpace } from '../bench/lib-entries-space.js';
import {
  EXPORT_BUNDLE,
  EXPORT_FORM,
  EXPORT_SPACE,
  EXPORT_TOKEN,
  generateSubmissions,
} from '../bench/lib-export-space.js';
import { importBundle } from '../src/bundle/import-bundle.js';
import { TimeSlicer } from '../src/lib/time-slice.js';
import { loadSpanChanges } from '../src/sync/span-changes.js';
import { versionsAtQuery } from '../src/sync/sync-repo.js';
import { serveEnv, type TestApp } from './helpers/app.js';
import { ENGINES, openTestEnv } from './helpers/engines.js';

const SPACE = 'spc_slices';
const TOKEN = 'folio_pub_SlicesTestToken00000000001';
/** Entries of the space; the base bundle's pages and folders aside, the rest are posts under /blog/<y>/<m>. */
const ENTRIES = 3000;
const SUBMISSIONS = 1600;

/** What every better-sqlite3 statement inherits: spied on to see the statements a request runs. */
const statementProto = (() => {
  const probe = new Database(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('select 1')) as Database.Statement;
  probe.close();
  return proto;
})();

/** A statement a request ran on SQLite: its text, parameters and the rows it returned. */
interface Ran {
  statement: Database.Statement;
  params: unknown[];
  rows: number;
}

/** The published log's tables, which `/sync` reads. */
const LOG = /\b(entry_versions|doc_versions)\b/;

describe.each(ENGINES)('no request holds the event loop on %s', (engine) => {
  let t: TestApp;
  let pages = 0;
  beforeAll(async () => {
    const env = await openTestEnv(engine);
    const { posts } = await generateSpace(env.store, env.blobs, SPACE, TOKEN, ENTRIES);
    pages = posts.length;
    await importBundle(env.store, env.blobs, EXPORT_BUNDLE, { baseDir: '.' });
    await generateSubmissions(env.store, SUBMISSIONS);
    // The response cache would answer a repeated request without the work this file counts.
    t = await serveEnv(env, { cache: { l1MaxBytes: 1, ttlSeconds: 1, pinnedTtlSeconds: 1 } });
  }, 120_000);
  afterAll(async () => t.close());
  afterEach(() => vi.restoreAllMocks());

  const ticksDuring = async (url: string, token: string) => {
    const tick = vi.spyOn(TimeSlicer.prototype, 'tick');
    const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    const calls = tick.mock.calls.length;
    tick.mockRestore();
    return { res, calls };
  };

  it('the sitemap enters the slicer between batches of 500 rows', async () => {
    const { res, calls } = await ticksDuring(`/v1/${SPACE}/sitemap`, TOKEN);
    expect(res.statusCode).toBe(200);
    const items = (res.json() as { items: unknown[] }).items;
    // Some posts are noindex: most of the space still makes several batches.
    expect(items.length).toBeGreaterThan(2000);
    expect(calls).toBeGreaterThanOrEqual(Math.floor(items.length / 500));
  });

  it('a list of 100 posts with their authors enters the slicer once per entry it renders', async () => {
    const { res, calls } = await ticksDuring(
      `/v1/${SPACE}/entries?type=post&limit=100&include=author&locale=de`,
      TOKEN,
    );
    expect(res.statusCode).toBe(200);
    const body = res.json() as { items: unknown[]; included: { entries: unknown[] } };
    expect(body.items).toHaveLength(100);
    expect(body.included.entries.length).toBeGreaterThan(0);
    // Each root twice (collected, rendered), each included entry once, and once after the list's own statement.
    expect(calls).toBeGreaterThanOrEqual(2 * body.items.length + body.included.entries.length + 1);
  });

  it('a tree level of thousands of posts is read in pages with the slicer between', async () => {
    const { res, calls } = await ticksDuring(`/v1/${SPACE}/tree?under=/blog&depth=3`, TOKEN);
    expect(res.statusCode).toBe(200);
    type Node = { id: string; position: number; children: Node[] };
    const body = res.json() as { items: Node[] };
    const months = body.items.flatMap((y) => y.children);
    const leaves = months.flatMap((m) => m.children);
    // Every post once, across the pages' joins (a page ends inside one month's posts and the next goes on).
    expect(leaves).toHaveLength(pages);
    expect(new Set(leaves.map((l) => l.id)).size).toBe(pages);
    for (const m of months) {
      const order = m.children.map((c) => [c.position, c.id] as const);
      const sorted = [...order].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
      expect(order).toEqual(sorted);
    }
    // One tick per statement: a statement per level at least, and on SQLite (whose reads block the loop) the
    // posts' level in pages of 1,000.
    expect(calls).toBeGreaterThanOrEqual(3 + (engine === 'sqlite' ? Math.floor(pages / 1000) : 0));
  });

  it.runIf(engine === 'sqlite')(
    "a tree level's later pages start where the last one ended, not at an offset SQLite reads its way to",
    async () => {
      const { result, log } = await logReadsDuring(
        () => ticksDuring(`/v1/${SPACE}/tree?under=/blog&depth=3`, TOKEN),
        /\bfrom list_entries e\b/,
      );
      expect(result.res.statusCode).toBe(200);
      const full = log.filter((r) => r.rows === 1000);
      expect(full.length).toBeGreaterThanOrEqual(2);
      const plans = log.map((r) =>
        (
          r.statement.database.prepare(`explain query plan ${r.statement.source}`).all(...r.params) as {
            detail: string;
          }[]
        )
          .map((p) => p.detail)
          .join('\n'),
      );
      expect(log.some((r) => /\boffset\b/i.test(r.statement.source))).toBe(false);
      // A page that ended inside a month's posts: the next starts from an index range in that month.
      expect(
        plans.some((p) =>
          /list_entries_parent \(space_id=\? AND parent_id=\? AND \(position,entry_id\)>/.test(p),
        ),
      ).toBe(true);
    },
  );

  it.each(['csv', 'xlsx'])(
    'a %s export enters the slicer before each row it encodes, and on SQLite before each page it reads',
    async (format) => {
      const url = `/v1/spaces/${EXPORT_SPACE}/forms/${EXPORT_FORM}/submissions/export?format=${format}`;
      const { res, calls } = await ticksDuring(url, EXPORT_TOKEN);
      expect(res.statusCode).toBe(200);
      // The rows exported (the inbox's, not the spam folder's): one NDJSON line each.
      const ndjson = await t.app.inject({
        method: 'GET',
        url: url.replace(`format=${format}`, 'format=ndjson'),
        headers: { authorization: `Bearer ${EXPORT_TOKEN}` },
      });
      const rows = ndjson.body.split('\n').filter((l) => l !== '').length;
      expect(rows).toBeGreaterThan(SUBMISSIONS / 2);
      expect(calls).toBeGreaterThanOrEqual(rows + (engine === 'sqlite' ? Math.floor(rows / 500) : 0));
    },
  );

  /** The statements on the published log (or other `tables`) that `run` ran (SQLite), and its result. */
  const logReadsDuring = async <T>(run: () => Promise<T>, tables = LOG) => {
    const ran: Ran[] = [];
    const original = statementProto.all;
    // A wrapper rather than vi.spyOn, which keeps no `this` per call in a form this reads easily.
    statementProto.all = function (this: Database.Statement, ...params: unknown[]) {
      const rows = original.apply(this, params) as unknown[];
      ran.push({ statement: this, params, rows: rows.length });
      return rows;
    };
    try {
      const result = await run();
      return { result, log: ran.filter((r) => tables.test(r.statement.source)) };
    } finally {
      statementProto.all = original;
    }
  };

  it.runIf(engine === 'sqlite')(
    'a /sync page of thousands of entries reads the log in key order through an index, never by sorting it',
    async () => {
      const {
        result: { res, calls },
        log,
      } = await logReadsDuring(() => ticksDuring(`/v1/${SPACE}/sync?since=0&limit=1000`, TOKEN));
      expect(res.statusCode).toBe(200);
      expect((res.json() as { changed: unknown[] }).changed.length).toBeGreaterThanOrEqual(1000);
      // The walk's reads of keys in order (sync-repo.ts touchedKeys), 100 a statement, the slicer entered after each.
      const ordered = log.filter((r) => /\bas k\b.*\border by\b/is.test(r.statement.source));
      expect(ordered.length).toBeGreaterThanOrEqual(10);
      expect(calls).toBeGreaterThanOrEqual(10);
      for (const r of ordered) {
        const plan = r.statement.database
          .prepare(`explain query plan ${r.statement.source}`)
          .all(...r.params) as { detail: string }[];
        // A temporary B-tree is every matching row read and sorted before the first is handed out.
        expect(plan.map((p) => p.detail).join('\n')).not.toMatch(/TEMP B-TREE/);
      }
    },
  );

  it.runIf(engine === 'sqlite')(
    'the changes of a span of thousands of entries are listed from the log in batches, the slicer between',
    async () => {
      // The base bundle is published first, the posts after it: the span since its cv holds every post. Computed
      // here rather than through a request, which may find it already under way (a publish warms its span).
      const to = (await t.get(`/v1/${SPACE}/sync?since=0&limit=1`, { authorization: `Bearer ${TOKEN}` })).body
        .toCv as number;
      const tick = vi.spyOn(TimeSlicer.prototype, 'tick');
      const { result: changes, log } = await logReadsDuring(() =>
        loadSpanChanges(t.store, SPACE, { from: to - 1, to }, new TimeSlicer()),
      );
      expect(changes.tooMany).toBe(false);
      expect(changes.entries.size).toBeGreaterThanOrEqual(pages);
      expect(Math.max(...log.map((r) => r.rows))).toBeLessThanOrEqual(1000);
      expect(tick.mock.calls.length).toBeGreaterThanOrEqual(Math.floor(pages / 1000));
    },
  );

  it.runIf(engine === 'sqlite')(
    "a span of few changes reads the log's cv indexes, not every key of the space",
    async () => {
      const to = (await t.get(`/v1/${SPACE}/sync?since=0&limit=1`, { authorization: `Bearer ${TOKEN}` })).body
        .toCv as number;
      // The span of the last publish but one: nothing changed in it, as in a site's poll between publishes.
      const { result: changes, log } = await logReadsDuring(() =>
        loadSpanChanges(t.store, SPACE, { from: to - 1, to: to - 1 }, new TimeSlicer()),
      );
      expect(changes.entries.size).toBe(0);
      const entryReads = log.filter((r) => /\bfrom entry_versions\b/.test(r.statement.source));
      expect(entryReads.length).toBeGreaterThanOrEqual(2);
      for (const r of entryReads) {
        const plan = r.statement.database
          .prepare(`explain query plan ${r.statement.source}`)
          .all(...r.params) as { detail: string }[];
        expect(plan.map((p) => p.detail).join('\n')).toMatch(/USING INDEX entry_versions_cv_(from|to) /);
      }
    },
  );

  it("a span's versions are looked up by key, never through the log's cv indexes", async () => {
    const keys = Array.from({ length: 250 }, (_, i) => `ent_p${String(i + 100).padStart(6, '0')}`);
    const compiled = versionsAtQuery(SPACE, { table: 'entry_versions', key: 'entry_id' }, keys, 10).compile(
      t.store.db,
    );
    const { rows } = await t.store.db.executeQuery<Record<string, unknown>>(
      CompiledQuery.raw(`${engine === 'sqlite' ? 'explain query plan' : 'explain'} ${compiled.sql}`, [
        ...compiled.parameters,
      ]),
    );
    const plan = rows.map((r) => String(r.detail ?? r['QUERY PLAN'])).join('\n');
    expect(plan).toMatch(/entry_versions/);
    // Without statistics PostgreSQL read every version of the space through this index and tested it against the keys.
    expect(plan).not.toMatch(/entry_versions_cv_(from|to)/);
  });

  it('/metrics reports how late the event loop ran: median, p99, max and mean over a rolling window', async () => {
    // Hold the loop for 100 ms, as a request that never yields would.
    const until = performance.now() + 100;
    while (performance.now() < until);
    await new Promise((resolve) => setTimeout(resolve, 30));
    // Scraped twice: the window does not restart at a scrape, so both see the stretch.
    for (let i = 0; i < 2; i++) {
      const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      const value = (series: string) => {
        const line = text.split('\n').find((l) => l.startsWith(`${series} `));
        return Number(line?.slice(series.length + 1));
      };
      for (const q of ['0.5', '0.99'])
        expect(value(`folio_event_loop_delay_seconds{quantile="${q}"}`)).toBeGreaterThanOrEqual(0);
      expect(value('folio_event_loop_delay_seconds{quantile="1"}')).toBeGreaterThanOrEqual(0.05);
      expect(value('folio_event_loop_delay_mean_seconds')).toBeGreaterThan(0);
    }
  });
});

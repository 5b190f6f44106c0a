// Requests whose work grows with the space give the event loop back while they run: on a space of a few thousand
// pages and submissions, the sitemap, a deep tree level and an export enter the time slicer once per batch they
// read (counted, not timed: the slicer itself decides from the clock whether a tick yields). And `/metrics`
// reports the event loop's delay, which is what an operator watches for a request that holds it.
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
import { serveEnv, type TestApp } from './helpers/app.js';
import { ENGINES, openTestEnv } from './helpers/engines.js';

const SPACE = 'spc_slices';
const TOKEN = 'folio_pub_SlicesTestToken00000000001';
/** Entries of the space; the base bundle's pages and folders aside, the rest are posts under /blog/<y>/<m>. */
const ENTRIES = 3000;
const SUBMISSIONS = 1600;

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

  it('a tree level of thousands of posts is read in pages with the slicer between', async () => {
    const { res, calls } = await ticksDuring(`/v1/${SPACE}/tree?under=/blog&depth=3`, TOKEN);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { items: { children: { children: unknown[] }[] }[] };
    const leaves = body.items.flatMap((y) => y.children.flatMap((m) => m.children)).length;
    expect(leaves).toBe(pages);
    // One tick per statement: a statement per level at least, and on SQLite (whose reads block the loop) the
    // posts' level in pages of 1,000.
    expect(calls).toBeGreaterThanOrEqual(3 + (engine === 'sqlite' ? Math.floor(pages / 1000) : 0));
  });

  it.runIf(engine === 'sqlite')(
    'a CSV export of SQLite rows enters the slicer once per page of 500',
    async () => {
      const url = `/v1/spaces/${EXPORT_SPACE}/forms/${EXPORT_FORM}/submissions/export?format=csv`;
      const { res, calls } = await ticksDuring(url, EXPORT_TOKEN);
      expect(res.statusCode).toBe(200);
      expect(calls).toBeGreaterThanOrEqual(Math.floor(SUBMISSIONS / 500));
    },
  );

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

/**
 * `npm run bench -- search-queue`: 75 concurrent distinct `GET /search` queries from one token
 * against Folio in a process of its own (SQLite, the offline model on its worker thread), once the space's 40
 * entries are indexed. Every query is new, so none is answered from the response cache or the query-vector
 * cache: each needs the model. Prints the p50 and p90 of all answers, of the 200s, and the share of 503s (with
 * their `Retry-After`). Two rounds.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startServerChild, stopServerChild, type ServerChild } from './lib-child.js';
import { fetchOnce, quantile, statusCounts } from './lib-spend.js';

const SERVER = join(import.meta.dirname, 'lib-spend-server.ts');
const SPACE = 'spc_bench_search_queue';
const TOKEN = 'folio_pub_BenchSearchQueueToken000001';
const CONCURRENT = 75;

const TOPICS = ['garden', 'river', 'mountain', 'kitchen', 'library', 'harbour', 'forest', 'market'];
const THINGS = ['lanterns', 'bridges', 'recipes', 'maps', 'boats', 'songs', 'trains', 'letters'];

function bundle(): Record<string, unknown> {
  const published = { at: '2026-03-01T10:00:00.000Z', firstAt: '2026-01-01T10:00:00.000Z' };
  return {
    format: 'folio-bundle@1',
    space: { id: SPACE, name: 'Search queue', ai: true, locales: [{ code: 'en', default: true }] },
    tokens: [{ kind: 'public', value: TOKEN }],
    types: [
      {
        key: 'post',
        kind: 'collection',
        pages: true,
        fields: [
          { key: 'title', type: 'text' },
          { key: 'body', type: 'textarea' },
        ],
      },
    ],
    entries: Array.from({ length: 40 }, (_, i) => {
      const topic = TOPICS[i % TOPICS.length] ?? 'garden';
      const thing = THINGS[Math.floor(i / TOPICS.length) % THINGS.length] ?? 'maps';
      return {
        id: `ent_q${i}`,
        type: 'post',
        name: `Post ${i}`,
        slug: `post-${i}`,
        parent: null,
        position: i,
        tags: [],
        published,
        fields: {
          title: `Of ${thing} near the ${topic}`,
          body: `A walk to the ${topic} where people keep ${thing}, told in ${i + 3} short paragraphs about the ${topic} and its ${thing}.`,
        },
      };
    }),
  };
}

export default async function bench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-search-queue-'));
  let server: ServerChild | null = null;
  try {
    mkdirSync(join(dir, 'bundle'));
    writeFileSync(join(dir, 'bundle', 'bundle.json'), JSON.stringify(bundle()));
    server = await startServerChild(SERVER, [join(dir, 'data'), join(dir, 'bundle')]);
    const base = `http://127.0.0.1:${server.info.port}/v1/${SPACE}`;
    const auth = { authorization: `Bearer ${TOKEN}` };
    const t0 = performance.now();
    for (;;) {
      const status = await fetchOnce(`${base}/status`, auth);
      const body = JSON.parse(status.body.toString()) as { search?: { complete?: boolean } };
      if (body.search?.complete === true) break;
      if (performance.now() - t0 > 120_000) throw new Error('the index was not complete after 2 minutes');
      await sleep(250);
    }
    console.log(`40 entries indexed in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    let n = 0;
    for (let round = 1; round <= 2; round++) {
      const queries = Array.from({ length: CONCURRENT }, () => {
        const i = n++;
        return `${TOPICS[i % TOPICS.length]} ${THINGS[(i >> 3) % THINGS.length]} number ${i}`;
      });
      const started = performance.now();
      const results = await Promise.all(
        queries.map((q) => fetchOnce(`${base}/search?q=${encodeURIComponent(q)}`, auth)),
      );
      const all = results.map((r) => r.ms);
      const ok = results.filter((r) => r.status === 200).map((r) => r.ms);
      const unavailable = results.filter((r) => r.status === 503);
      const retry = [...new Set(unavailable.map((r) => r.headers['retry-after'] ?? 'none'))].join(', ');
      console.log(
        `round ${round}: ${CONCURRENT} concurrent distinct queries in ${((performance.now() - started) / 1000).toFixed(1)} s, statuses ${statusCounts(results)}`,
      );
      console.log(
        `         all p50 ${(quantile(all, 0.5) / 1000).toFixed(2)} s, p90 ${(quantile(all, 0.9) / 1000).toFixed(2)} s; 200s p50 ${
          ok.length > 0 ? (quantile(ok, 0.5) / 1000).toFixed(2) : '–'
        } s; 503: ${((unavailable.length / CONCURRENT) * 100).toFixed(0)} %${unavailable.length > 0 ? ` (Retry-After ${retry})` : ''}`,
      );
    }
  } finally {
    if (server) await stopServerChild(server).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

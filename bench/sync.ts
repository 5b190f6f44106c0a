/**
 * `npm run bench -- sync [entries]`: a space of 100k published entries in 3 locales per engine, then
 * 1,000 of them changed over 10 publishes. Measures, over real HTTP with the response cache off, fetching that
 * difference with `GET /sync?since=` (keys only, and `full=1` with entries in one locale) as p50/p99 and bytes,
 * beside the baseline a site has without it: walking every page of `/entries` (one locale) to find what changed.
 */
import { request } from 'node:http';
import { sql } from 'kysely';
import type { EntrySnapshot } from '../src/content/model.js';
import { buildApp } from '../src/server/app.js';
import { type Config, loadConfig } from '../src/config/config.js';
import { publishEntryVersion, withPublish } from '../src/content/publish-log.js';
import { generateSpace } from './lib-entries-space.js';
import { openBenchStore } from './lib-bench-store.js';

const TOKEN = 'folio_pub_BenchSyncToken000000000001';
const CHANGES = 1000;
const PUBLISHES = 10;

function get(url: string): Promise<{ status: number; body: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request(url, { headers: { authorization: `Bearer ${TOKEN}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString(),
          ms: performance.now() - t0,
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** Follows `nextCursor` from `first`; the time and bytes of every page together. */
async function walk(
  first: string,
  next: (cursor: string) => string,
): Promise<{ ms: number; bytes: number; pages: number }> {
  let url: string | null = first;
  let ms = 0;
  let bytes = 0;
  let pages = 0;
  while (url !== null) {
    const r = await get(url);
    if (r.status !== 200) throw new Error(`${url} answered ${r.status}: ${r.body.slice(0, 200)}`);
    ms += r.ms;
    bytes += Buffer.byteLength(r.body);
    pages++;
    const cursor = (JSON.parse(r.body) as { nextCursor: string | null }).nextCursor;
    url = cursor === null ? null : next(cursor);
  }
  return { ms, bytes, pages };
}

const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))] ?? NaN;
const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;

async function runEngine(engine: 'sqlite' | 'postgres', total: number): Promise<void> {
  const { dataDir, storeConfig, store, blobs, close } = await openBenchStore(engine, 'sync');
  try {
    const t0 = performance.now();
    const { posts } = await generateSpace(store, blobs, 'spc_bench', TOKEN, total);
    if (engine === 'postgres')
      for (const table of ['entry_versions', 'entry_paths', 'doc_versions', 'redirects'])
        await sql`vacuum analyze ${sql.table(table)}`.execute(store.db);
    const since = Number(
      (
        await store.db
          .selectFrom('spaces')
          .select('cv')
          .where('id', '=', 'spc_bench')
          .executeTakeFirstOrThrow()
      ).cv,
    );
    // 1,000 posts spread over the space get a new title, 100 per publish.
    const step = Math.floor(posts.length / CHANGES);
    const changed: EntrySnapshot[] = Array.from({ length: CHANGES }, (_, i) => posts[i * step]).flatMap(
      (p) => (p ? [{ ...p, name: `${p.name} (edited)` }] : []),
    );
    for (let i = 0; i < PUBLISHES; i++) {
      const batch = changed.slice((i * CHANGES) / PUBLISHES, ((i + 1) * CHANGES) / PUBLISHES);
      await withPublish(store, 'spc_bench', async (tx, cv) => {
        for (const s of batch) await publishEntryVersion(tx, store.dialect, 'spc_bench', cv, s, 'collection');
      });
    }
    console.log(
      `\n== ${engine}: ${total} entries, then ${changed.length} changed in ${PUBLISHES} publishes (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
    );

    const config: Config = {
      ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PUBLIC_URL: 'http://127.0.0.1' }),
      store: storeConfig,
      rateLimitPerMinute: 100_000_000,
      cache: { l1MaxBytes: 1, ttlSeconds: 1, pinnedTtlSeconds: 1 },
    };
    const app = await buildApp({ config, store, blobs });
    const base = `${await app.listen({ host: '127.0.0.1', port: 0 })}/v1/spc_bench`;
    try {
      for (const [label, query] of [
        ['sync, keys (3 locales)', `since=${since}&limit=1000`],
        ['sync, full=1 (en)', `since=${since}&limit=1000&full=1&locale=en`],
      ] as const) {
        const times: number[] = [];
        let last = { ms: 0, bytes: 0, pages: 0 };
        for (let i = 0; i < 15; i++) {
          last = await walk(
            `${base}/sync?${query}`,
            (c) => `${base}/sync?cursor=${encodeURIComponent(c)}&${query.replace(/since=\d+&/, '')}`,
          );
          times.push(last.ms);
        }
        console.log(
          `${label.padEnd(26)} p50 ${quantile(times, 0.5).toFixed(1)} ms, p99 ${quantile(times, 0.99).toFixed(1)} ms, ${kb(last.bytes)} in ${last.pages} page(s)`,
        );
      }
      const full = await walk(
        `${base}/entries?limit=100&locale=en`,
        (c) => `${base}/entries?limit=100&locale=en&cursor=${encodeURIComponent(c)}`,
      );
      console.log(
        `${'baseline: /entries walk (en)'.padEnd(26)} ${full.ms.toFixed(0)} ms, ${kb(full.bytes)} in ${full.pages} pages`,
      );
    } finally {
      await app.close();
    }
  } finally {
    await close();
  }
}

export default async function bench(args: string[]): Promise<void> {
  const total = Number(args[0] ?? 100_000);
  await runEngine('sqlite', total);
  await runEngine('postgres', total);
}

/**
 * `npm run bench -- rendered [sqlite|postgres] [--entries N] [--rounds R]`: what the rendered cache
 * (RENDER_CACHE_MB) saves an uncached list. Two apps in this process on one store, the same code and data, one
 * with the rendered cache and one without (the baseline), both with the response cache's L1 sized to nothing;
 * rounds of 150 sequential list requests alternate between them, so both see the same host at the same moment
 * (this machine's speed drifts by a fifth between runs, more than the effect). Prints the median time per request
 * of each and the ratio of every round.
 */
import type { FastifyInstance } from 'fastify';
import { type Config, loadConfig } from '../src/config/config.js';
import { buildApp } from '../src/server/app.js';
import { CATEGORIES, generateSpace } from './lib-entries-space.js';
import { openBenchStore } from './lib-bench-store.js';
import { measure, waitForJobs } from './lib-measure.js';

const TOKEN = 'folio_pub_BenchRenderedToken000000001';
const auth = { authorization: `Bearer ${TOKEN}` };
const ROUND = 150;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? 0;

async function runEngine(engine: 'sqlite' | 'postgres', total: number, rounds: number): Promise<void> {
  const { dataDir, storeConfig, store, blobs, close } = await openBenchStore(engine, 'rendered');
  const apps: FastifyInstance[] = [];
  try {
    const t0 = performance.now();
    await generateSpace(store, blobs, 'spc_bench', TOKEN, total);
    console.log(
      `\n== ${engine}: generated ${total} entries in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const start = async (renderCacheMb: number): Promise<string> => {
      const config: Config = {
        ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PUBLIC_URL: 'http://127.0.0.1' }),
        store: storeConfig,
        rateLimitPerMinute: 100_000_000,
        cache: { l1MaxBytes: 1, ttlSeconds: 1, pinnedTtlSeconds: 1 },
        renderCacheMb,
      };
      const app = await buildApp({ config, store, blobs });
      apps.push(app);
      return `${await app.listen({ host: '127.0.0.1', port: 0 })}/v1/spc_bench`;
    };
    const withCache = await start(32);
    const without = await start(0);
    await waitForJobs(store);
    // 300 selections (3 locales × 5 ratings × 20 categories), newest first, with the author included.
    const urls = (base: string) => {
      const out: string[] = [];
      for (const loc of ['en', 'de', 'fr'])
        for (let r = 1; r <= 5; r++)
          for (let c = 0; c < CATEGORIES; c++)
            out.push(
              `${base}/entries?type=post&filter[fields.category][eq]=c${c}&filter[fields.rating][gte]=${r}` +
                `&sort=-publishedAt&include=author&limit=20&locale=${loc}`,
            );
      return out;
    };
    const [a, b] = [urls(withCache), urls(without)];
    // Every selection once on each app first: totals counted, entries parsed, renders cached.
    await measure(a, auth);
    await measure(b, auth);
    const cached: number[] = [];
    const baseline: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const from = (i % 2) * ROUND;
      let t = performance.now();
      await measure(a.slice(from, from + ROUND), auth);
      cached.push((performance.now() - t) / ROUND);
      t = performance.now();
      await measure(b.slice(from, from + ROUND), auth);
      baseline.push((performance.now() - t) / ROUND);
    }
    const ratios = cached.map((c, i) => c / (baseline[i] ?? c));
    console.log(
      `uncached list, ${rounds} alternating rounds of ${ROUND}: rendered cache ${median(cached).toFixed(3)} ms ` +
        `per request | baseline without it ${median(baseline).toFixed(3)} ms | ratio ` +
        `${(median(cached) / median(baseline)).toFixed(3)} (rounds: ${ratios.map((r) => r.toFixed(2)).join(' ')})`,
    );
  } finally {
    for (const app of apps) await app.close();
    await close();
  }
}

export default async function renderedBench(args: string[]): Promise<void> {
  const n = args.indexOf('--entries');
  const total = n >= 0 ? Number(args[n + 1]) : 100_000;
  const r = args.indexOf('--rounds');
  const rounds = r >= 0 ? Number(args[r + 1]) : 16;
  const engines = args.filter((a) => a === 'sqlite' || a === 'postgres');
  for (const engine of engines.length > 0 ? engines : (['sqlite', 'postgres'] as const))
    await runEngine(engine, total, rounds);
}

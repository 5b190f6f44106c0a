/**
 * `npm run bench -- images [seconds]`: derived images from 12-megapixel JPEGs, Folio in a child
 * process on SQLite, the load generator here.
 *   1. first request of a 640w WebP (a variant nobody asked for yet), p50 and p90 of 15 (target ≤ 150 ms p50);
 *   2. the same variant cached, req/s with 16 connections, beside bare Fastify sending the same bytes and headers
 *      in its own process, alternating rounds (target ≥ 0.9× the static file);
 *   3. first request of a 640w AVIF, p50 of 5;
 *   4. a burst of 200 requests for 200 different variants at once, with JSON requests going on beside it: how
 *      long the burst takes, JSON latency during it against idle, and the server's peak RSS (target < 1 GB).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { type ServerChild, startServerChild, stopServerChild } from './lib-child.js';
import type { RecordedImage } from './lib-images-server.js';
import { autocannon } from './lib-autocannon.js';

const SERVER = join(import.meta.dirname, 'lib-images-server.ts');
const SPACE = 'spc_bench_images';
const TOKEN = 'folio_pub_BenchImagesToken00000000001';
const WEBP = 'image/webp,*/*;q=0.8';
const AVIF = 'image/avif,image/webp,*/*;q=0.8';
const PHOTOS = 4;

/** A photo-like 12 MP JPEG: smooth colour gradients with grain, so it compresses (and decodes) like a photo. */
async function photo(seed: number): Promise<Buffer> {
  const w = 4000;
  const h = 3000;
  const small = Buffer.alloc(40 * 30 * 3);
  for (let i = 0; i < small.length; i++) small[i] = (Math.sin(i * 0.37 + seed) * 0.5 + 0.5) * 255;
  const base = await sharp(small, { raw: { width: 40, height: 30, channels: 3 } })
    .resize(w, h, { kernel: 'cubic' })
    .raw()
    .toBuffer();
  const grain = await sharp({
    create: {
      width: w,
      height: h,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 0, sigma: 12 },
    },
  })
    .raw()
    .toBuffer();
  for (let i = 0; i < base.length; i++)
    base[i] = Math.max(0, Math.min(255, (base[i] ?? 0) + (grain[i] ?? 0) - 6));
  return sharp(base, { raw: { width: w, height: h, channels: 3 } })
    .jpeg({ quality: 88 })
    .toBuffer();
}

async function writeBundle(dir: string): Promise<number> {
  let bytes = 0;
  for (let i = 0; i < PHOTOS; i++) {
    const jpg = await photo(i);
    bytes += jpg.length;
    writeFileSync(join(dir, `photo${i}.jpg`), jpg);
  }
  const bundle = {
    format: 'folio-bundle@1',
    space: { id: SPACE, name: 'Images bench', locales: [{ code: 'en', default: true }] },
    tokens: [{ kind: 'public', value: TOKEN }],
    types: [{ key: 'page', kind: 'page', fields: [{ key: 'title', type: 'text' }] }],
    assets: Array.from({ length: PHOTOS }, (_, i) => ({
      id: `ast_photo${i}`,
      file: `photo${i}.jpg`,
      focal: { x: 0.3, y: 0.4 },
    })),
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
  writeFileSync(join(dir, 'bundle.json'), JSON.stringify(bundle));
  return bytes / PHOTOS;
}

interface Fetched {
  status: number;
  ms: number;
  body: Buffer;
  headers: Record<string, string>;
}

function fetch(url: string, headers: Record<string, string>): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request(url, { headers }, (res) => {
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
    });
    req.on('error', reject);
    req.end();
  });
}

const quantile = (xs: number[], q: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? NaN;

/** The qualities `q` snaps to (src/assets/image-params.ts): each is a variant of its own. */
const STEPS = [25, 50, 60, 75, 80, 90, 100];

/** First requests of 640w variants, each new: `[asset, q]` pairs. */
async function firstRequests(base: string, accept: string, variants: [asset: number, q: number][]) {
  const times: number[] = [];
  let bytes = 0;
  for (const [asset, q] of variants) {
    const r = await fetch(`${base}/v1/${SPACE}/assets/ast_photo${asset}/photo${asset}.jpg?w=640&q=${q}`, {
      accept,
    });
    if (r.status !== 200) throw new Error(`first request answered ${r.status}: ${r.body.toString()}`);
    times.push(r.ms);
    bytes = r.body.length;
  }
  return { p50: quantile(times, 0.5), p90: quantile(times, 0.9), bytes };
}

async function load(url: string, headers: Record<string, string>, seconds: number): Promise<number> {
  const r = await autocannon({ url, connections: 16, duration: seconds, headers });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return r.requests.average;
}

/** JSON requests one after another until `stop` resolves: their latencies. */
async function jsonLoop(base: string, stop: Promise<unknown>): Promise<number[]> {
  let done = false;
  void stop.then(() => (done = true));
  const times: number[] = [];
  const url = `${base}/v1/${SPACE}/entries/by-path/`;
  while (!done) {
    const r = await fetch(url, { authorization: `Bearer ${TOKEN}` });
    if (r.status !== 200) throw new Error(`JSON request answered ${r.status}`);
    times.push(r.ms);
  }
  return times;
}

export default async function bench(args: string[]): Promise<void> {
  const seconds = Number(args[0] ?? 8);
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-images-'));
  const children: ServerChild[] = [];
  try {
    const avgBytes = await writeBundle(dir);
    console.log(`${PHOTOS} photo-like 4000×3000 JPEGs, ${(avgBytes / 1e6).toFixed(1)} MB each`);
    const folio = await startServerChild(SERVER, ['folio', join(dir, 'data'), dir]);
    children.push(folio);
    const base = `http://127.0.0.1:${folio.info.port}`;

    // 15 distinct WebP variants: q snaps to seven steps, so three photos' (the fourth stays for the AVIFs).
    const webp = await firstRequests(
      base,
      WEBP,
      Array.from({ length: 15 }, (_, i): [number, number] => [
        [0, 2, 3][Math.floor(i / 7)] ?? 0,
        STEPS[i % 7] ?? 50,
      ]),
    );
    console.log(
      `first 640w WebP     p50 ${webp.p50.toFixed(0)} ms, p90 ${webp.p90.toFixed(0)} ms, ${(webp.bytes / 1024).toFixed(0)} KB  (target p50 ≤ 150 ms)`,
    );
    const avif = await firstRequests(
      base,
      AVIF,
      STEPS.slice(0, 5).map((q): [number, number] => [1, q]),
    );
    console.log(
      `first 640w AVIF     p50 ${avif.p50.toFixed(0)} ms, p90 ${avif.p90.toFixed(0)} ms, ${(avif.bytes / 1024).toFixed(0)} KB`,
    );

    // The cached variant, recorded for the baseline to send verbatim.
    const path = `/v1/${SPACE}/assets/ast_photo0/photo0.jpg`;
    const url = `${base}${path}?w=640&q=60`;
    const hit = await fetch(url, { accept: WEBP });
    const headers: Record<string, string> = {};
    for (const name of [
      'content-type',
      'cache-control',
      'etag',
      'vary',
      'x-content-type-options',
      'content-security-policy',
    ])
      if (hit.headers[name] !== undefined) headers[name] = hit.headers[name];
    const recorded: RecordedImage = { path, headers, body: hit.body.toString('base64') };
    writeFileSync(join(dir, 'recorded.json'), JSON.stringify(recorded));
    const bare = await startServerChild(SERVER, ['bare', join(dir, 'recorded.json')]);
    children.push(bare);
    const bareUrl = `http://127.0.0.1:${bare.info.port}${path}?w=640&q=60`;
    const ratios: number[] = [];
    for (let round = 0; round < 2; round++) {
      const f = await load(url, { accept: WEBP }, seconds);
      const s = await load(bareUrl, { accept: WEBP }, seconds);
      ratios.push(f / s);
      console.log(
        `cached 640w WebP    round ${round + 1}: Folio ${f.toFixed(0)} req/s, bare static ${s.toFixed(0)} req/s → ${(f / s).toFixed(2)}×`,
      );
    }
    console.log(`cached ÷ static     median ${quantile(ratios, 0.5).toFixed(2)}× (target ≥ 0.9×)`);

    // Idle JSON latency, then the burst with JSON requests beside it.
    const idle = await jsonLoop(base, new Promise((r) => setTimeout(r, 2000)));
    // 200 new variants: 4 photos × 7 widths (not 640: made above) × 7 quality steps (196), and 4 at 1920 wide.
    const widths = [160, 320, 480, 768, 1024, 1280, 1600];
    const variants: string[] = [];
    for (let i = 0; variants.length < 200; i++) {
      const asset = i % PHOTOS;
      const w = i < 196 ? (widths[Math.floor(i / PHOTOS) % widths.length] ?? 768) : 1920;
      const q = STEPS[Math.floor(i / (PHOTOS * widths.length)) % STEPS.length] ?? 50;
      variants.push(`${base}/v1/${SPACE}/assets/ast_photo${asset}/photo${asset}.jpg?w=${w}&q=${q}`);
    }
    const t0 = performance.now();
    const burst = Promise.all(variants.map((v) => fetch(v, { accept: WEBP })));
    const during = await jsonLoop(base, burst);
    const results = await burst;
    const burstMs = performance.now() - t0;
    const statuses = new Map<number, number>();
    for (const r of results) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    const report = await stopServerChild(folio);
    children.splice(children.indexOf(folio), 1);
    console.log(
      `burst               200 distinct variants in ${(burstMs / 1000).toFixed(1)} s, statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    console.log(
      `JSON beside burst   p50 ${quantile(during, 0.5).toFixed(1)} ms, p99 ${quantile(during, 0.99).toFixed(1)} ms over ${during.length} requests (idle: p50 ${quantile(idle, 0.5).toFixed(1)} ms, p99 ${quantile(idle, 0.99).toFixed(1)} ms)`,
    );
    console.log(`server peak RSS     ${String(report.maxRssMb)} MB over the whole run (target < 1024 MB)`);
  } finally {
    for (const c of children) await stopServerChild(c).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

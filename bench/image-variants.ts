/**
 * `npm run bench -- image-variants`: what an anonymous visitor can make the server derive and
 * keep. One public photo of about 300 KB in a Folio process of its own (SQLite, directory blobs, the default
 * limits); no token. Every request of a phase is sent at once:
 *   1. one visitor asks for 700 distinct `?h=&q=&fm=` variants (the attack the budget bounds);
 *   2. another visitor asks for 300 distinct crops (`?w=320&h=…`), which no snapping merges;
 *   3. 20 visitors (loopback addresses 127.0.0.2–21) ask for 300 more distinct crops between them, each under any
 *      per-visitor limit: what the store keeps of the asset then.
 * Prints per phase the statuses, the p50 wait of all answers and of the 200s, and the blob store's growth.
 * About a minute on 2 cores before the budget and the per-visitor limit, a few seconds after.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { startServerChild, stopServerChild, type ServerChild } from './lib-child.js';
import { dirBytes, type Fetched, fetchOnce, mb, quantile, statusCounts } from './lib-spend.js';

const SERVER = join(import.meta.dirname, 'lib-spend-server.ts');
const SPACE = 'spc_bench_variants';
const FORMATS = ['webp', 'jpeg', 'png', 'avif'] as const;

/** A photo-like 1600×1200 JPEG of about 300 KB: gradients with grain. */
async function photo(): Promise<Buffer> {
  const small = Buffer.alloc(16 * 12 * 3);
  for (let i = 0; i < small.length; i++) small[i] = (Math.sin(i * 0.37) * 0.5 + 0.5) * 255;
  const base = await sharp(small, { raw: { width: 16, height: 12, channels: 3 } })
    .resize(1600, 1200, { kernel: 'cubic' })
    .toBuffer();
  return sharp(base, { raw: { width: 1600, height: 1200, channels: 3 } })
    .composite([
      {
        input: await sharp({
          create: {
            width: 1600,
            height: 1200,
            channels: 3,
            background: '#000',
            noise: { type: 'gaussian', mean: 0, sigma: 14 },
          },
        })
          .png()
          .toBuffer(),
        blend: 'add',
      },
    ])
    .jpeg({ quality: 85 })
    .toBuffer();
}

function bundle(): Record<string, unknown> {
  return {
    format: 'folio-bundle@1',
    space: { id: SPACE, name: 'Variants bench', locales: [{ code: 'en', default: true }] },
    tokens: [],
    types: [{ key: 'page', kind: 'page', fields: [{ key: 'title', type: 'text' }] }],
    assets: [{ id: 'ast_photo', file: 'photo.jpg' }],
    entries: [],
  };
}

/** Heights by 400 variants: 320×240, 480×360, then 160×120 (`h` snaps to the width ladder; `q` and `fm` did not). */
const HEIGHTS = [240, 360, 120];

/** The `i`-th distinct variant: every quality from 1 to 100 in each of the four formats, at each height. */
const variant = (i: number): string =>
  `h=${HEIGHTS[Math.floor(i / 400)] ?? 120}&q=${1 + (i % 100)}&fm=${FORMATS[Math.floor(i / 100) % FORMATS.length] ?? 'webp'}`;

function report(label: string, results: Fetched[], before: number, after: number): void {
  const ok = results.filter((r) => r.status === 200).map((r) => r.ms);
  console.log(
    `${label}: statuses ${statusCounts(results)}, p50 wait ${(
      quantile(
        results.map((r) => r.ms),
        0.5,
      ) / 1000
    ).toFixed(2)} s (of 200s: ${ok.length > 0 ? (quantile(ok, 0.5) / 1000).toFixed(2) : '–'} s)`,
  );
  console.log(
    `${' '.repeat(label.length)}  blob store ${mb(before)} → ${mb(after)} (${after >= before ? '+' : '−'}${mb(Math.abs(after - before))})`,
  );
}

export default async function bench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-variants-'));
  let server: ServerChild | null = null;
  try {
    const jpg = await photo();
    mkdirSync(join(dir, 'bundle'));
    writeFileSync(join(dir, 'bundle', 'photo.jpg'), jpg);
    writeFileSync(join(dir, 'bundle', 'bundle.json'), JSON.stringify(bundle()));
    console.log(`one 1600×1200 JPEG of ${(jpg.length / 1024).toFixed(0)} KB, no token`);
    const data = join(dir, 'data');
    server = await startServerChild(SERVER, [data, join(dir, 'bundle')]);
    const base = `http://127.0.0.1:${server.info.port}/v1/${SPACE}/assets/ast_photo/photo.jpg`;
    const blobs = join(data, 'blobs');

    const phase = async (label: string, queries: string[], visitor: (i: number) => string) => {
      const before = dirBytes(blobs);
      const t0 = performance.now();
      const results = await Promise.all(queries.map((q, i) => fetchOnce(`${base}?${q}`, {}, visitor(i))));
      console.log(`${label} took ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      report(label, results, before, dirBytes(blobs));
    };
    await phase(
      'one visitor, 700 ?h=&q=&fm=',
      Array.from({ length: 700 }, (_, i) => variant(i)),
      () => '127.0.0.1',
    );
    await phase(
      'another visitor, 300 crops',
      Array.from({ length: 300 }, (_, i) => `w=320&h=${60 + i}&fm=webp`),
      () => '127.0.0.50',
    );
    await phase(
      '20 visitors, 300 crops',
      Array.from({ length: 300 }, (_, i) => `w=320&h=${400 + i}&fm=webp`),
      (i) => `127.0.0.${2 + (i % 20)}`,
    );

    // A variant the first phase made, asked for again by the first visitor: a hit costs no derivation.
    const again = await fetchOnce(`${base}?${variant(0)}`, {}, '127.0.0.1');
    console.log(`a variant made before, asked again by visitor 1: ${again.status}`);
  } finally {
    if (server) await stopServerChild(server).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { crc32, deflateSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ASSET_BYTES } from '../src/assets/ingest.js';
import { MAX_IMAGE_PIXELS } from '../src/assets/limits.js';
import type { BlobStore } from '../src/blobs/blob-store.js';
import { BundleError, importBundle } from '../src/bundle/import-bundle.js';
import { getSpace } from '../src/store/spaces-repo.js';
import { buildApp } from '../src/server/app.js';
import { ENGINES, openTestEnv, type TestEnv } from './helpers/engines.js';
import { fixtureBundle, fixtureDir, TOKENS } from './helpers/fixture.js';
import { storeScopedToken } from './helpers/tokens.js';
import {
  ACCEPTED_ENCODED,
  ACCEPTED_MARKUP,
  REFUSED_ENCODED,
  REFUSED_MARKUP,
  UTF16_HTML,
} from './helpers/markup-cases.js';

// POST /v1/spaces/<spaceId>/assets (multipart, content.write) stores, probes and
// publishes one asset; decompression bombs are refused from their header, here and in bundle imports.

const MB = 1024 * 1024;

/** Records the keys written, so a test can check that nothing of a refused file reached the store. */
class RecordingBlobs implements BlobStore {
  readonly keys: string[] = [];
  constructor(private readonly inner: BlobStore) {}
  put(key: string, data: Readable | Buffer, opts?: { contentType?: string }) {
    this.keys.push(key);
    return this.inner.put(key, data, opts);
  }
  get(key: string) {
    return this.inner.get(key);
  }
  delete(key: string) {
    return this.inner.delete(key);
  }
  close() {
    return this.inner.close();
  }
}

/** A PNG chunk (PNG spec 5.3): length, type, data, CRC-32 of type and data. */
function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A ~1 KB PNG whose header declares 100,000 × 100,000 RGB pixels (30 GB decoded). */
function bombPng(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(100_000, 0);
  ihdr.writeUInt32BE(100_000, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const idat = deflateSync(Buffer.alloc(200_000));
  return Buffer.concat([
    signature,
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', idat),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
);
const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#00ff00"/></svg>',
);

type Part = readonly [string, string] | { file: string; type: string; content: Buffer; part?: string };

async function multipart(parts: readonly Part[]) {
  const form = new FormData();
  for (const p of parts) {
    if (Array.isArray(p)) form.append(p[0], p[1]);
    else {
      const f = p as Exclude<Part, readonly [string, string]>;
      form.append(f.part ?? 'file', new Blob([f.content], { type: f.type }), f.file);
    }
  }
  const request = new Request('http://local/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get('content-type') ?? '',
  };
}

/** How far apart two #rrggbb colours are, channel by channel (JPEG moves a flat colour by a step or two). */
function distance(a: string, b: string): number {
  const rgb = (c: string) => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16));
  const [x, y] = [rgb(a), rgb(b)];
  return Math.max(...x.map((v, i) => Math.abs(v - (y[i] ?? 0))));
}

describe.each(ENGINES)('asset upload and ingest on %s', (engine) => {
  let t: TestEnv & { app: FastifyInstance };
  let blobs: RecordingBlobs;
  let bundleDir: string;
  let jpeg: Buffer;

  beforeAll(async () => {
    const env = await openTestEnv(engine);
    blobs = new RecordingBlobs(env.blobs);
    bundleDir = await fixtureDir();
    await importBundle(env.store, blobs, fixtureBundle(), { baseDir: bundleDir });
    // The app writes through the recording store; the environment keeps the directory store it wraps.
    t = { ...env, app: await buildApp({ ...env, blobs }) };
    // 400 × 300 pixels stored, shown as 300 × 400: EXIF orientation 6 turns it a quarter clockwise.
    jpeg = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#336699' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
  });
  afterAll(async () => {
    await t.app.close();
    await t.close();
    rmSync(bundleDir, { recursive: true, force: true });
  });

  const cv = async () => (await getSpace(t.store, 'spc_test'))?.cv ?? -1;
  /** Files an upload left in the work directory (each request removes its own). */
  const leftovers = () => {
    const dir = join(t.config.dataDir, 'tmp');
    return existsSync(dir) ? readdirSync(dir) : [];
  };

  async function post(parts: readonly Part[], token: string | null = TOKENS.management) {
    const { payload, contentType } = await multipart(parts);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/spaces/spc_test/assets',
      payload,
      headers: {
        'content-type': contentType,
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      },
    });
    return { status: res.statusCode, body: res.json(), headers: res.headers };
  }

  /** Nothing written to the blob store since `from`, no asset row added, no cv bump, no file left on disk. */
  async function nothingKept(from: number, cv0: number, assets0: number) {
    expect(blobs.keys.slice(from)).toEqual([]);
    expect(await t.store.db.selectFrom('assets').select('id').execute()).toHaveLength(assets0);
    expect(await cv()).toBe(cv0);
    expect(leftovers()).toEqual([]);
  }

  const state = async () => ({
    from: blobs.keys.length,
    cv0: await cv(),
    assets0: (await t.store.db.selectFrom('assets').select('id').execute()).length,
  });

  it('stores a JPEG, reports it as displayed (EXIF orientation 6) and publishes it with one cv bump', async () => {
    const cv0 = await cv();
    const res = await post([
      ['alt', JSON.stringify({ en: 'A bridge', de: 'Eine Brücke' })],
      ['title', JSON.stringify({ en: 'Evening' })],
      ['credit', 'Jane Doe'],
      ['focal', '0.25,0.75'],
      { file: 'Brücke am Abend.jpg', type: 'image/jpeg', content: jpeg },
    ]);
    expect(res.status).toBe(201);
    const { asset } = res.body;
    expect(res.body.cv).toBe(cv0 + 1);
    expect(await cv()).toBe(cv0 + 1);
    expect(asset).toEqual({
      id: expect.stringMatching(/^ast_[A-Za-z0-9]{20}$/),
      url: `http://folio.test/v1/spc_test/assets/${asset.id}/${encodeURIComponent('Brücke am Abend.jpg')}`,
      filename: 'Brücke am Abend.jpg',
      mime: 'image/jpeg',
      size: jpeg.length,
      width: 300,
      height: 400,
      focal: { x: 0.25, y: 0.75 },
      alt: { en: 'A bridge', de: 'Eine Brücke' },
      title: { en: 'Evening' },
      credit: 'Jane Doe',
      color: expect.stringMatching(/^#[0-9a-f]{6}$/),
      placeholder: expect.stringMatching(/^data:image\/webp;base64,/),
    });
    expect(distance(asset.color, '#336699')).toBeLessThanOrEqual(3);
    // The placeholder is oriented like the image: portrait, at most 16 × 16.
    const tiny = await sharp(Buffer.from(asset.placeholder.split(',')[1], 'base64')).metadata();
    expect([tiny.width, tiny.height]).toEqual([12, 16]);
    // Published at the new cv, where delivery reads assets.
    const version = await t.store.db
      .selectFrom('doc_versions')
      .select(['cv_from', 'cv_to'])
      .where('space_id', '=', 'spc_test')
      .where('kind', '=', 'asset')
      .where('key', '=', asset.id)
      .execute();
    expect(version.map((v) => [Number(v.cv_from), v.cv_to])).toEqual([[cv0 + 1, null]]);
    // The file is served as sent.
    const file = await t.app.inject({ method: 'GET', url: new URL(asset.url).pathname });
    expect([file.statusCode, file.headers['content-type']]).toEqual([200, 'image/jpeg']);
    expect(file.rawPayload.equals(jpeg)).toBe(true);
    // And read back through the management API.
    const got = await t.app.inject({
      method: 'GET',
      url: `/v1/spaces/spc_test/assets/${asset.id}`,
      headers: { authorization: `Bearer ${TOKENS.management}` },
    });
    expect([got.statusCode, got.json()]).toEqual([200, { asset, cv: cv0 + 1 }]);
    expect(leftovers()).toEqual([]);
  });

  it.each([
    [
      'a PNG with alpha',
      async () => ({
        file: 'logo.png',
        type: 'image/png',
        content: await sharp({
          create: { width: 64, height: 32, channels: 4, background: { r: 0, g: 128, b: 255, alpha: 0.5 } },
        })
          .png()
          .toBuffer(),
      }),
      { mime: 'image/png', width: 64, height: 32, color: '#0080ff' },
    ],
    [
      'an animated GIF (probed by its first frame)',
      async () => {
        const frame = (background: string) =>
          sharp({ create: { width: 8, height: 6, channels: 3, background } })
            .png()
            .toBuffer();
        const frames = [await frame('#ff0000'), await frame('#0000ff')];
        const gif = await sharp(frames, { join: { animated: true } })
          .gif({ delay: [100, 100] })
          .toBuffer();
        expect((await sharp(gif).metadata()).pages).toBe(2);
        return { file: 'blink.gif', type: 'image/gif', content: gif };
      },
      { mime: 'image/gif', width: 8, height: 6, color: '#ff0000' },
    ],
    [
      'a clean SVG',
      async () => ({ file: 'mark.svg', type: 'image/svg+xml', content: SVG }),
      { mime: 'image/svg+xml', width: 40, height: 20, color: '#00ff00' },
    ],
    [
      'a PDF (no pixels: no width, height, colour or placeholder)',
      async () => ({ file: 'brochure.pdf', type: 'application/pdf', content: PDF }),
      { mime: 'application/pdf', width: null, height: null, color: null, placeholder: null },
    ],
  ] as const)('stores %s', async (_name, make, expected) => {
    const file = await make();
    const res = await post([file]);
    expect(res.status).toBe(201);
    expect(res.body.asset).toMatchObject({ ...expected, filename: file.file, size: file.content.length });
    if (expected.width !== null) expect(res.body.asset.placeholder).toMatch(/^data:image\/webp;base64,/);
    expect(leftovers()).toEqual([]);
  });

  it('refuses a PNG declaring 100,000 × 100,000 pixels from its header: 422 image_too_large, nothing kept', async () => {
    const bomb = bombPng();
    expect(bomb.length).toBeLessThan(2048);
    const before = await state();
    const res = await post([{ file: 'bomb.png', type: 'image/png', content: bomb }]);
    expect([res.status, res.body.error.code]).toEqual([422, 'validation_failed']);
    expect(res.body.error.details.fields.file).toEqual({
      code: 'image_too_large',
      message: 'This image declares 100000 × 100000 pixels; the limit is 268 megapixels.',
      params: { width: 100_000, height: 100_000, max: MAX_IMAGE_PIXELS },
    });
    await nothingKept(before.from, before.cv0, before.assets0);
  });

  it('refuses the same bomb in a bundle import, naming assets[i].file, and stores nothing of it', async () => {
    const dir = await fixtureDir();
    try {
      writeFileSync(join(dir, 'bomb.png'), bombPng());
      const bundle = fixtureBundle('spc_bomb') as { assets: unknown[] };
      bundle.assets.push({ id: 'ast_bomb', file: 'bomb.png' });
      const from = blobs.keys.length;
      const err = await importBundle(t.store, blobs, bundle, { baseDir: dir }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BundleError);
      expect((err as BundleError).problems).toEqual([
        {
          path: 'assets[1].file',
          message: 'image declares 100000 × 100000 pixels; the limit is 268 megapixels',
        },
      ]);
      expect(blobs.keys.slice(from).filter((k) => k.includes('ast_bomb'))).toEqual([]);
      expect(await getSpace(t.store, 'spc_bomb')).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [
      'HTML named .png',
      {
        file: 'photo.png',
        type: 'image/png',
        content: Buffer.from('<!DOCTYPE html><html><body>hi</body></html>'),
      },
    ],
    [
      'an SVG with a script',
      {
        file: 'logo.svg',
        type: 'image/svg+xml',
        content: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      },
    ],
    [
      'an SVG with an event handler',
      {
        file: 'logo.svg',
        type: 'image/svg+xml',
        content: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><rect onload="alert(1)"/></svg>'),
      },
    ],
    ['an empty file', { file: 'empty.pdf', type: 'application/pdf', content: Buffer.alloc(0) }],
    [
      'a JPEG with a ZIP appended',
      {
        file: 'me.jpg',
        type: 'image/jpeg',
        content: Buffer.concat([
          Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
          Buffer.alloc(64),
          Buffer.from([0x50, 0x4b, 0x05, 0x06]),
          Buffer.alloc(18),
        ]),
      },
    ],
  ])('refuses %s: 422 invalid_file, nothing kept', async (_name, file) => {
    const before = await state();
    const res = await post([file]);
    expect([res.status, res.body.error.code, res.body.error.details.fields.file.code]).toEqual([
      422,
      'validation_failed',
      'invalid_file',
    ]);
    await nothingKept(before.from, before.cv0, before.assets0);
  });

  it('refuses every SVG and XML of the table that can carry script, and UTF-16 HTML and SVGZ', async () => {
    const before = await state();
    const cases = [
      ...REFUSED_MARKUP,
      ...REFUSED_ENCODED,
      UTF16_HTML,
      // libvips reads gzip-compressed SVG: it would be delivered as image/svg+xml without the XML check.
      {
        name: 'SVGZ with a script',
        file: 'logo.svgz',
        bytes: gzipSync(
          '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><script>alert(1)</script></svg>',
        ),
      },
    ];
    const got = [];
    for (const c of cases) {
      const res = await post([{ file: c.file, type: 'image/svg+xml', content: c.bytes }]);
      got.push([c.name, res.status, res.body.error?.details?.fields?.file?.code]);
    }
    expect(got).toEqual(cases.map((c) => [c.name, 422, 'invalid_file']));
    await nothingKept(before.from, before.cv0, before.assets0);
  });

  it('stores clean SVG and XML, and serves their originals only as sandboxed attachments', async () => {
    for (const c of [...ACCEPTED_MARKUP, ...ACCEPTED_ENCODED]) {
      const res = await post([{ file: c.file, type: 'text/plain', content: c.bytes }]);
      expect([c.name, res.status, res.body.asset?.mime]).toEqual([c.name, 201, c.type]);
      const file = await t.app.inject({ method: 'GET', url: new URL(res.body.asset.url).pathname });
      expect([c.name, file.statusCode, file.headers['content-type']]).toEqual([c.name, 200, c.type]);
      expect(file.headers['content-disposition']).toMatch(/^attachment; filename=/);
      expect(file.headers['content-security-policy']).toMatch(/\bsandbox\b/);
      expect(file.headers['x-content-type-options']).toBe('nosniff');
    }
    // Other originals are still served inline.
    const pdf = await post([{ file: 'brochure.pdf', type: 'application/pdf', content: PDF }]);
    const served = await t.app.inject({ method: 'GET', url: new URL(pdf.body.asset.url).pathname });
    expect([served.statusCode, served.headers['content-disposition']]).toEqual([200, undefined]);
  });

  it('serves an XML original as a sandboxed attachment, like an SVG', async () => {
    const xml = Buffer.from('<?xml version="1.0"?>\n<feed><title>News</title></feed>');
    const res = await post([{ file: 'feed.xml', type: 'application/xml', content: xml }]);
    expect([res.status, res.body.asset.mime]).toEqual([201, 'application/xml']);
    const file = await t.app.inject({ method: 'GET', url: new URL(res.body.asset.url).pathname });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="feed.xml"; filename*=UTF-8''feed.xml`,
    );
    expect(file.headers['content-security-policy']).toMatch(/\bsandbox\b/);
  });

  it('refuses scripted SVG and XML in a bundle import, naming every such file, and stores nothing of it', async () => {
    const dir = await fixtureDir();
    try {
      const bad = [...REFUSED_MARKUP.slice(0, 6), ...REFUSED_ENCODED.slice(0, 3), UTF16_HTML];
      const bundle = fixtureBundle('spc_scripted') as { assets: unknown[] };
      bad.forEach((c, i) => {
        writeFileSync(join(dir, `bad-${i}.svg`), c.bytes);
        bundle.assets.push({ id: `ast_bad${i}`, file: `bad-${i}.svg` });
      });
      const from = blobs.keys.length;
      const err = await importBundle(t.store, blobs, bundle, { baseDir: dir }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BundleError);
      expect((err as BundleError).problems).toEqual(
        bad.map((_c, i) => ({
          path: `assets[${i + 1}].file`,
          message: expect.stringMatching(new RegExp(`^"bad-${i}\\.svg" is not valid: `)),
        })),
      );
      expect(blobs.keys.slice(from)).toEqual([]);
      expect(await getSpace(t.store, 'spc_scripted')).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  /** A multipart body streamed in 1 MB chunks: `bytes` of one file, never held whole. */
  function postStreamed(bytes: number) {
    const boundary = 'folio-test-boundary';
    const chunk = Buffer.alloc(MB, 0x41);
    async function* body() {
      yield Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      );
      for (let left = bytes; left > 0; left -= MB) yield left >= MB ? chunk : chunk.subarray(0, left);
      yield Buffer.from(`\r\n--${boundary}--\r\n`);
    }
    return t.app.inject({
      method: 'POST',
      url: '/v1/spaces/spc_test/assets',
      payload: Readable.from(body()),
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        authorization: `Bearer ${TOKENS.management}`,
      },
    });
  }

  it('takes a file of exactly 50 MB', async () => {
    const res = await postStreamed(MAX_ASSET_BYTES);
    expect([res.statusCode, res.json().asset.size, res.json().asset.mime]).toEqual([
      201,
      MAX_ASSET_BYTES,
      'text/plain',
    ]);
    expect(leftovers()).toEqual([]);
  });

  it('cuts a file over 50 MB off while streaming: 413 too_large, nothing kept', async () => {
    const before = await state();
    const res = await postStreamed(51 * MB);
    expect([res.statusCode, res.json().error.code]).toEqual([413, 'too_large']);
    expect(res.json().error.details.fields.file).toMatchObject({
      code: 'file_too_large',
      params: { max: MAX_ASSET_BYTES },
    });
    await nothingKept(before.from, before.cv0, before.assets0);
  });

  it('answers 401 without a token, 403 without content.write, 415 for JSON', async () => {
    const file = { file: 'brochure.pdf', type: 'application/pdf', content: PDF };
    const before = await state();
    const anonymous = await post([file], null);
    expect([anonymous.status, anonymous.body.error.code]).toEqual([401, 'unauthorized']);
    const reader = await storeScopedToken(t.store, 'spc_test', ['forms.read']);
    const forbidden = await post([file], reader);
    expect([forbidden.status, forbidden.body.error.code]).toEqual([403, 'forbidden']);
    const json = await t.app.inject({
      method: 'POST',
      url: '/v1/spaces/spc_test/assets',
      payload: { file: 'x' },
      headers: { authorization: `Bearer ${TOKENS.management}` },
    });
    expect([json.statusCode, json.json().error.code]).toEqual([415, 'unsupported_media_type']);
    const none = await t.app.inject({
      method: 'POST',
      url: '/v1/spaces/spc_test/assets',
      headers: { authorization: `Bearer ${TOKENS.management}` },
    });
    expect([none.statusCode, none.json().error.code]).toEqual([415, 'unsupported_media_type']);
    const missing = await t.app.inject({
      method: 'GET',
      url: '/v1/spaces/spc_test/assets/ast_nope',
      headers: { authorization: `Bearer ${TOKENS.management}` },
    });
    expect([missing.statusCode, missing.json().error.code]).toEqual([404, 'not_found']);
    await nothingKept(before.from, before.cv0, before.assets0);
  });

  const pdf = { file: 'brochure.pdf', type: 'application/pdf', content: PDF };
  it.each([
    ['an unknown part', [['caption', 'x'], pdf]],
    ['a text part after the file', [pdf, ['credit', 'late']]],
    ['no file part', [['credit', 'x']]],
    ['two file parts', [pdf, pdf]],
    ['the file under another name', [{ ...pdf, part: 'upload' }]],
    ['a text part over 16 KB', [['credit', 'x'.repeat(16 * 1024 + 1)], pdf]],
    ['a part twice', [['credit', 'a'], ['credit', 'b'], pdf]],
  ] as [string, Part[]][])('answers 400 invalid_body for %s', async (_name, parts) => {
    const before = await state();
    const res = await post(parts);
    expect([res.status, res.body.error.code]).toEqual([400, 'invalid_body']);
    await nothingKept(before.from, before.cv0, before.assets0);
  });

  it('answers 422 validation_failed naming each bad text part', async () => {
    const before = await state();
    const res = await post([
      ['alt', JSON.stringify({ en: 'ok', fr: 'non', de: 5 })],
      ['title', 'not json'],
      ['focal', '0.5,1.5'],
      pdf,
    ]);
    expect([res.status, res.body.error.code]).toEqual([422, 'validation_failed']);
    expect(Object.keys(res.body.error.details.fields).sort()).toEqual(['alt.de', 'alt.fr', 'focal', 'title']);
    await nothingKept(before.from, before.cv0, before.assets0);
  });

  it('answers junk parts with 201, 400 or 422, never a 5xx, and keeps nothing of what it refuses', async () => {
    const text = fc.oneof(
      fc.string(),
      fc.constantFrom('{"en":"x"}', '{"__proto__":"x"}', '[]', 'null', '0,0', '1,1', '.5,.5', '1e0,0', ' '),
    );
    const part = fc.tuple(fc.constantFrom('alt', 'title', 'credit', 'focal', 'caption', 'constructor'), text);
    const file = fc.record({
      file: fc.string({ maxLength: 30 }),
      type: fc.constantFrom('image/png', 'application/pdf', 'text/html', ''),
      content: fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(part, { maxLength: 4 }), file, async (texts, f) => {
        const before = await state();
        const res = await post([...texts, f]);
        expect([201, 400, 422]).toContain(res.status);
        if (res.status !== 201) await nothingKept(before.from, before.cv0, before.assets0);
        else expect(await cv()).toBe(before.cv0 + 1);
      }),
      { numRuns: 40 },
    );
  });
});

// Derived images (spec 2.3): ladder widths, presets at the focal point, signed crops, formats by
// Accept, EXIF orientation, alpha, animated GIFs, caching, and 400 for bad parameters; on both engines.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WIDTH_LADDER } from '../src/assets/geometry.js';
import { importBundle } from '../src/bundle/import-bundle.js';
import { serveEnv, type TestApp } from './helpers/app.js';
import { ENGINES, openTestEnv } from './helpers/engines.js';

const SPACE = 'spc_img';
const TOKEN = 'folio_pub_ImagesPublicToken0000000001';
const WEBP = 'image/webp,*/*;q=0.8';

/** A grey 1000×750 photo with a red 20×20 mark near its right edge, at (950–970, 150–170). */
async function markedPhoto(): Promise<Buffer> {
  const mark = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#ff0000' } })
    .png()
    .toBuffer();
  return sharp({ create: { width: 1000, height: 750, channels: 3, background: '#808080' } })
    .composite([{ input: mark, left: 950, top: 150 }])
    .jpeg({ quality: 95 })
    .toBuffer();
}

async function writeImages(dir: string): Promise<void> {
  writeFileSync(join(dir, 'photo.jpg'), await markedPhoto());
  // Wide enough for every ladder step.
  writeFileSync(
    join(dir, 'strip.jpg'),
    await sharp({ create: { width: 4000, height: 100, channels: 3, background: '#336699' } })
      .jpeg()
      .toBuffer(),
  );
  // Stored landscape 300×200 with EXIF orientation 6: shown portrait, 200×300.
  writeFileSync(
    join(dir, 'rotated.jpg'),
    await sharp({ create: { width: 300, height: 200, channels: 3, background: '#446688' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer(),
  );
  writeFileSync(
    join(dir, 'alpha.png'),
    await sharp({
      create: { width: 200, height: 200, channels: 4, background: { r: 0, g: 128, b: 0, alpha: 0.5 } },
    })
      .png()
      .toBuffer(),
  );
  const frame = (background: string) =>
    sharp({ create: { width: 40, height: 30, channels: 3, background } })
      .png()
      .toBuffer();
  writeFileSync(
    join(dir, 'anim.gif'),
    await sharp([await frame('#ff0000'), await frame('#0000ff')], { join: { animated: true } })
      .gif({ delay: [100, 100] })
      .toBuffer(),
  );
  writeFileSync(
    join(dir, 'logo.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50"><rect width="100" height="50" fill="#00f"/></svg>',
  );
  writeFileSync(join(dir, 'doc.pdf'), '%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
}

function imagesBundle(): Record<string, unknown> {
  return {
    format: 'folio-bundle@1',
    space: {
      id: SPACE,
      name: 'Images',
      locales: [{ code: 'en', default: true }],
      imagePresets: { square: { width: 600, height: 600 }, card: { width: 300, height: 100 } },
    },
    tokens: [{ kind: 'public', value: TOKEN }],
    types: [{ key: 'page', kind: 'page', fields: [{ key: 'image', type: 'asset' }] }],
    assets: [
      { id: 'ast_photo', file: 'photo.jpg', focal: { x: 0.96, y: 0.213 } },
      { id: 'ast_photo_left', file: 'photo.jpg', focal: { x: 0, y: 0.5 } },
      { id: 'ast_strip', file: 'strip.jpg' },
      { id: 'ast_rotated', file: 'rotated.jpg' },
      { id: 'ast_alpha', file: 'alpha.png' },
      { id: 'ast_anim', file: 'anim.gif' },
      { id: 'ast_svg', file: 'logo.svg' },
      { id: 'ast_pdf', file: 'doc.pdf' },
    ],
    entries: [
      {
        id: 'ent_home',
        type: 'page',
        name: 'Home',
        slug: '',
        parent: null,
        position: 0,
        tags: [],
        published: { at: '2026-03-01T10:00:00.000Z', firstAt: '2026-03-01T10:00:00.000Z' },
        fields: { image: { asset: 'ast_photo', crop: { x: 0.5, y: 0.1, width: 0.5, height: 0.6 } } },
      },
    ],
  };
}

const assetPath = (id: string, file: string, query = '') =>
  `/v1/${SPACE}/assets/${id}/${file}${query === '' ? '' : `?${query}`}`;

describe.each(ENGINES)('derived images on %s', (engine) => {
  let t: TestApp;
  let dir: string;

  const fetchImage = async (url: string, accept = WEBP, headers: Record<string, string> = {}) => {
    const res = await t.app.inject({ method: 'GET', url, headers: { accept, ...headers } });
    const meta =
      res.statusCode === 200 && String(res.headers['content-type']).startsWith('image/')
        ? await sharp(res.rawPayload).metadata()
        : null;
    return { res, meta };
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'folio-images-'));
    await writeImages(dir);
    const env = await openTestEnv(engine);
    await importBundle(env.store, env.blobs, imagesBundle(), { baseDir: dir });
    t = await serveEnv(env);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('widths (spec 2.3 rule 3)', () => {
    it.each([
      [1, 160],
      [160, 160],
      [161, 320],
      [500, 640],
      [640, 640],
      [700, 768],
      [1000, 1024],
      [1100, 1280],
      [1500, 1600],
      [1800, 1920],
      [2000, 2560],
      [3000, 3840],
      [3840, 3840],
    ])('w=%i is rounded up to %i', async (w, want) => {
      const { res, meta } = await fetchImage(assetPath('ast_strip', 'strip.jpg', `w=${w}`));
      expect(res.statusCode).toBe(200);
      expect(meta?.width).toBe(want);
      expect(meta?.height).toBe(Math.round((want * 100) / 4000) || 1);
    });

    it('covers every step of the ladder', () => {
      expect([...WIDTH_LADDER]).toEqual([160, 320, 480, 640, 768, 1024, 1280, 1600, 1920, 2560, 3840]);
    });

    it('never goes above the source: w=3840 of a 1000-pixel photo is 1000 wide', async () => {
      const { meta } = await fetchImage(assetPath('ast_photo', 'photo.jpg', 'w=3840'));
      expect([meta?.width, meta?.height]).toEqual([1000, 750]);
    });

    it('takes a height alone, w with h, and w with an aspect', async () => {
      // h=300 of 4:3 → 400 wide → 480 on the ladder → 360 high.
      expect((await fetchImage(assetPath('ast_photo', 'photo.jpg', 'h=300'))).meta).toMatchObject({
        width: 480,
        height: 360,
      });
      expect((await fetchImage(assetPath('ast_photo', 'photo.jpg', 'w=320&h=320'))).meta).toMatchObject({
        width: 320,
        height: 320,
      });
      expect((await fetchImage(assetPath('ast_photo', 'photo.jpg', 'w=640&ar=16:9'))).meta).toMatchObject({
        width: 640,
        height: 360,
      });
    });
  });

  describe('presets (spec 2.3 rule 4)', () => {
    it.each([
      ['thumb', 160, 160],
      ['hero', 1000, 563],
      ['og', 1000, 525],
      ['square', 600, 600],
      // The space's own `card` replaces the built-in 640×480.
      ['card', 300, 100],
    ])('%s is %i×%i of a 1000×750 photo', async (preset, width, height) => {
      const { meta } = await fetchImage(assetPath('ast_photo', 'photo.jpg', `preset=${preset}`));
      expect([meta?.width, meta?.height]).toEqual([width, height]);
    });

    it('takes a ladder width with a preset, keeping its aspect', async () => {
      const { meta } = await fetchImage(assetPath('ast_photo', 'photo.jpg', 'preset=og&w=600'));
      expect([meta?.width, meta?.height]).toEqual([640, 336]);
    });

    it('crops at the focal point: the marked pixel stays in frame', async () => {
      const red = async (id: string) => {
        const res = await t.app.inject({
          method: 'GET',
          url: assetPath(id, 'photo.jpg', 'preset=thumb&fm=png'),
        });
        const { data, info } = await sharp(res.rawPayload).raw().toBuffer({ resolveWithObject: true });
        let found = 0;
        for (let i = 0; i < data.length; i += info.channels) {
          if ((data[i] ?? 0) > 200 && (data[i + 1] ?? 255) < 80 && (data[i + 2] ?? 255) < 80) found++;
        }
        return found;
      };
      // A square of 750 at focal x 0.96 is x 250–1000, which holds the mark (x 950–970); the same photo
      // with its focal point at the left edge is cut at x 0–750, which does not.
      expect(await red('ast_photo')).toBeGreaterThan(4);
      expect(await red('ast_photo_left')).toBe(0);
    });
  });

  describe('signed crops (spec 2.3 rule 2)', () => {
    let url = '';
    beforeAll(async () => {
      const r = await t.get(`/v1/${SPACE}/entries/ent_home`, { authorization: `Bearer ${TOKEN}` });
      url = String(r.body.entry.content.fields.image.url).replace('http://folio.test', '');
      expect(r.body.entry.content.fields.image).toMatchObject({ width: 500, height: 450 });
    });

    it('delivers a url carrying the crop and a signature; it renders the cropped image', async () => {
      expect(url).toMatch(/\?crop=0\.5,0\.1,0\.5,0\.6&sig=[\w-]{22}$/);
      const { res, meta } = await fetchImage(url);
      expect(res.statusCode).toBe(200);
      expect([meta?.width, meta?.height]).toEqual([500, 450]);
    });

    it('keeps the crop when other widths and presets are derived from the url', async () => {
      expect((await fetchImage(`${url}&w=320`)).meta).toMatchObject({ width: 320, height: 288 });
      expect((await fetchImage(`${url}&preset=thumb`)).meta).toMatchObject({ width: 160, height: 160 });
    });

    it('answers 403 and no image for a forged, changed or missing signature', async () => {
      const sig = /sig=([\w-]{22})/.exec(url)?.[1] ?? '';
      const forged = sig.startsWith('A') ? `B${sig.slice(1)}` : `A${sig.slice(1)}`;
      for (const bad of [
        url.replace(sig, forged),
        url.replace('crop=0.5,0.1,0.5,0.6', 'crop=0.4,0.1,0.5,0.6'),
        url.replace(/&sig=.*$/, ''),
        url.replace(sig, 'short'),
        // The signature belongs to one asset.
        url.replace('ast_photo', 'ast_photo_left'),
      ]) {
        const res = await t.app.inject({ method: 'GET', url: bad, headers: { accept: WEBP } });
        expect(res.statusCode, bad).toBe(403);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.json().error.code).toBe('forbidden');
      }
    });
  });

  describe('formats by Accept (spec 2.3 rule 5)', () => {
    it.each([
      ['image/avif,image/webp,image/apng,*/*;q=0.8', 'image/avif', 'heif'],
      ['image/webp,*/*', 'image/webp', 'webp'],
      ['image/avif;q=0,image/webp', 'image/webp', 'webp'],
      ['*/*', 'image/jpeg', 'jpeg'],
      ['', 'image/jpeg', 'jpeg'],
    ])('Accept %j → %s', async (accept, type, format) => {
      const { res, meta } = await fetchImage(assetPath('ast_photo', 'photo.jpg', 'w=160'), accept);
      expect(res.headers['content-type']).toBe(type);
      expect(res.headers.vary).toBe('Accept');
      expect(meta?.format).toBe(format);
    });

    it('follows fm over Accept, without Vary', async () => {
      const { res, meta } = await fetchImage(assetPath('ast_photo', 'photo.jpg', 'w=160&fm=png'));
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers.vary).toBeUndefined();
      expect(meta?.format).toBe('png');
    });

    it('keeps transparency: WebP with alpha, and PNG for a client without WebP', async () => {
      expect((await fetchImage(assetPath('ast_alpha', 'alpha.png', 'w=160'))).meta).toMatchObject({
        format: 'webp',
        hasAlpha: true,
      });
      expect((await fetchImage(assetPath('ast_alpha', 'alpha.png', 'w=160'), '*/*')).meta).toMatchObject({
        format: 'png',
        hasAlpha: true,
      });
    });
  });

  describe('sources', () => {
    it('applies EXIF orientation: a portrait photo stored landscape derives portrait, without its EXIF', async () => {
      const { meta } = await fetchImage(assetPath('ast_rotated', 'rotated.jpg', 'w=160'), '*/*');
      expect([meta?.width, meta?.height]).toEqual([160, 240]);
      expect(meta?.orientation).toBeUndefined();
      expect(meta?.exif).toBeUndefined();
    });

    it('derives the first frame of an animated GIF', async () => {
      const { meta, res } = await fetchImage(assetPath('ast_anim', 'anim.gif', 'q=80'));
      expect(res.statusCode).toBe(200);
      expect(meta).toMatchObject({ format: 'webp', width: 40, height: 30 });
      expect(meta?.pages ?? 1).toBe(1);
      const first = await sharp(res.rawPayload).raw().toBuffer();
      expect(first[0]).toBeGreaterThan(200); // red, the first frame
    });

    it('serves an SVG original only as an attachment, and rasterises derived sizes', async () => {
      const original = await t.app.inject({ method: 'GET', url: assetPath('ast_svg', 'logo.svg') });
      expect(original.statusCode).toBe(200);
      expect(original.headers['content-disposition']).toMatch(/^attachment;/);
      expect(original.headers['content-security-policy']).toMatch(/sandbox/);
      const { meta } = await fetchImage(assetPath('ast_svg', 'logo.svg', 'w=160'), '*/*');
      expect(meta).toMatchObject({ format: 'png', width: 100, height: 50 });
    });

    it('serves originals as before, and refuses image parameters on a file that is no image', async () => {
      const pdf = await t.app.inject({ method: 'GET', url: assetPath('ast_pdf', 'doc.pdf') });
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      const res = await t.app.inject({ method: 'GET', url: assetPath('ast_pdf', 'doc.pdf', 'w=160') });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('invalid_query');
    });

    it('answers 404 for an unknown asset, with or without parameters', async () => {
      for (const q of ['', 'w=160']) {
        const res = await t.app.inject({ method: 'GET', url: assetPath('ast_nope', 'x.jpg', q) });
        expect(res.statusCode).toBe(404);
        expect(res.json().error.code).toBe('not_found');
      }
    });
  });

  describe('bad parameters: 400 invalid_query', () => {
    it.each([
      'width=160',
      'w=0',
      'w=3841',
      'w=abc',
      'w=1.5',
      'w=160&w=320',
      'h=0',
      'q=0',
      'q=101',
      'fm=bmp',
      'ar=16x9',
      'ar=0:9',
      'h=100&ar=1:1',
      'preset=thumb&h=100',
      'preset=nope',
      'preset=../x',
      'sig=AAAAAAAAAAAAAAAAAAAAAA',
      'crop=0.5,0.5,0.6,0.1&sig=AAAAAAAAAAAAAAAAAAAAAA',
      'crop=a,b,c,d&sig=AAAAAAAAAAAAAAAAAAAAAA',
      'crop=0,0,0,0.5&sig=AAAAAAAAAAAAAAAAAAAAAA',
    ])('%s', async (query) => {
      const res = await t.app.inject({ method: 'GET', url: assetPath('ast_photo', 'photo.jpg', query) });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('invalid_query');
    });
  });

  describe('caching', () => {
    it('serves immutable responses with an ETag, and 304 for a matching If-None-Match', async () => {
      const url = assetPath('ast_photo', 'photo.jpg', 'w=480');
      const first = await fetchImage(url);
      expect(first.res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const etag = String(first.res.headers.etag);
      expect(etag).toMatch(/^"[\w-]{27}"$/);
      const again = await fetchImage(url);
      expect(again.res.headers.etag).toBe(etag);
      expect(again.res.rawPayload.equals(first.res.rawPayload)).toBe(true);
      const revalidated = await t.app.inject({
        method: 'GET',
        url,
        headers: { accept: WEBP, 'if-none-match': etag },
      });
      expect(revalidated.statusCode).toBe(304);
      expect(revalidated.rawPayload.length).toBe(0);
    });

    it('shares one variant between widths on the same ladder step', async () => {
      const a = await fetchImage(assetPath('ast_photo', 'photo.jpg', 'w=500'));
      const b = await fetchImage(assetPath('ast_photo', 'photo.jpg', 'w=640'));
      expect(a.res.headers.etag).toBe(b.res.headers.etag);
    });

    it('keeps derived files in the blob store: a fresh instance serves them without the original', async () => {
      const url = assetPath('ast_strip', 'strip.jpg', 'w=320');
      const first = await fetchImage(url);
      // Another instance on the same store and blobs, with the original gone: only the stored variant remains.
      const other = await serveEnv({ ...t, close: async () => {} });
      const original = (
        await t.store.db
          .selectFrom('assets')
          .select('blob_key')
          .where('space_id', '=', SPACE)
          .where('id', '=', 'ast_strip')
          .executeTakeFirstOrThrow()
      ).blob_key;
      const saved = await t.blobs.get(original);
      const bytes = saved ? Buffer.concat(await saved.stream.toArray()) : Buffer.alloc(0);
      await t.blobs.delete(original);
      try {
        const res = await other.app.inject({ method: 'GET', url, headers: { accept: WEBP } });
        expect(res.statusCode).toBe(200);
        expect(res.headers.etag).toBe(first.res.headers.etag);
        // A variant nobody derived yet needs the original: now a 404.
        const fresh = await other.app.inject({
          method: 'GET',
          url: `${url}&q=50`,
          headers: { accept: WEBP },
        });
        expect(fresh.statusCode).toBe(404);
      } finally {
        await t.blobs.put(original, bytes);
        await other.app.close();
      }
    });

    it('derives a variant once for concurrent requests', async () => {
      const url = assetPath('ast_photo', 'photo.jpg', 'w=768&q=61');
      const all = await Promise.all(Array.from({ length: 6 }, () => fetchImage(url)));
      const etags = new Set(all.map((r) => r.res.headers.etag));
      expect(etags.size).toBe(1);
      expect(all.every((r) => r.res.statusCode === 200)).toBe(true);
    });
  });
});

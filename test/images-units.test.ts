// The pure parts of the image pipeline: the plan's arithmetic, the parameter parser, Accept, crop
// signatures and the work queue's bounds.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cropParam, cropSignature, parseContentCrop, validCropSignature } from '../src/lib/crop.js';
import { BUILTIN_PRESETS, ladderWidth, planImage, WIDTH_LADDER } from '../src/assets/geometry.js';
import { DEFAULT_QUALITY } from '../src/assets/derive.js';
import { parseImageQuery, QUALITY_STEPS, snapQuality } from '../src/assets/image-params.js';
import { ImageWork } from '../src/assets/image-work.js';
import { accepts, negotiateFormat } from '../src/assets/negotiate.js';
import { FolioError } from '../src/errors/errors.js';

describe('planImage', () => {
  const source = fc.record({
    width: fc.integer({ min: 1, max: 16000 }),
    height: fc.integer({ min: 1, max: 16000 }),
    focal: fc.option(
      fc.record({
        x: fc.double({ min: 0, max: 1, noNaN: true }),
        y: fc.double({ min: 0, max: 1, noNaN: true }),
      }),
    ),
  });
  const crop = fc.option(
    fc
      .tuple(
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 1, max: 10000 }),
        fc.integer({ min: 1, max: 10000 }),
      )
      .map(([x, y, w, h]) =>
        parseContentCrop({
          x: x / 10000,
          y: y / 10000,
          width: Math.min(w, 10000 - x) / 10000 || 0.0001,
          height: Math.min(h, 10000 - y) / 10000 || 0.0001,
        }),
      ),
  );
  const query = fc.record({
    width: fc.option(fc.integer({ min: 1, max: 3840 })),
    height: fc.option(fc.integer({ min: 1, max: 3840 })),
    aspect: fc.option(
      fc.tuple(fc.integer({ min: 1, max: 999 }), fc.integer({ min: 1, max: 999 })).map(([a, b]) => a / b),
    ),
    preset: fc.option(fc.constantFrom(...Object.keys(BUILTIN_PRESETS))),
  });

  it('keeps the region inside the source, never upscales, and lands on the ladder when a width is asked', () => {
    fc.assert(
      fc.property(source, crop, query, (src, c, q) => {
        const plan = planImage(src, q, c ?? null, {});
        const { region } = plan;
        expect(region.left).toBeGreaterThanOrEqual(0);
        expect(region.top).toBeGreaterThanOrEqual(0);
        expect(region.width).toBeGreaterThanOrEqual(1);
        expect(region.height).toBeGreaterThanOrEqual(1);
        expect(region.left + region.width).toBeLessThanOrEqual(src.width);
        expect(region.top + region.height).toBeLessThanOrEqual(src.height);
        expect(plan.width).toBeGreaterThanOrEqual(1);
        expect(plan.height).toBeGreaterThanOrEqual(1);
        expect(plan.width).toBeLessThanOrEqual(region.width);
        if (q.width !== null)
          expect(plan.width === ladderWidth(q.width) || plan.width === region.width).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('centres a preset on the focal point as far as the edges allow', () => {
    const plan = planImage(
      { width: 1000, height: 500, focal: { x: 0.6, y: 0.5 } },
      { width: null, height: null, aspect: null, preset: 'thumb' },
      null,
      {},
    );
    expect(plan.region).toEqual({ left: 350, top: 0, width: 500, height: 500 });
    const edge = planImage(
      { width: 1000, height: 500, focal: { x: 0.99, y: 0.5 } },
      { width: null, height: null, aspect: null, preset: 'thumb' },
      null,
      {},
    );
    expect(edge.region.left).toBe(500);
  });

  it('rounds widths up to the ladder', () => {
    expect(WIDTH_LADDER.map((w) => ladderWidth(w))).toEqual([...WIDTH_LADDER]);
    expect(ladderWidth(1)).toBe(160);
    expect(ladderWidth(2561)).toBe(3840);
  });
});

describe('parseImageQuery', () => {
  it('never throws anything but a 400 invalid_query', () => {
    const value = fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 2 }), fc.integer());
    const key = fc.constantFrom('w', 'h', 'ar', 'preset', 'q', 'fm', 'crop', 'sig', 'x', '__proto__');
    fc.assert(
      fc.property(fc.dictionary(key, value), (query) => {
        try {
          parseImageQuery(query);
        } catch (err) {
          expect(err).toBeInstanceOf(FolioError);
          expect((err as FolioError).status).toBe(400);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('reads every parameter', () => {
    expect(parseImageQuery({ w: '640', ar: '16:9', q: '70', fm: 'webp' })).toEqual({
      width: 640,
      height: null,
      aspect: 16 / 9,
      preset: null,
      // Snapped to the nearest step.
      quality: 75,
      format: 'webp',
      crop: null,
    });
    expect(parseImageQuery({ crop: '0.5,0.1,0.5,0.6' }).crop).toEqual({
      crop: { x: 0.5, y: 0.1, width: 0.5, height: 0.6 },
      sig: null,
    });
  });
});

describe('q snaps to a few steps', () => {
  it.each([
    [1, 25],
    [37, 25],
    [38, 50],
    [54, 50],
    [55, 60],
    [67, 60],
    [68, 75],
    [78, 80],
    [85, 90],
    [95, 100],
    [100, 100],
  ])('q=%i makes the variant of q=%i', (q, step) => {
    expect(parseImageQuery({ q: String(q) }).quality).toBe(step);
  });

  it('has seven steps, every default among them', () => {
    expect(QUALITY_STEPS).toHaveLength(7);
    for (const q of Object.values(DEFAULT_QUALITY)) expect(QUALITY_STEPS).toContain(q);
    expect(new Set(Array.from({ length: 100 }, (_, i) => snapQuality(i + 1)))).toEqual(
      new Set(QUALITY_STEPS),
    );
  });
});

describe('crop signatures', () => {
  const key = Buffer.alloc(32, 7);
  it('sign the crop as parsed, per space and asset', () => {
    const crop = { x: 0.5, y: 0.1, width: 0.5, height: 0.6 };
    const sig = cropSignature(key, 'spc_a', 'ast_1', crop);
    expect(sig).toMatch(/^[\w-]{22}$/);
    expect(validCropSignature(key, 'spc_a', 'ast_1', crop, sig)).toBe(true);
    expect(validCropSignature(key, 'spc_b', 'ast_1', crop, sig)).toBe(false);
    expect(validCropSignature(key, 'spc_a', 'ast_2', crop, sig)).toBe(false);
    expect(validCropSignature(Buffer.alloc(32, 8), 'spc_a', 'ast_1', crop, sig)).toBe(false);
    expect(validCropSignature(key, 'spc_a', 'ast_1', { ...crop, x: 0.4 }, sig)).toBe(false);
    expect(cropParam(crop)).toBe('0.5,0.1,0.5,0.6');
  });

  it('take crops from content only when they are inside the image', () => {
    expect(parseContentCrop({ x: 0.5, y: 0, width: 0.6, height: 1 })).toBeNull();
    expect(parseContentCrop({ x: 0, y: 0, width: 0, height: 1 })).toBeNull();
    expect(parseContentCrop({ x: '0', y: 0, width: 1, height: 1 })).toBeNull();
    expect(parseContentCrop([0, 0, 1, 1])).toBeNull();
    expect(parseContentCrop({ x: 0.123456, y: 0, width: 0.5, height: 1 })).toEqual({
      x: 0.1235,
      y: 0,
      width: 0.5,
      height: 1,
    });
  });
});

describe('Accept', () => {
  it.each([
    ['image/avif,image/webp,*/*', 'image/jpeg', 'avif'],
    ['image/webp', 'image/png', 'webp'],
    ['image/*', 'image/png', 'png'],
    ['image/avif;q=0, image/webp;q=0.5', 'image/gif', 'webp'],
    ['text/html', 'image/webp', 'png'],
    ['', 'image/svg+xml', 'png'],
    ['', 'image/tiff', 'jpeg'],
  ])('%j for %s → %s', (accept, mime, want) => {
    expect(negotiateFormat(mime, accept)).toBe(want);
  });
  it('ignores a zero q', () => expect(accepts('image/webp;q=0', 'image/webp')).toBe(false));
});

describe('ImageWork', () => {
  const later = () => new Promise<void>((resolve) => setTimeout(resolve, 5));

  it('runs one job per key for concurrent askers, at most `concurrency` at once', async () => {
    const work = new ImageWork({ concurrency: 2, maxWaiting: 100 });
    let running = 0;
    let peak = 0;
    const calls = new Map<string, number>();
    const job = (key: string) => async () => {
      calls.set(key, (calls.get(key) ?? 0) + 1);
      running++;
      peak = Math.max(peak, running);
      await later();
      running--;
      return Buffer.from(key);
    };
    const keys = ['a', 'b', 'c', 'd', 'e'];
    const results = await Promise.all(keys.flatMap((k) => [work.run(k, job(k)), work.run(k, job(k))]));
    expect(results.map(String)).toEqual(keys.flatMap((k) => [k, k]));
    expect([...calls.values()]).toEqual([1, 1, 1, 1, 1]);
    expect(peak).toBe(2);
    expect(work.stats).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses with 503 unavailable when the queue is full, and recovers; a failing job frees its slot', async () => {
    const work = new ImageWork({ concurrency: 1, maxWaiting: 1 });
    const slow = work.run('a', async () => (await later(), Buffer.from('a')));
    const queued = work.run('b', async () => Buffer.from('b'));
    await expect(work.run('c', async () => Buffer.from('c'))).rejects.toMatchObject({
      code: 'unavailable',
      status: 503,
    });
    await Promise.all([slow, queued]);
    await expect(work.run('d', async () => Promise.reject(new Error('bad image')))).rejects.toThrow(
      'bad image',
    );
    expect(String(await work.run('e', async () => Buffer.from('e')))).toBe('e');
    expect(work.stats).toEqual({ running: 0, waiting: 0 });
  });
});

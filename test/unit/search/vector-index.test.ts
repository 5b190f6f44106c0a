import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalize } from '../../../src/search/embedder.js';
import { packVector, unpackVector } from '../../../src/search/vector-bytes.js';
import { ExactVectorIndex } from '../../../src/search/vector-index.js';

const vec = (...xs: number[]) => normalize(Float32Array.from(xs));
const row = (entryId: string, cvFrom: number, type = 'page', chunk = 0) => ({
  entryId,
  cvFrom,
  cvTo: null,
  type,
  chunk,
});

describe('ExactVectorIndex', () => {
  it('ranks by cosine and honours the cv and type of each row', () => {
    const index = new ExactVectorIndex(3, 1);
    index.add(row('ent_a', 1), vec(1, 0, 0));
    index.add(row('ent_b', 1, 'post'), vec(0.9, 0.1, 0));
    index.add(row('ent_c', 2), vec(0, 1, 0));
    index.add(row('ent_a', 3), vec(0, 0, 1));
    index.close('ent_a', 1, 3);
    const q = vec(1, 0, 0);
    expect(index.nearest(q, 2, { cv: 2, type: null }).map((h) => h.row.entryId)).toEqual(['ent_a', 'ent_b']);
    // At cv 3 the first version of ent_a is closed: its new version points elsewhere.
    expect(index.nearest(q, 1, { cv: 3, type: null }).map((h) => h.row.entryId)).toEqual(['ent_b']);
    expect(index.nearest(q, 5, { cv: 1, type: 'post' }).map((h) => h.row.entryId)).toEqual(['ent_b']);
    expect(index.nearest(q, 5, { cv: 3, type: 'nope' })).toEqual([]);
    expect(index.size).toBe(4);
  });

  it('finds the same top k as sorting every score', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.float({ min: -1, max: 1, noNaN: true }), { minLength: 5, maxLength: 5 }), {
          minLength: 1,
          maxLength: 80,
        }),
        fc.integer({ min: 1, max: 10 }),
        (vectors, k) => {
          const index = new ExactVectorIndex(5, 4);
          vectors.forEach((v, i) => index.add(row(`ent_${i}`, 1), Float32Array.from(v)));
          const q = Float32Array.from([0.3, -0.2, 0.5, 0.1, 0.7]);
          const dot = (v: number[]) => v.reduce((s, x, i) => s + Math.fround(x) * q[i]!, 0);
          const expected = vectors
            .map(dot)
            .sort((a, b) => b - a)
            .slice(0, k);
          const got = index.nearest(q, k, { cv: 1, type: null }).map((h) => h.score);
          expect(got.length).toBe(expected.length);
          got.forEach((s, i) => expect(s).toBeCloseTo(expected[i]!, 4));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('ExactVectorIndex, sliced scan', () => {
  /** A deterministic pseudo-random unit vector (the same seed, the same vector). */
  const randomUnit = (seed: number, dim: number) => {
    // mulberry32: 32-bit integer steps, exact in JavaScript numbers.
    let x = seed >>> 0;
    return normalize(
      Float32Array.from({ length: dim }, () => {
        x = (x + 0x6d2b79f5) >>> 0;
        let t = Math.imul(x ^ (x >>> 15), x | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 2 ** 31 - 1;
      }),
    );
  };
  const filled = (n: number, dim: number) => {
    const index = new ExactVectorIndex(dim, 16);
    for (let i = 0; i < n; i++)
      index.add(row(`ent_${i}`, 1 + (i % 3), i % 2 === 0 ? 'post' : 'page'), randomUnit(i + 1, dim));
    return index;
  };
  const ids = (hits: { row: { entryId: string } }[]) => hits.map((h) => h.row.entryId);
  /** A slicer that yields a whole loop turn on every tick, so scans interleave, and counts its ticks. */
  const turnSlicer = () => {
    const s = { ticks: 0, tick: () => new Promise<void>((r) => setImmediate(r)).then(() => void s.ticks++) };
    return s;
  };

  it('answers what the unsliced scan answers, ticking between chunks of rows', async () => {
    const index = filled(20_000, 12);
    for (const at of [
      { cv: 2, type: null },
      { cv: 3, type: 'post' },
    ]) {
      const q = randomUnit(100_003, 12);
      const slicer = turnSlicer();
      const sliced = await index.nearestSliced(q, 20, at, slicer);
      expect(ids(sliced)).toEqual(ids(index.nearest(q, 20, at)));
      expect(sliced).toHaveLength(20);
      // 20,000 rows in chunks of 8,192: a tick before each of the three chunks.
      expect(slicer.ticks).toBe(3);
    }
  });

  it('keeps two scans of one index apart while they interleave, and while rows are added', async () => {
    const index = filled(20_000, 12);
    const [qa, qb] = [randomUnit(100_001, 12), randomUnit(100_002, 12)];
    const at = { cv: 3, type: null };
    const expectA = ids(index.nearest(qa, 10, at));
    const expectB = ids(index.nearest(qb, 10, at));
    const a = index.nearestSliced(qa, 10, at, turnSlicer());
    const b = index.nearestSliced(qb, 10, at, turnSlicer());
    // Grows the index past its capacity between chunks: its memory and arrays are replaced under the scans.
    // 20,000 rows in 32,768 of room: the 12,769th row added grows it, after both scans' first chunk.
    const growing = (async () => {
      for (let i = 0; i < 20_000; i++) {
        if (i % 13_000 === 0) await new Promise((r) => setImmediate(r));
        index.add(row(`new_${i}`, 1), i % 2 === 0 ? qa : qb);
      }
    })();
    const [gotA, gotB] = await Promise.all([a, b, growing]);
    expect(ids(gotA)).toEqual(expectA);
    expect(ids(gotB)).toEqual(expectB);
    expect(expectA).not.toEqual(expectB);
    // Once they are in, the rows added (copies of the queries) rank first.
    expect(ids(index.nearest(qa, 3, at)).every((id) => id.startsWith('new_'))).toBe(true);
  });
});

describe('vector bytes', () => {
  it('round-trips packed float32 and refuses bytes that are not whole float32s', () => {
    const v = Float32Array.from([0.5, -1.25, 3e-8]);
    expect([...unpackVector(packVector(v))!]).toEqual([...v]);
    // An odd offset, as a driver's pooled buffer may have.
    const shifted = new Uint8Array(13);
    shifted.set(packVector(v), 1);
    expect([...unpackVector(shifted.subarray(1))!]).toEqual([...v]);
    expect(unpackVector(new Uint8Array(5))).toBeNull();
    expect(unpackVector(new Uint8Array(0))).toBeNull();
  });
});

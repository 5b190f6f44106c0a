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

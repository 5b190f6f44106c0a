import { describe, expect, it } from 'vitest';
import { compileDotProduct, moduleSource } from '../../../scripts/build-wasm.js';
import { DOT_PRODUCT_WASM } from '../../../src/search/dot-product-wasm.js';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

describe('the SIMD dot product module', () => {
  it('is the compiled dot-product.wat, byte for byte', async () => {
    const fresh = await compileDotProduct();
    expect(DOT_PRODUCT_WASM).toBe(fresh);
    const file = readFileSync(
      fileURLToPath(new URL('../../../src/search/dot-product-wasm.ts', import.meta.url)),
      'utf8',
    );
    expect(file).toBe(moduleSource(fresh));
  });

  it('computes dot products of padded rows like plain arithmetic', () => {
    const { exports } = new WebAssembly.Instance(
      new WebAssembly.Module(Buffer.from(DOT_PRODUCT_WASM, 'base64')),
    );
    const memory = exports.memory as WebAssembly.Memory;
    const scores = exports.scores as (v: number, n: number, dim: number, q: number, out: number) => void;
    const dim = 16;
    const rows = 3;
    const f = new Float32Array(memory.buffer);
    for (let i = 0; i < rows * dim; i++) f[i] = (i % 7) - 3;
    for (let j = 0; j < dim; j++) f[rows * dim + j] = j / 4;
    scores(0, rows, dim, rows * dim * 4, (rows + 1) * dim * 4);
    for (let r = 0; r < rows; r++) {
      let expected = 0;
      for (let j = 0; j < dim; j++) expected += f[r * dim + j]! * f[rows * dim + j]!;
      expect(f[(rows + 1) * dim + r]).toBeCloseTo(expected, 4);
    }
  });
});

import { describe, expect, it } from 'vitest';

import { decimalPlaces, isOnStep, parseDecimal } from '../../../../src/forms/rules/step.js';

describe('isOnStep (value = base + k*step, exact decimals)', () => {
  it.each([
    [0.3, 0.1, 0, true],
    [0.35, 0.1, 0, false],
    ['0.3', '0.1', 0, true],
    [0.7, 0.1, 0, true],
    [1.1, 0.1, 0, true],
    [0.1 + 0.2, 0.1, 0, false], // 0.30000000000000004 is not on a 0.1 grid
    [3, 2, 1, true],
    [4, 2, 1, false],
    [-1, 2, 1, true], // below the base is still on the grid; range checks are separate
    [1.15, 0.01, 0.05, true],
    [3e-7, 1e-7, 0, true],
    [3.5e-7, 1e-7, 0, false],
    ['0.0000003', '1e-7', 0, true],
    [1e21, 1e20, 0, true],
    [10, 2.5, 0, true],
    [10, 3, 0, false],
    [0, 0.1, 0, true],
    [19.99, 0.01, 0, true],
    [5, 0.5, 0.25, false],
    [5.25, 0.5, 0.25, true],
  ] as const)('%s with step %s from %s → %s', (value, step, base, expected) => {
    expect(isOnStep(value, step, base)).toBe(expected);
  });

  it('never matches a non-positive or unusable step', () => {
    expect(isOnStep(1, 0)).toBe(false);
    expect(isOnStep(1, -1)).toBe(false);
    expect(isOnStep(1, Number.NaN)).toBe(false);
    expect(isOnStep(Number.POSITIVE_INFINITY, 1)).toBe(false);
    expect(isOnStep('abc', 1)).toBe(false);
  });
});

describe('parseDecimal', () => {
  it.each([
    ['0.1', 1n, -1],
    ['-1.50', -150n, -2],
    ['1e-7', 1n, -7],
    ['2.5E+3', 25n, 2],
    ['.5', 5n, -1],
    ['7.', 7n, 0],
  ] as const)('%s', (text, mantissa, exponent) => {
    expect(parseDecimal(text)).toEqual({ mantissa, exponent });
  });

  it.each(['', '.', 'e5', '1e', '0x10', '1,5', '1e999999999'])('rejects %j', (text) => {
    expect(parseDecimal(text)).toBeNull();
  });

  it('counts decimal places', () => {
    expect(decimalPlaces(0.25)).toBe(2);
    expect(decimalPlaces(1e-7)).toBe(7);
    expect(decimalPlaces(100)).toBe(0);
  });
});

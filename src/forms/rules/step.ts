// Step checking without binary floating-point error (spec 7.4 `invalid_step`; the spec leaves the
// rule itself open). A value fits when value = base + k*step for an integer k, where base is the
// field's `min` when set, else 0 — the same rule HTML uses for <input type="number">. Numbers are
// compared as exact decimals (their shortest string form, as JavaScript prints them), so 0.3 with
// step 0.1 fits although 0.3 / 0.1 is 2.9999999999999996 in floating point.

/** An exact decimal: mantissa × 10^exponent. */
interface Decimal {
  mantissa: bigint;
  exponent: number;
}

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

// Guards BigInt sizes against strings like "1e999999999"; doubles never exceed ±324 or so.
const MAX_EXPONENT = 400;

/** Parses a decimal string or a finite number into an exact decimal; null when it is not one. */
export function parseDecimal(input: number | string): Decimal | null {
  if (typeof input === 'number' && !Number.isFinite(input)) return null;
  const text = typeof input === 'number' ? String(input) : input.trim();
  const m = DECIMAL.exec(text);
  if (!m) return null;
  const [, sign = '', whole = '', fraction = '', exp = '0'] = m;
  if (whole === '' && fraction === '') return null;
  const exponent = Number(exp) - fraction.length;
  if (Math.abs(exponent) > MAX_EXPONENT) return null;
  const mantissa = BigInt(`${sign}${whole}${fraction}` || '0');
  return { mantissa, exponent };
}

/** Number of decimal places of the exact decimal (0 for integers), e.g. 0.25 → 2, 1e-7 → 7. */
export function decimalPlaces(input: number | string): number {
  const d = parseDecimal(input);
  return d ? Math.max(0, -d.exponent) : 0;
}

function scaled(d: Decimal, exponent: number): bigint {
  return d.mantissa * 10n ** BigInt(d.exponent - exponent);
}

/**
 * Whether `value` is `base + k*step` for an integer k (k may be negative: values below the base are
 * range-checked separately). A non-positive or unparsable step never matches.
 */
export function isOnStep(value: number | string, step: number | string, base: number | string = 0): boolean {
  const v = parseDecimal(value);
  const s = parseDecimal(step);
  const b = parseDecimal(base);
  if (!v || !s || !b || s.mantissa <= 0n) return false;
  // Scale all three to the smallest exponent so they become integers on one grid.
  const e = Math.min(v.exponent, s.exponent, b.exponent);
  return (scaled(v, e) - scaled(b, e)) % scaled(s, e) === 0n;
}

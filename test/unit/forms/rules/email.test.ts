import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasBidiControl, normalizeEmail } from '../../../../src/forms/rules/email.js';
import { isEmail } from '../../../../src/forms/rules/field-checks.js';

// One visitor, one identity. The variants a person cannot tell apart compare equal; the
// normalizer takes any text (spam values are stored raw) without throwing, and is idempotent.

const INVISIBLE = [
  '\u200b',
  '\u200c',
  '\u200d',
  '\u2060',
  '\ufeff',
  '\u00ad',
  '\u200e',
  '\u202e',
  '\u2066',
  '\u034f',
];

/** Any text, biased towards what matters here: invisible characters, quotes, fullwidth and odd letters. */
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc
    .array(
      fc.oneof(
        fc.constantFrom(
          ...INVISIBLE,
          '"',
          '@',
          '.',
          ' ',
          'ß',
          'ẞ',
          'İ',
          'ﬁ',
          '㎒',
          'Ａ',
          '＂',
          '＠',
          'ǅ',
          'Ω',
        ),
        fc.string({ maxLength: 3 }),
      ),
      { maxLength: 20 },
    )
    .map((parts) => parts.join('')),
);

/** Plain ASCII addresses, and the same with every printable character in its fullwidth form (U+FF01…). */
const ascii = fc
  .tuple(fc.stringMatching(/^[a-z0-9._+-]{1,12}$/), fc.stringMatching(/^[a-z0-9-]{1,10}\.[a-z]{2,6}$/))
  .map(([local, domain]) => `${local}@${domain}`);
const fullwidth = (s: string) =>
  [...s].map((c) => (c >= '!' && c <= '~' ? String.fromCodePoint(c.codePointAt(0)! + 0xfee0) : c)).join('');

describe('normalizeEmail', () => {
  it('never throws, and normalizing twice is normalizing once (property)', () => {
    fc.assert(
      fc.property(text, (t) => {
        const once = normalizeEmail(t);
        expect(normalizeEmail(once)).toBe(once);
        expect(hasBidiControl(once)).toBe(false);
        expect(once).not.toMatch(/\p{Default_Ignorable_Code_Point}/u);
      }),
      { numRuns: 3000 },
    );
  });

  it('sees through case, fullwidth forms, invisible characters and needless quotes (property)', () => {
    fc.assert(
      fc.property(
        ascii,
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(...INVISIBLE)), { maxLength: 4 }),
        (a, inserts) => {
          const plain = normalizeEmail(a);
          expect(normalizeEmail(a.toUpperCase())).toBe(plain);
          expect(normalizeEmail(fullwidth(a))).toBe(plain);
          const chars = [...a];
          for (const [at, c] of inserts) chars.splice(at % (chars.length + 1), 0, c);
          expect(normalizeEmail(chars.join(''))).toBe(plain);
          const [local, domain] = a.split('@');
          if (!/^\.|\.\.|\.$/.test(local ?? '')) expect(normalizeEmail(`"${local}"@${domain}`)).toBe(plain);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it.each([
    ['uniq@example.com', 'uniq@example.com'],
    ['UNIQ@Example.COM', 'uniq@example.com'],
    ['uniq@example.com\u200b', 'uniq@example.com'],
    ['"uniq"@example.com', 'uniq@example.com'],
    ['＂uniq＂＠example.com', 'uniq@example.com'],
    ['ｕniq@example.com', 'uniq@example.com'],
    ['uniq@ｅｘａｍｐｌｅ.ｃｏｍ', 'uniq@example.com'],
    ['uni\u00adq@example.com', 'uniq@example.com'],
    ['𝐮niq@example.com', 'uniq@example.com'],
    ['\u202euniq@example.com\u202c', 'uniq@example.com'],
    // Quotes that say something stay: a space, or dots a dot-atom may not have.
    ['"uni q"@example.com', '"uni q"@example.com'],
    ['"uniq."@example.com', '"uniq."@example.com'],
  ])('%j compares as %j', (typed, compared) => {
    expect(normalizeEmail(typed)).toBe(compared);
  });
});

describe('isEmail and bidirectional controls', () => {
  it.each([
    '\u202e',
    '\u202d',
    '\u2066',
    '\u2067',
    '\u2068',
    '\u2069',
    '\u200e',
    '\u200f',
    '\u061c',
    '\u202a',
  ])('refuses an address holding %j', (control) => {
    expect(isEmail(`ada${control}@example.com`)).toBe(false);
    expect(isEmail('ada@example.com')).toBe(true);
  });
});

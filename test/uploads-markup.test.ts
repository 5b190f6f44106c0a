import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContentSniffer, sniffBytes } from '../src/files/sniff.js';
import {
  ACCEPTED_ENCODED,
  ACCEPTED_MARKUP,
  REFUSED_ENCODED,
  REFUSED_MARKUP,
  UTF16BE_HTML,
  UTF16_HTML,
} from './helpers/markup-cases.js';

// SVG and XML are read whole by a namespace-aware XML parser (saxes), whatever their encoding;
// text is never taken for audio. The same table runs through form uploads, asset uploads and bundle imports
// (forms-uploads, assets-ingest).

const REFUSED = [...REFUSED_MARKUP, ...REFUSED_ENCODED];
const ACCEPTED = [...ACCEPTED_MARKUP, ...ACCEPTED_ENCODED];

/** The outcome of the bytes written to a sniffer in the chunks `cuts` makes (offsets into the file). */
async function sniffInChunks(bytes: Buffer, cuts: readonly number[], declared: string) {
  const sniffer = new ContentSniffer();
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    sniffer.write(bytes.subarray(from, cut));
    from = cut;
  }
  sniffer.write(bytes.subarray(from));
  return sniffer.outcome(declared);
}

describe('the XML check', () => {
  it.each(REFUSED)('refuses $name', async ({ bytes }) => {
    const out = await sniffBytes(bytes, 'image/svg+xml');
    expect(out).toEqual({ ok: false, reason: expect.any(String) });
  });

  it.each(ACCEPTED)('accepts $name as $type', async ({ bytes, type }) => {
    expect(await sniffBytes(bytes, 'image/svg+xml')).toMatchObject({ ok: true, type });
  });

  it.each([
    ['<s:script>', REFUSED_MARKUP[0], /SVG with a <s:script> element/],
    ['a DOCTYPE', REFUSED_MARKUP[4], /SVG with a DOCTYPE/],
    [
      'a tag left open',
      REFUSED_MARKUP.find((c) => c.name.startsWith('a tag left open')),
      /not well-formed XML/,
    ],
    ['UTF-7', REFUSED_ENCODED.at(-1), /encoding browsers do not read \(utf-7\)/],
  ])('names what it refuses: %s', async (_name, c, reason) => {
    expect(c).toBeDefined();
    const out = await sniffBytes(c?.bytes ?? Buffer.alloc(0), '');
    expect(out.ok ? '' : out.reason).toMatch(reason);
  });

  it('reaches the same verdict however the file is cut into chunks (property)', async () => {
    const cases = [...REFUSED, ...ACCEPTED].filter((c) => c.bytes.length < 100_000);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...cases),
        fc.array(fc.nat(), { maxLength: 6 }),
        async (c, offsets) => {
          const cuts = offsets.map((o) => o % (c.bytes.length + 1));
          const whole = await sniffBytes(c.bytes, 'image/svg+xml');
          expect(await sniffInChunks(c.bytes, cuts, 'image/svg+xml')).toEqual(whole);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads a large SVG cut at the head and in the middle of UTF-16 characters', async () => {
    const big = REFUSED_MARKUP.find((c) => c.bytes.length > 400_000);
    expect(big).toBeDefined();
    const bytes = big?.bytes ?? Buffer.alloc(0);
    expect((await sniffInChunks(bytes, [1, 65_535, 65_537, 200_001], '')).ok).toBe(false);
    const wide = REFUSED_ENCODED.find((c) => c.name === 'a UTF-16LE SVG with a script');
    const wideBytes = wide?.bytes ?? Buffer.alloc(0);
    expect((await sniffInChunks(wideBytes, [1, 3, 7, 9], '')).ok).toBe(false);
  });
});

describe('text is never audio', () => {
  it.each([UTF16_HTML, UTF16BE_HTML])('identifies $name as text/html, not audio/mpeg', async ({ bytes }) => {
    expect(await sniffBytes(bytes, 'audio/mpeg')).toMatchObject({ ok: true, type: 'text/html' });
  });

  it.each([
    ['ID3', 'audio/mpeg'],
    ['fLaC', 'audio/flac'],
    ['FORM', 'audio/aiff'],
    ['MThd', 'audio/midi'],
    ['#!AMR', 'audio/amr'],
    ['BM', 'image/bmp'],
  ])('takes text starting "%s" (file-type: %s) for text', async (magic) => {
    const out = await sniffBytes(Buffer.from(`${magic} <p>a page</p>`), 'audio/mpeg');
    expect(out).toMatchObject({ ok: true, type: 'text/plain' });
  });

  it('still identifies MPEG audio, also a frame header that starts with the UTF-16 BOM (FF FE)', async () => {
    const frame = (second: number) =>
      Buffer.concat([Buffer.from([0xff, second, 0x90, 0x00]), Buffer.alloc(413)]).fill(0x11, 40, 400);
    // MPEG-1 Layer III (FF FB) and Layer I without CRC (FF FE): three frames each, as file-type wants.
    for (const second of [0xfb, 0xfe]) {
      const bytes = Buffer.concat([frame(second), frame(second), frame(second)]);
      expect(await sniffBytes(bytes, 'audio/mpeg')).toMatchObject({ ok: true, type: 'audio/mpeg' });
    }
  });
});

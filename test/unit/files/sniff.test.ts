import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { acceptsSniffed, sniffBytes } from '../../../src/files/sniff.js';
import { displayName, fileLimitOf } from '../../../src/forms/uploads/receive-upload.js';

const sniff = (text: string | Buffer, declared = 'application/octet-stream') =>
  sniffBytes(typeof text === 'string' ? Buffer.from(text) : text, declared);

describe('sniffBytes', () => {
  it('never throws and always answers a type or a reason, whatever the bytes (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 4096 }), fc.string(), async (bytes, declared) => {
        const out = await sniff(Buffer.from(bytes), declared);
        if (out.ok) expect(out.type).toMatch(/^[a-z]+\/[a-z0-9.+-]+$/);
        else expect(out.reason.length).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    ['plain text', 'hello\nworld', 'text/plain', 'text/plain'],
    ['CSV declared as CSV', 'a,b\n1,2\n', 'text/csv', 'text/csv'],
    ['text declared as a PDF', 'not a pdf', 'application/pdf', 'text/plain'],
    ['an HTML page', '  <!DOCTYPE html><html></html>', 'application/pdf', 'text/html'],
    [
      'a clean SVG',
      '<?xml version="1.0"?>\n<!-- logo -->\n<svg viewBox="0 0 1 1"></svg>',
      'image/svg+xml',
      'image/svg+xml',
    ],
    ['XML that is not SVG', '<?xml version="1.0"?><note/>', 'text/xml', 'application/xml'],
    ['binary noise', Buffer.from([0, 1, 2, 3, 255, 254, 0, 7]), 'image/png', 'application/octet-stream'],
  ] as const)('identifies %s', async (_name, content, declared, type) => {
    expect(await sniff(content, declared)).toMatchObject({ ok: true, type });
  });

  it.each([
    ['an empty file', ''],
    ['SVG with script', '<svg><script>alert(1)</script></svg>'],
    ['SVG with a javascript: link', '<svg><a href="javascript:alert(1)">x</a></svg>'],
    ['SVG with foreignObject', '<svg><foreignObject><iframe src="x"/></foreignObject></svg>'],
    [
      'a PDF with a ZIP directory at the end',
      Buffer.concat([
        Buffer.from('%PDF-1.4\n'),
        Buffer.alloc(100),
        Buffer.from([0x50, 0x4b, 0x05, 0x06]),
        Buffer.alloc(18),
      ]),
    ],
  ] as const)('refuses %s', async (_name, content) => {
    expect(await sniff(content)).toMatchObject({ ok: false });
  });
});

describe('acceptsSniffed', () => {
  const pdf = { type: 'application/pdf', extensions: ['pdf'] };
  const jpeg = { type: 'image/jpeg', extensions: ['jpg', 'jpeg', 'jpe'] };
  const html = { type: 'text/html', extensions: ['html', 'htm'] };
  it.each([
    [undefined, html, 'x.html', true],
    [['application/pdf'], pdf, 'x.bin', true],
    [['.pdf'], pdf, 'CV.PDF', true],
    [['.pdf'], html, 'cv.pdf', false],
    [['.pdf'], pdf, 'cv.txt', false],
    [['image/*'], jpeg, 'a.png', true],
    [['image/*'], pdf, 'a.png', false],
    [['.jpeg'], jpeg, 'a.jpeg', true],
    [['application/pdf', 'image/*'], html, 'a.pdf', false],
  ] as const)('accept %j, %j named %s: %s', (accept, sniffed, name, expected) => {
    expect(acceptsSniffed(accept, sniffed, name)).toBe(expected);
  });
});

describe('upload names and limits', () => {
  it.each([
    ['C:\\Users\\ada\\cv.pdf', 'cv.pdf'],
    ['../../etc/passwd', 'passwd'],
    ['a\u0000b\r\nc.pdf', 'abc.pdf'],
    ['', 'file'],
    ['say %22hi%22.txt', 'say "hi".txt'],
    ['x'.repeat(300), 'x'.repeat(200)],
  ])('displays %j as %j', (raw, shown) => {
    expect(displayName(raw)).toBe(shown);
  });

  it('cuts off at 10 MB or the field maxSize, whichever is smaller (spec 8)', () => {
    expect(fileLimitOf({})).toBe(10 * 1024 * 1024);
    expect(fileLimitOf({ maxSize: 1000 })).toBe(1000);
    expect(fileLimitOf({ maxSize: 50 * 1024 * 1024 })).toBe(10 * 1024 * 1024);
  });
});

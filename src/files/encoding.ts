// The character encoding of a file that may be text, decided as a browser decides it for a document served
// without a charset (WHATWG Encoding "BOM sniff", then XML 1.0 Appendix F and the XML declaration), so the checks
// read the same characters a browser would.

import { TextDecoder } from 'node:util';

/**
 * How a file's text is decoded; `marked` when its bytes announce Unicode (a BOM, or `<?` in UTF-16). `reason`
 * completes "XML …" ("XML in an encoding browsers do not read (utf-7)").
 */
export type TextEncoding = { ok: true; label: string; marked: boolean } | { ok: false; reason: string };

const UTF16 = new Set([
  'utf-16',
  'utf-16le',
  'utf-16be',
  'unicodefffe',
  'csunicode',
  'iso-10646-ucs-2',
  'ucs-2',
  'unicode',
  'unicodefeff',
]);

// The XML declaration's encoding, read in ASCII: it must come first, so any ASCII-compatible encoding shows it.
const XML_DECL_ENCODING = /^<\?xml\s[^>]{0,200}?\bencoding\s*=\s*(["'])([A-Za-z][A-Za-z0-9._:-]{0,40})\1/;

function startsWith(bytes: Buffer, prefix: readonly number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

export function detectEncoding(head: Buffer): TextEncoding {
  if (startsWith(head, [0xef, 0xbb, 0xbf])) return { ok: true, label: 'utf-8', marked: true };
  if (startsWith(head, [0xff, 0xfe])) return { ok: true, label: 'utf-16le', marked: true };
  if (startsWith(head, [0xfe, 0xff])) return { ok: true, label: 'utf-16be', marked: true };
  // `<?` without a BOM (XML 1.0 Appendix F): an XML declaration in UTF-16.
  if (startsWith(head, [0x3c, 0x00, 0x3f, 0x00])) return { ok: true, label: 'utf-16le', marked: true };
  if (startsWith(head, [0x00, 0x3c, 0x00, 0x3f])) return { ok: true, label: 'utf-16be', marked: true };
  const declared = XML_DECL_ENCODING.exec(head.subarray(0, 256).toString('latin1'))?.[2]?.toLowerCase();
  if (declared === undefined) return { ok: true, label: 'utf-8', marked: false };
  // Bytes that read as ASCII are not UTF-16, whatever the declaration says.
  if (UTF16.has(declared)) return { ok: false, reason: `declaring ${declared} while not in it` };
  try {
    // TextDecoder knows exactly the encodings of the WHATWG Encoding standard: the ones browsers decode.
    return { ok: true, label: new TextDecoder(declared).encoding, marked: false };
  } catch {
    return { ok: false, reason: `in an encoding browsers do not read (${declared})` };
  }
}

// C0 controls but tab, line feed, form feed and carriage return: text has none of them, binary data read as
// UTF-16 or as a single-byte encoding has many.
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const CONTROLS = /[\u0000-\u0008\u000b\u000e-\u001f\u007f\ufffe\uffff]/;

/**
 * The start of a file as text, or null when it is not text in `encoding`. A multi-byte character cut at the end
 * of `head` is not an error (the rest of the file follows).
 */
export function decodeText(head: Buffer, encoding: Extract<TextEncoding, { ok: true }>): string | null {
  let text: string;
  try {
    text = new TextDecoder(encoding.label, { fatal: true }).decode(head, { stream: true });
  } catch {
    return null;
  }
  // UTF-8 text without a BOM is told from binary by its NULs, as before; anything a decoder takes whatever the
  // bytes (UTF-16, single-byte encodings) must also be free of control characters.
  if (encoding.label === 'utf-8' && !encoding.marked) return text.includes('\u0000') ? null : text;
  return CONTROLS.test(text) ? null : text;
}

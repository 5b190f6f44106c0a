// What an uploaded file really is (spec 4.4 rule 5: "checked against accept and against the file's actual
// content"). The declared media type and the file name are the visitor's claims; the type reported and checked
// is the one found in the bytes. Besides the type, content that is dangerous whatever `accept` says is refused as
// `invalid_file`: empty files, SVG with active content, and polyglots (a file that is also another file: a ZIP
// appended to a JPEG, HTML at the start of a PDF).

import { fileTypeFromBuffer } from 'file-type';

/** How much of the start and the end of a file the checks read (the middle is never looked at). */
export const SNIFF_HEAD_BYTES = 64 * 1024;
export const SNIFF_TAIL_BYTES = 64 * 1024;

export type SniffOutcome =
  { ok: true; type: string; extensions: readonly string[] } | { ok: false; reason: string };

/** Containers whose format is a ZIP archive: for them a ZIP directory at the end is their own. */
const ZIP_BASED = new Set([
  'zip',
  'docx',
  'xlsx',
  'pptx',
  'odt',
  'ods',
  'odp',
  'epub',
  'jar',
  'apk',
  'xpi',
  '3mf',
  'kmz',
  'ipa',
  'vsdx',
]);

/** Extensions a detected type answers to (for `accept` entries like `.jpg`). */
const EXTENSION_ALIASES = new Map<string, readonly string[]>([
  ['jpg', ['jpg', 'jpeg', 'jpe']],
  ['tif', ['tif', 'tiff']],
  ['txt', ['txt', 'text']],
  ['md', ['md', 'markdown']],
  ['html', ['html', 'htm']],
]);

// A Map, not an object literal: the declared type is the visitor's text, and `__proto__` must find nothing.
const TEXT_TYPES = new Map<string, string>([
  ['text/csv', 'csv'],
  ['text/markdown', 'md'],
  ['text/plain', 'txt'],
  ['text/tab-separated-values', 'tsv'],
  ['text/calendar', 'ics'],
  ['text/vcard', 'vcf'],
]);

// HTML a browser would render if the file were ever opened inline (the HTML sniffing of the WHATWG MIME
// sniffing standard looks for these tags at the start).
const HTML_START =
  /^\s*(?:<!doctype\s+html|<html|<head|<body|<script|<iframe|<h1|<div|<table|<font|<title|<style|<a\s|<b>|<br|<p>|<!--)/i;
const ACTIVE_MARKUP = /<script|<iframe|<object|<embed|<foreignobject|javascript:|\son[a-z]+\s*=/i;
const HTML_ANYWHERE = /<script|<html|<!doctype\s+html|<iframe/i;

function ascii(bytes: Buffer): string {
  return bytes.toString('latin1');
}

function isText(head: Buffer): boolean {
  if (head.includes(0)) return false;
  try {
    // A cut in the middle of a multi-byte sequence at the end of the head is not an error.
    new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, Math.max(0, head.length - 4)));
    return true;
  } catch {
    return false;
  }
}

function extensionsOf(ext: string): readonly string[] {
  return EXTENSION_ALIASES.get(ext) ?? [ext];
}

/** The end of the file without trailing padding (NUL, whitespace) that some writers add. */
function trimmedTail(tail: Buffer): Buffer {
  let end = tail.length;
  while (end > 0) {
    const b = tail[end - 1];
    if (b !== 0x00 && b !== 0x0a && b !== 0x0d && b !== 0x20 && b !== 0x09) break;
    end--;
  }
  return tail.subarray(0, end);
}

// ZIP's end-of-central-directory record (APPNOTE 4.3.16): an archive is read from the end, so one appended to any
// file makes that file a working archive too.
const ZIP_EOCD = Buffer.from([0x50, 0x4b, 0x05, 0x06]);

function textOutcome(head: Buffer, declaredType: string): SniffOutcome {
  const text = head.toString('utf8');
  const svg = /^\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*(?:<!doctype\s+svg[^>]*>\s*)?<svg[\s>]/i.test(
    text,
  );
  if (svg) {
    if (ACTIVE_MARKUP.test(text)) return { ok: false, reason: 'SVG with scripts or event handlers' };
    return { ok: true, type: 'image/svg+xml', extensions: ['svg'] };
  }
  if (HTML_START.test(text)) return { ok: true, type: 'text/html', extensions: extensionsOf('html') };
  if (/^\s*<\?xml/i.test(text)) return { ok: true, type: 'application/xml', extensions: ['xml'] };
  const declared = declaredType.toLowerCase().split(';')[0]?.trim() ?? '';
  const textExt = TEXT_TYPES.get(declared);
  if (textExt !== undefined) return { ok: true, type: declared, extensions: extensionsOf(textExt) };
  return { ok: true, type: 'text/plain', extensions: [...extensionsOf('txt'), 'csv', 'log'] };
}

/**
 * Identifies a file from its first and last bytes. `head` is at most SNIFF_HEAD_BYTES from the start, `tail` at
 * most SNIFF_TAIL_BYTES from the end (they overlap for small files); `size` is the whole length.
 */
export async function sniffFile(
  head: Buffer,
  tail: Buffer,
  size: number,
  declaredType: string,
): Promise<SniffOutcome> {
  if (size === 0) return { ok: false, reason: 'the file is empty' };
  const detected = await fileTypeFromBuffer(head);
  // file-type names every XML document `xml`; SVG (XML that can carry script) is told apart in textOutcome.
  if (detected === undefined || detected.ext === 'xml') {
    if (!isText(head)) return { ok: true, type: 'application/octet-stream', extensions: ['bin'] };
    return textOutcome(head, declaredType);
  }
  if (HTML_ANYWHERE.test(ascii(head.subarray(0, 1024))))
    return { ok: false, reason: `a ${detected.ext} file with HTML in it` };
  if (!ZIP_BASED.has(detected.ext) && tail.includes(ZIP_EOCD))
    return { ok: false, reason: `a ${detected.ext} file with a ZIP archive appended` };
  if (detected.ext === 'jpg') {
    const end = trimmedTail(tail);
    // JPEG ends with the EOI marker (FF D9); bytes after it are another file riding along.
    if (end.length < 2 || end[end.length - 2] !== 0xff || end[end.length - 1] !== 0xd9)
      return { ok: false, reason: 'data after the end of the JPEG image' };
  }
  return { ok: true, type: detected.mime, extensions: extensionsOf(detected.ext) };
}

/**
 * Whether a sniffed file fits a field's `accept` (spec 2.10): media types compare with the sniffed type, wildcards
 * (`image/*`) with its family, and extensions (`.pdf`) need both the name and the content to be of that kind, so
 * an HTML page named `cv.pdf` is not a `.pdf`. No `accept`: every type that passed sniffFile.
 */
export function acceptsSniffed(
  accept: readonly string[] | undefined,
  sniffed: { type: string; extensions: readonly string[] },
  fileName: string,
): boolean {
  if (!accept || accept.length === 0) return true;
  const name = fileName.toLowerCase();
  return accept.some((entry) => {
    const a = entry.trim().toLowerCase();
    if (a.startsWith('.')) return name.endsWith(a) && sniffed.extensions.includes(a.slice(1));
    if (a.endsWith('/*')) return sniffed.type.startsWith(a.slice(0, -1));
    return sniffed.type === a;
  });
}

// What an uploaded file really is (spec 4.4 rule 5: "checked against accept and against the file's actual
// content"). The declared media type and the file name are the visitor's claims; the type reported and checked
// is the one found in the bytes. Besides the type, content that is dangerous whatever `accept` says is refused as
// `invalid_file`: empty files, SVG and other XML with active content (xml-check.ts, over the whole file), and
// polyglots (a file that is also another file: a ZIP appended to a JPEG, HTML at the start of a PDF).

import { createReadStream } from 'node:fs';
import { fileTypeFromBuffer } from 'file-type';
import { decodeText, detectEncoding } from './encoding.js';
import { XmlCheck, type XmlVerdict } from './xml-check.js';

/** How much of the start and the end of a file the type checks read (XML is read whole: XmlCheck). */
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
const HTML_ANYWHERE = /<script|<html|<!doctype\s+html|<iframe/i;
/** A document that says it is XML: a declaration, or a DOCTYPE for anything but HTML. */
const XML_CLAIM = /^\s*(?:<\?xml[\s?]|<!doctype\s+(?!html[\s>]))/i;

/**
 * Formats file-type finds that may be written wholly in text. Any other format whose start is text is not that
 * format: "ID3", "fLaC", "FORM", "MThd" or "BM" followed by an HTML page is an HTML page, not audio or an image.
 */
const TEXTUAL_FORMATS = new Set(['pdf', 'ps', 'eps', 'ai', 'rtf', 'ics', 'vcf', 'xml', 'svg', 'json', 'md']);

function ascii(bytes: Buffer): string {
  return bytes.toString('latin1');
}

/** The start of a file as text, in the encoding a browser would read it in; null for binary. */
function headText(head: Buffer): { text: string; marked: boolean } | null {
  const encoding = detectEncoding(head);
  // XML declaring an encoding browsers do not read: text (in ASCII), so that XmlCheck refuses it.
  if (!encoding.ok) return { text: ascii(head), marked: false };
  const text = decodeText(head, encoding);
  return text === null ? null : { text, marked: encoding.marked };
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

const SVG: SniffOutcome = { ok: true, type: 'image/svg+xml', extensions: ['svg'] };
const XML: SniffOutcome = { ok: true, type: 'application/xml', extensions: ['xml'] };
const HTML: SniffOutcome = { ok: true, type: 'text/html', extensions: extensionsOf('html') };

/**
 * Text: an HTML page is HTML whatever it holds (where it is stored decides what HTML may do); SVG and other XML are
 * what XmlCheck found over the whole file; anything else is the text type declared, or plain text.
 */
function textOutcome(text: string, declaredType: string, xml: XmlVerdict | null): SniffOutcome {
  const root = xml?.root ?? null;
  const rootName = root?.local.toLowerCase();
  if (rootName === 'html') return HTML;
  const claimsXml = XML_CLAIM.test(text) || rootName === 'svg';
  // Well-formed markup that does not start like HTML is XML too (a browser opening it as XML runs XHTML in it).
  if (xml && (claimsXml || (root !== null && xml.malformed === null && !HTML_START.test(text)))) {
    const kind = rootName === 'svg' ? 'SVG' : 'XML';
    if (xml.active !== null) return { ok: false, reason: `${kind} with ${xml.active}` };
    if (xml.malformed !== null) return { ok: false, reason: `${kind} ${xml.malformed}` };
    return rootName === 'svg' ? SVG : XML;
  }
  if (claimsXml) return { ok: false, reason: 'XML that was not read through' };
  if (HTML_START.test(text)) return HTML;
  const declared = declaredType.toLowerCase().split(';')[0]?.trim() ?? '';
  const textExt = TEXT_TYPES.get(declared);
  if (textExt !== undefined) return { ok: true, type: declared, extensions: extensionsOf(textExt) };
  return { ok: true, type: 'text/plain', extensions: [...extensionsOf('txt'), 'csv', 'log'] };
}

/** Whether XmlCheck must read a file, from its first bytes: text whose first character is `<`. */
function mayBeMarkup(head: Buffer): boolean {
  return headText(head)?.text.trimStart().startsWith('<') ?? false;
}

/**
 * Identifies a file from its first and last bytes and, for markup, XmlCheck's verdict over all of it. `head` is at
 * most SNIFF_HEAD_BYTES from the start, `tail` at most SNIFF_TAIL_BYTES from the end (they overlap for small
 * files), `size` the whole length, `xml` the verdict when mayBeMarkup(head). ContentSniffer gathers all four.
 */
export async function sniffFile(
  head: Buffer,
  tail: Buffer,
  size: number,
  declaredType: string,
  xml: XmlVerdict | null,
): Promise<SniffOutcome> {
  if (size === 0) return { ok: false, reason: 'the file is empty' };
  const text = headText(head);
  // A BOM or UTF-16 markup settles it: file-type reads the UTF-16 BOM (FF FE) as an MPEG audio frame header.
  const detected = text?.marked ? undefined : await fileTypeFromBuffer(head);
  // file-type names every XML document `xml`; other formats it finds in text are not what it says.
  const textual =
    detected === undefined || detected.ext === 'xml' || (text !== null && !TEXTUAL_FORMATS.has(detected.ext));
  if (textual) {
    if (text === null) return { ok: true, type: 'application/octet-stream', extensions: ['bin'] };
    return textOutcome(text.text, declaredType, xml);
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
 * Reads a file as it passes by (an upload on its way to the blob store, a file read from disk): its size, its
 * first and last bytes and, when it starts like markup, every byte through XmlCheck. Memory stays bounded: the
 * head, the tail and the XML parser's state.
 */
export class ContentSniffer {
  size = 0;
  private headChunks: Buffer[] = [];
  private headSize = 0;
  private head: Buffer | null = null;
  private tailChunks: Buffer[] = [];
  private tailSize = 0;
  private xml: XmlCheck | null = null;

  write(chunk: Buffer): void {
    this.size += chunk.length;
    let rest = chunk;
    if (this.head === null) {
      const part = chunk.subarray(0, SNIFF_HEAD_BYTES - this.headSize);
      this.headChunks.push(Buffer.from(part));
      this.headSize += part.length;
      rest = chunk.subarray(part.length);
      if (this.headSize >= SNIFF_HEAD_BYTES) this.headDone();
    }
    // The head went to XmlCheck whole when it was complete; the rest follows chunk by chunk.
    if (rest.length > 0) this.xml?.write(rest);
    this.tailChunks.push(chunk);
    this.tailSize += chunk.length;
    // Keep only what the last SNIFF_TAIL_BYTES need.
    while (
      this.tailChunks.length > 1 &&
      this.tailSize - (this.tailChunks[0]?.length ?? 0) >= SNIFF_TAIL_BYTES
    )
      this.tailSize -= this.tailChunks.shift()?.length ?? 0;
  }

  /** What the file is, once all of it was written. */
  async outcome(declaredType: string): Promise<SniffOutcome> {
    const head = this.head ?? this.headDone();
    const all = Buffer.concat(this.tailChunks);
    const tail = all.subarray(Math.max(0, all.length - SNIFF_TAIL_BYTES));
    return sniffFile(head, tail, this.size, declaredType, this.xml?.finish() ?? null);
  }

  private headDone(): Buffer {
    const head = Buffer.concat(this.headChunks);
    this.head = head;
    this.headChunks = [];
    if (mayBeMarkup(head)) {
      this.xml = new XmlCheck(head);
      this.xml.write(head);
    }
    return head;
  }
}

/** sniffFile for bytes in memory. */
export async function sniffBytes(bytes: Buffer, declaredType: string): Promise<SniffOutcome> {
  const sniffer = new ContentSniffer();
  sniffer.write(bytes);
  return sniffer.outcome(declaredType);
}

/** sniffFile for a file on disk, read once from start to end. */
export async function sniffPath(path: string, declaredType: string): Promise<SniffOutcome> {
  const sniffer = new ContentSniffer();
  for await (const chunk of createReadStream(path)) {
    if (!Buffer.isBuffer(chunk)) throw new TypeError('a file stream gives bytes');
    sniffer.write(chunk);
  }
  return sniffer.outcome(declaredType);
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

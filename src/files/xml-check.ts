// SVG and other XML checked with a namespace-aware XML parser over the whole file, not with
// regular expressions over its ends. saxes is strict (a file that is not well-formed XML fails, as it fails in a
// browser) and streams: a file is fed chunk by chunk as it is uploaded, holding no more than the parser's state.
// What is refused is anything through which a document can run script or reach another document when it is
// opened: script-bearing elements in any namespace, XHTML, event handler attributes, `javascript:` anywhere and
// `data:` URLs, processing instructions (`<?xml-stylesheet?>` applies XSLT) and any DTD (entities).

import { TextDecoder } from 'node:util';
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { decodeText, detectEncoding } from './encoding.js';

const XHTML_NS = 'http://www.w3.org/1999/xhtml';

/** Elements that run script or embed another document, whatever their namespace (compared in lower case). */
const REFUSED_ELEMENTS = new Set([
  'script',
  'foreignobject',
  'iframe',
  'frame',
  'frameset',
  'embed',
  'object',
  'applet',
  'portal',
  // SVG Tiny 1.2 and XML Events: script by another name.
  'handler',
  'listener',
]);

/** Namespaces whose elements make an XML document something else: XHTML (a page), XSLT, XML Events. */
const REFUSED_NAMESPACES = new Map([
  [XHTML_NS, 'XHTML'],
  ['http://www.w3.org/1999/XSL/Transform', 'XSLT'],
  ['http://www.w3.org/2001/xml-events', 'XML Events'],
]);

/** Attributes (local names, lower case) whose value is a URL a browser follows or loads. */
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'action',
  'formaction',
  'data',
  'codebase',
  'poster',
  'background',
]);

/** SMIL animations can set an attribute to any of their values: `<set attributeName="href" to="…">`. */
const ANIMATIONS = new Set(['animate', 'set', 'animatemotion', 'animatetransform', 'animatecolor']);
const ANIMATION_VALUES = ['to', 'from', 'by', 'values'] as const;

/**
 * libxml2's default depth limit (librsvg and sharp read SVG through it): deeper documents are not rendered
 * there, and the parser's stack of open elements stays small.
 */
export const MAX_XML_DEPTH = 256;

/**
 * A word as a URL parser may read it inside an attribute's value. Entities are already resolved by the XML
 * parser; browsers drop tabs and line breaks anywhere in a URL and spaces and controls around it, and schemes are
 * case-insensitive. Allowing any control or space between the letters is stricter than that. Matched in place, so
 * a value of megabytes (a path's `d`) is never copied.
 */
function spread(word: string, anchored: boolean): RegExp {
  const gap = '[\\u0000-\\u0020\\u007f]*';
  return new RegExp(`${anchored ? `^${gap}` : ''}${[...word].join(gap)}`, 'i');
}
const SCRIPT_URL = [spread('javascript:', false), spread('vbscript:', false)];
const DATA_URL = spread('data:', true);
const DATA_URL_ANYWHERE = spread('data:', false);

/** Thrown from a parser event to stop reading: the verdict is known. */
class Verdict extends Error {}

export interface XmlVerdict {
  /** The document element, as the parser resolved it (null when none was read). */
  root: { local: string; uri: string } | null;
  /** What makes the document active ("a <script> element", "a DOCTYPE (DTD)", …), or null. */
  active: string | null;
  /** Why the bytes are not well-formed XML in their encoding ("that is not well-formed XML (…)"), or null. */
  malformed: string | null;
}

/**
 * Feeds a file through saxes; `finish` says what was found. Reading stops at the first error and at the first
 * active content once the document element is known (a DOCTYPE or a processing instruction comes before it).
 */
export class XmlCheck {
  private readonly parser = new SaxesParser({ xmlns: true, position: false });
  private readonly decoder: TextDecoder | null = null;
  private root: XmlVerdict['root'] = null;
  private active: string | null = null;
  private malformed: string | null = null;
  private depth = 0;
  private done = false;

  /** `head` is the start of the file (at least its first bytes): it names the encoding. */
  constructor(head: Buffer) {
    const encoding = detectEncoding(head);
    if (!encoding.ok) {
      this.malformed = encoding.reason;
      this.done = true;
      return;
    }
    if (decodeText(head, encoding) === null) {
      this.malformed = `that is not valid ${encoding.label} text`;
      this.done = true;
      return;
    }
    // TextDecoder drops the BOM it was told to expect; saxes sees the characters a browser would.
    this.decoder = new TextDecoder(encoding.label, { fatal: true });
    this.parser.on('error', (err) => {
      this.malformed ??= `that is not well-formed XML (${err.message.replace(/\.$/, '')})`;
      throw new Verdict();
    });
    this.parser.on('doctype', () => this.refuse('a DOCTYPE (DTD)'));
    this.parser.on('processinginstruction', (pi) =>
      this.refuse(`a processing instruction (<?${pi.target}?>)`),
    );
    this.parser.on('opentag', (tag) => this.openTag(tag));
    this.parser.on('closetag', () => {
      this.depth--;
    });
  }

  write(bytes: Buffer): void {
    if (this.done || this.decoder === null) return;
    let text: string;
    try {
      text = this.decoder.decode(bytes, { stream: true });
    } catch {
      this.malformed ??= `that is not valid ${this.decoder.encoding} text`;
      this.done = true;
      return;
    }
    this.read(() => this.parser.write(text));
  }

  finish(): XmlVerdict {
    if (!this.done && this.decoder !== null) {
      const decoder = this.decoder;
      let rest = '';
      try {
        rest = decoder.decode();
      } catch {
        this.malformed ??= `that is not valid ${decoder.encoding} text`;
      }
      this.read(() => this.parser.write(rest).close());
      this.done = true;
    }
    return { root: this.root, active: this.active, malformed: this.malformed };
  }

  private read(step: () => void): void {
    try {
      step();
    } catch (err) {
      // Anything else thrown is the parser's own failure: the file is not read, so it is not accepted.
      if (!(err instanceof Verdict))
        this.malformed ??= `that could not be read (${String(err).slice(0, 100)})`;
      this.done = true;
    }
  }

  private refuse(what: string): void {
    this.active ??= what;
    if (this.root !== null) throw new Verdict();
  }

  private openTag(tag: SaxesTagNS): void {
    this.root ??= { local: tag.local, uri: tag.uri };
    if (this.active !== null) throw new Verdict();
    this.depth++;
    if (this.depth > MAX_XML_DEPTH) return this.refuse(`elements nested more than ${MAX_XML_DEPTH} deep`);
    const local = tag.local.toLowerCase();
    const article = /^[aeiou]/i.test(tag.name) ? 'an' : 'a';
    if (REFUSED_ELEMENTS.has(local)) return this.refuse(`${article} <${tag.name}> element`);
    const namespace = REFUSED_NAMESPACES.get(tag.uri);
    if (namespace !== undefined) return this.refuse(`an ${namespace} element (<${tag.name}>)`);
    for (const attr of Object.values(tag.attributes)) {
      const name = attr.local.toLowerCase();
      const declaration = attr.prefix === 'xmlns' || attr.name === 'xmlns';
      if (!declaration && name.startsWith('on')) return this.refuse(`an event handler (${attr.name})`);
      // Anywhere, not only in links: a style's url(), an animation's list of values, xml:base.
      if (SCRIPT_URL.some((re) => re.test(attr.value)))
        return this.refuse(`a javascript: URL (${attr.name})`);
      if (URL_ATTRIBUTES.has(name) && DATA_URL.test(attr.value))
        return this.refuse(`a data: URL (${attr.name})`);
    }
    if (ANIMATIONS.has(local)) {
      // `xlink:href` as the target names the same attribute as `href`.
      const target = (tag.attributes['attributeName']?.value ?? '')
        .trim()
        .toLowerCase()
        .replace(/^[^:]*:/, '');
      if (!URL_ATTRIBUTES.has(target)) return;
      for (const key of ANIMATION_VALUES) {
        if (DATA_URL_ANYWHERE.test(tag.attributes[key]?.value ?? ''))
          return this.refuse(`an animation setting ${target} to a data: URL`);
      }
    }
  }
}

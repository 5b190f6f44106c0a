// Files that carry script past a textual SVG check, and clean ones that must still pass. One
// table for every place that checks content: the sniffer itself, form uploads, asset uploads and bundle imports.

const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';
const XHTML_NS = 'http://www.w3.org/1999/xhtml';

const svg = (body: string, attrs = '') =>
  `<svg xmlns="${SVG_NS}" xmlns:xlink="${XLINK_NS}"${attrs}>${body}</svg>`;
const utf8 = (text: string) => Buffer.from(text, 'utf8');
const utf8Bom = (text: string) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8(text)]);
const utf16le = (text: string, bom = true) =>
  Buffer.concat([Buffer.from(bom ? [0xff, 0xfe] : []), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string) =>
  Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);

/** `count` bytes of clean SVG shapes, to push content past the first and last 64 KB. */
function filler(count: number): string {
  const shape = '<rect x="1" y="1" width="2" height="2" fill="#336699"/>\n';
  return shape.repeat(Math.ceil(count / shape.length));
}

const SCRIPT = '<script>alert(document.domain)</script>';
const HTML_PAGE = `<!DOCTYPE html><html><body><p>hi</p>${SCRIPT}</body></html>`;

export interface MarkupCase {
  name: string;
  bytes: Buffer;
  /** The file name an upload gives it. */
  file: string;
}

/** Every one of these must be refused as `invalid_file`. */
export const REFUSED_MARKUP: readonly MarkupCase[] = [
  // Known bypasses of a textual check.
  ['<s:script> with s bound to the SVG namespace', svg(`<s:script xmlns:s="${SVG_NS}">alert(1)</s:script>`)],
  ['<h:script> in the XHTML namespace', svg(`<h:script xmlns:h="${XHTML_NS}">alert(1)</h:script>`)],
  ['xlink:href="jav&#x61;script:"', svg('<a xlink:href="jav&#x61;script:alert(1)"><text>x</text></a>')],
  ['href="java&#9;script:"', svg('<a href="java&#9;script:alert(1)"><text>x</text></a>')],
  [
    'a DOCTYPE entity holding a script',
    `<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY x "&#60;script&#62;alert(1)&#60;/script&#62;">]>\n${svg('&x;')}`,
  ],
  [
    'a <script> past the first and last 64 KB of a 420 KB file',
    `<?xml version="1.0"?>\n${svg(`${filler(200_000)}${SCRIPT}${filler(200_000)}`)}`,
  ],
  // More of the same kind.
  ['<svg:script> beside a default namespace', svg(`<svg:script xmlns:svg="${SVG_NS}">alert(1)</svg:script>`)],
  [
    'a prefixed root <x:svg> with <x:script>',
    `<x:svg xmlns:x="${SVG_NS}"><x:script>alert(1)</x:script></x:svg>`,
  ],
  ['<script> with an unbound prefix (not well-formed)', svg('<s:script>alert(1)</s:script>')],
  ['a plain <script>', svg(SCRIPT)],
  ['<script> holding CDATA', svg('<script><![CDATA[ if (1 < 2) alert(1) ]]></script>')],
  ['<SCRIPT> in capitals', svg('<SCRIPT>alert(1)</SCRIPT>')],
  ['<foreignObject> holding HTML', svg(`<foreignObject><p xmlns="${XHTML_NS}">hi</p></foreignObject>`)],
  ['<iframe>', svg('<iframe src="https://example.com/"/>')],
  ['<embed>', svg('<embed src="https://example.com/x.swf"/>')],
  ['<object>', svg('<object data="https://example.com/x.html"/>')],
  ['an XHTML <iframe>', svg(`<h:iframe xmlns:h="${XHTML_NS}" src="https://example.com/"/>`)],
  [
    'an XHTML <meta> refresh',
    svg(`<h:meta xmlns:h="${XHTML_NS}" http-equiv="refresh" content="0;url=https://x"/>`),
  ],
  ['an SVG Tiny <handler>', svg('<handler type="application/ecmascript">alert(1)</handler>')],
  ['onload on the root', svg('<rect/>', ' onload="alert(1)"')],
  ['ONCLICK in capitals', svg('<rect width="9" height="9" ONCLICK="alert(1)"/>')],
  ['a namespaced on* attribute', svg('<rect x:onclick="alert(1)" xmlns:x="urn:x"/>')],
  ['an XHTML <img onerror>', svg(`<h:img xmlns:h="${XHTML_NS}" src="x" onerror="alert(1)"/>`)],
  ['<a xlink:href="JaVaScRiPt:">', svg('<a xlink:href="JaVaScRiPt:alert(1)"><text>x</text></a>')],
  [
    '<a xlink:href> with an entity-encoded JavaScript:',
    svg('<a xlink:href="&#74;ava&#x53;cript:alert(1)">x</a>'),
  ],
  ['a javascript: href after spaces and a newline', svg('<a href=" &#10; javascript:alert(1)">x</a>')],
  ['<use href="data:…">', svg('<use href="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=#x"/>')],
  ['<image xlink:href="data:…">', svg('<image xlink:href="data:image/svg+xml,%3Csvg%3E%3C/svg%3E"/>')],
  ['<feImage href="DATA:…">', svg('<filter id="f"><feImage href="DATA:text/html,x"/></filter>')],
  [
    '<animate attributeName="href" values="javascript:…">',
    svg('<a><animate attributeName="href" values="javascript:alert(1)"/><text>x</text></a>'),
  ],
  [
    '<animate attributeName="xlink:href" values="#a;data:…">',
    svg('<a><animate attributeName="xlink:href" values="#a;data:text/html,x"/>x</a>'),
  ],
  [
    '<set to="javascript:">',
    svg('<a><set attributeName="href" to="javascript:alert(1)"/><text>x</text></a>'),
  ],
  [
    '<set to="data:"> for xlink:href',
    svg('<use><set attributeName="xlink:href" to="data:image/svg+xml,x"/></use>'),
  ],
  ['a style attribute with url(javascript:)', svg('<rect style="fill:url(javascript:alert(1))"/>')],
  [
    'an <?xml-stylesheet?> processing instruction',
    `<?xml version="1.0"?>\n<?xml-stylesheet type="text/xsl" href="x.xsl"?>\n${svg('')}`,
  ],
  [
    'a public DOCTYPE',
    `<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">${svg('')}`,
  ],
  [
    'an external entity',
    `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY e SYSTEM "file:///etc/passwd">]>${svg('<text>&e;</text>')}`,
  ],
  ['an undefined entity (not well-formed)', svg('<text>&nbsp;</text>')],
  ['a tag left open (not well-formed)', svg('<g><rect/>')],
  ['nesting 300 deep', svg(`${'<g>'.repeat(300)}${'</g>'.repeat(300)}`)],
  [
    'XML (not SVG) with an XHTML script',
    `<?xml version="1.0"?><note><script xmlns="${XHTML_NS}">alert(1)</script></note>`,
  ],
  ['XML with a DOCTYPE', '<?xml version="1.0"?><!DOCTYPE note SYSTEM "note.dtd"><note>x</note>'],
].map(([name, text]) => ({ name: name ?? '', bytes: utf8(text ?? ''), file: 'image.svg' }));

/** Encodings: the same scripts, in bytes a textual check reads past. */
export const REFUSED_ENCODED: readonly MarkupCase[] = [
  { name: 'a UTF-8 BOM SVG with a script', bytes: utf8Bom(svg(SCRIPT)), file: 'bom.svg' },
  { name: 'a UTF-16LE SVG with a script', bytes: utf16le(svg(SCRIPT)), file: 'wide.svg' },
  { name: 'a UTF-16BE SVG with a script', bytes: utf16be(svg(SCRIPT)), file: 'wide.svg' },
  {
    name: 'a UTF-16LE SVG with a script, without a BOM',
    bytes: utf16le(`<?xml version="1.0" encoding="UTF-16"?>${svg(SCRIPT)}`, false),
    file: 'wide.svg',
  },
  {
    name: 'an ISO-8859-1 SVG with a script',
    bytes: Buffer.from(
      `<?xml version="1.0" encoding="ISO-8859-1"?>${svg(`<text>caf\u00e9</text>${SCRIPT}`)}`,
      'latin1',
    ),
    file: 'latin.svg',
  },
  {
    name: 'an SVG in an encoding no browser reads',
    bytes: utf8(`<?xml version="1.0" encoding="UTF-7"?>${svg('+ADw-script+AD4-alert(1)+ADw-/script+AD4-')}`),
    file: 'seven.svg',
  },
];

/** UTF-16 HTML: file-type reads the BOM FF FE as an MPEG audio frame. Never audio: it is an HTML page. */
export const UTF16_HTML: MarkupCase = { name: 'UTF-16LE HTML', bytes: utf16le(HTML_PAGE), file: 'song.mp3' };
export const UTF16BE_HTML: MarkupCase = {
  name: 'UTF-16BE HTML',
  bytes: utf16be(HTML_PAGE),
  file: 'song.mp3',
};

/** Clean files, and the type each is identified as. */
export const ACCEPTED_MARKUP: readonly (MarkupCase & { type: string })[] = [
  ['xlink:href="#id"', svg('<defs><circle id="dot" r="4"/></defs><use xlink:href="#dot" x="5"/>')],
  ['href="https://…"', svg('<a href="https://example.com/?a=1&amp;b=2"><text y="10">link</text></a>')],
  [
    'a gradient',
    svg(
      '<defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="#fff"/>' +
        '<stop offset="1" stop-color="#000" stop-opacity="0.5"/></linearGradient></defs>' +
        '<rect width="10" height="10" fill="url(#g)" opacity="0.8"/>',
      ' viewBox="0 0 10 10" width="10" height="10"',
    ),
  ],
  [
    'text, with the word javascript: in it',
    svg('<text x="0" y="10" font-family="sans-serif">javascript: &amp; onload &lt;script&gt;</text>'),
  ],
  [
    'CDATA with script text outside a script (inert)',
    svg('<text><![CDATA[<script>alert(1)</script>]]></text>'),
  ],
  [
    'a <style> with CDATA',
    svg('<style><![CDATA[ rect { fill: #c33 } ]]></style><rect width="4" height="4"/>'),
  ],
  ['an <image> from https', svg('<image href="https://example.com/a.png" width="4" height="4"/>')],
  [
    '<animate> of a colour',
    svg('<rect width="4" height="4"><animate attributeName="fill" values="red;blue" dur="2s"/></rect>'),
  ],
  [
    'Inkscape metadata (RDF, Dublin Core, sodipodi)',
    `<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<!-- Created with Inkscape -->\n` +
      `<svg xmlns="${SVG_NS}" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" ` +
      'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:cc="http://creativecommons.org/ns#" ' +
      'xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" ' +
      'xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" width="8" height="8" inkscape:version="1.3">' +
      '<sodipodi:namedview id="nv" pagecolor="#ffffff" inkscape:zoom="1"/>' +
      '<metadata><rdf:RDF><cc:Work rdf:about=""><dc:format>image/svg+xml</dc:format>' +
      '<dc:title>Logo</dc:title></cc:Work></rdf:RDF></metadata>' +
      '<g inkscape:label="Layer 1" inkscape:groupmode="layer"><path d="M0 0h8v8z" fill="#123456"/></g></svg>',
  ],
  ['a 420 KB SVG', `<?xml version="1.0"?>\n${svg(filler(420_000))}`],
].map(([name, text]) => ({
  name: name ?? '',
  bytes: utf8(text ?? ''),
  file: 'image.svg',
  type: 'image/svg+xml',
}));

export const ACCEPTED_ENCODED: readonly (MarkupCase & { type: string })[] = [
  {
    name: 'a UTF-8 BOM SVG',
    bytes: utf8Bom(svg('<rect width="4" height="4"/>')),
    file: 'bom.svg',
    type: 'image/svg+xml',
  },
  {
    name: 'a UTF-16LE SVG',
    bytes: utf16le(svg('<rect width="4" height="4"/>')),
    file: 'wide.svg',
    type: 'image/svg+xml',
  },
  {
    name: 'an ISO-8859-1 SVG',
    bytes: Buffer.from(
      `<?xml version="1.0" encoding="ISO-8859-1"?>${svg('<text>caf\u00e9</text>')}`,
      'latin1',
    ),
    file: 'latin.svg',
    type: 'image/svg+xml',
  },
  {
    name: 'XML that is not SVG',
    bytes: utf8('<?xml version="1.0"?>\n<note><to>Ada</to></note>'),
    file: 'note.xml',
    type: 'application/xml',
  },
];

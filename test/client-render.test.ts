import fc from 'fast-check';
import { parseDocument, DomUtils } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { type Asset, imageUrl, picture, renderRichText, srcset } from '../client/src/index.js';

// The rendering helpers of @folio/client: rich text to escaped HTML, image urls keeping the
// signed crop, srcsets on the width ladder and <picture> with AVIF and WebP sources.

const ALLOWED_TAGS = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'blockquote',
  'pre',
  'code',
  'br',
  'hr',
  'strong',
  'em',
  'u',
  's',
  'sub',
  'sup',
  'a',
]);
const ALLOWED_ATTRS = new Set(['href', 'start', 'class']);

const text = (t: string, marks?: unknown[]) => ({ type: 'text', text: t, ...(marks ? { marks } : {}) });
const doc = (...content: unknown[]) => ({ type: 'doc', content });

describe('renderRichText', () => {
  it('renders marks, headings, lists, breaks and code with escaped text', () => {
    const html = renderRichText(
      doc(
        { type: 'heading', attrs: { level: 3 }, content: [text('A <b> & "c"')] },
        {
          type: 'paragraph',
          content: [
            text('bold', [{ type: 'bold' }]),
            text(' both', [{ type: 'italic' }, { type: 'code' }]),
            { type: 'hardBreak' },
            text('x'),
          ],
        },
        {
          type: 'bulletList',
          content: [{ type: 'listItem', content: [{ type: 'paragraph', content: [text('one')] }] }],
        },
        {
          type: 'orderedList',
          attrs: { start: 3 },
          content: [{ type: 'listItem', content: [text('three')] }],
        },
        { type: 'codeBlock', attrs: { language: 'ts"><script>' }, content: [text('let a = 1 < 2;')] },
        { type: 'horizontalRule' },
        { type: 'blockquote', content: [{ type: 'paragraph', content: [text('q')] }] },
      ),
    );
    expect(html).toBe(
      '<h3>A &lt;b&gt; &amp; &quot;c&quot;</h3>' +
        '<p><strong>bold</strong><em><code> both</code></em><br>x</p>' +
        '<ul><li><p>one</p></li></ul>' +
        '<ol start="3"><li>three</li></ol>' +
        '<pre><code>let a = 1 &lt; 2;</code></pre>' +
        '<hr>' +
        '<blockquote><p>q</p></blockquote>',
    );
  });

  it('resolves entry links through included.links and drops links that lead nowhere or are unsafe', () => {
    const link = (attrs: unknown) => text('t', [{ type: 'link', attrs }]);
    const html = renderRichText(
      doc({
        type: 'paragraph',
        content: [
          link({ kind: 'entry', entry: 'ent_a' }),
          link({ kind: 'entry', entry: 'ent_gone' }),
          link({ kind: 'url', url: 'javascript:alert(1)' }),
          link({ kind: 'url', url: '//evil.example/' }),
          link({ kind: 'url', url: 'https://example.com/?a=1&b="2"' }),
          link({ kind: 'email', email: 'a@example.com' }),
          link({ kind: 'asset', asset: 'ast_1', url: 'https://cdn.example/a.pdf' }),
        ],
      }),
      { links: { ent_a: { id: 'ent_a', type: 'page', name: 'A', path: '/a' } } },
    );
    expect(html).toBe(
      '<p><a href="/a">t</a>ttt<a href="https://example.com/?a=1&amp;b=&quot;2&quot;">t</a>' +
        '<a href="mailto:a@example.com">t</a><a href="https://cdn.example/a.pdf">t</a></p>',
    );
  });

  it('takes hooks per node and mark type, and a link href function (a locale prefix)', () => {
    const html = renderRichText(
      doc(
        {
          type: 'paragraph',
          content: [text('go', [{ type: 'link', attrs: { kind: 'entry', entry: 'e' } }])],
        },
        { type: 'callout', attrs: { tone: 'warn' }, content: [text('careful')] },
        { type: 'mystery', content: [text('kept')] },
      ),
      {
        links: { e: { path: '/e' } },
        linkHref: (l, target) => (l.kind === 'entry' && target ? `/de${target.path}` : null),
        components: {
          callout: (node, children) => `<aside class="${String(node.attrs?.tone)}">${children}</aside>`,
        },
        marks: { bold: () => undefined },
      },
    );
    expect(html).toBe('<p><a href="/de/e">go</a></p><aside class="warn">careful</aside>kept');
  });

  it('never throws on arbitrary JSON, and emits only its own tags and attributes', () => {
    const { node } = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.record(
          {
            type: fc.oneof(
              fc.constantFrom(
                'doc',
                'paragraph',
                'heading',
                'text',
                'bulletList',
                'orderedList',
                'listItem',
                'codeBlock',
                'hardBreak',
                'link',
              ),
              fc.string(),
            ),
            text: fc.string(),
            attrs: fc.oneof(
              fc.object(),
              fc.record({ level: fc.anything(), start: fc.anything(), language: fc.string() }),
            ),
            marks: fc.array(
              fc.oneof(
                fc.record({
                  type: fc.constantFrom('bold', 'italic', 'code', 'link', 'strike'),
                  attrs: fc.anything(),
                }),
                fc.record({
                  type: fc.constant('link'),
                  attrs: fc.record({
                    kind: fc.constantFrom('url', 'entry', 'email', 'asset'),
                    url: fc.string(),
                    entry: fc.string(),
                    email: fc.string(),
                    asset: fc.string(),
                  }),
                }),
                fc.anything(),
              ),
            ),
            content: fc.array(tie('node'), { maxLength: 4 }),
          },
          { requiredKeys: [] },
        ),
        fc.jsonValue(),
      ),
    }));
    fc.assert(
      fc.property(node, (value) => {
        const html = renderRichText(value, { links: { e: { path: '/"><x>' } } });
        const dom = parseDocument(html);
        for (const el of DomUtils.findAll(() => true, dom.children)) {
          expect(ALLOWED_TAGS.has(el.name), el.name).toBe(true);
          for (const attr of Object.keys(el.attribs)) expect(ALLOWED_ATTRS.has(attr), attr).toBe(true);
          const href = el.attribs.href;
          if (href !== undefined) expect(href).toMatch(/^(https?:|mailto:|tel:|\/(?!\/)|[#?])/i);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('gives back every text character as text (nothing of the input becomes markup)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' }), { maxLength: 5 }), (texts) => {
        const html = renderRichText(
          doc({ type: 'paragraph', content: texts.map((t) => text(t, [{ type: 'bold' }])) }),
        );
        const dom = parseDocument(html, { decodeEntities: true });
        expect(DomUtils.textContent(dom)).toBe(texts.join(''));
      }),
      { numRuns: 300 },
    );
  });

  it('survives nesting far deeper than content allows', () => {
    let deep: unknown = text('bottom');
    for (let i = 0; i < 20_000; i += 1) deep = { type: 'blockquote', content: [deep] };
    expect(() => renderRichText(deep)).not.toThrow();
  });
});

const ASSET: Asset = {
  asset: 'ast_1',
  url: 'https://folio.example/v1/spc_1/assets/ast_1/lake.jpg?crop=0.25,0.1,0.5,0.8&sig=abc',
  filename: 'lake.jpg',
  mime: 'image/jpeg',
  size: 1000,
  width: 900,
  height: 600,
  focal: null,
  crop: { x: 0.25, y: 0.1, width: 0.5, height: 0.8 },
  alt: 'A "lake" <at dawn>',
  title: null,
  credit: null,
  placeholder: null,
  color: '#336699',
};

describe('image helpers', () => {
  it('keeps the signed crop and adds the parameters', () => {
    const url = new URL(imageUrl(ASSET, { w: 640, ar: '16:9', fm: 'webp', q: 75 }));
    expect(url.searchParams.get('crop')).toBe('0.25,0.1,0.5,0.8');
    expect(url.searchParams.get('sig')).toBe('abc');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ w: '640', ar: '16:9', fm: 'webp', q: '75' });
    expect(new URL(imageUrl(ASSET, { preset: 'thumb', ar: [4, 3] })).searchParams.get('ar')).toBe('4:3');
    expect(() => imageUrl(ASSET, { w: 0 })).toThrow(RangeError);
    expect(() => imageUrl(ASSET, { w: 4000 })).toThrow(RangeError);
  });

  it('builds srcsets on the width ladder, no wider than the image', () => {
    expect(
      srcset(ASSET)
        .split(', ')
        .map((c) => c.split(' ')[1]),
    ).toEqual(['160w', '320w', '480w', '640w', '768w']);
    expect(
      srcset(ASSET, [300, 500, 5000])
        .split(', ')
        .map((c) => c.split(' ')[1]),
    ).toEqual(['320w', '640w']);
    expect(srcset({ url: ASSET.url, width: 100 })).toMatch(/w=160 160w$/);
  });

  it('writes a <picture> with AVIF and WebP sources, an escaped alt and the size it will have', () => {
    const html = picture(ASSET, { ar: '3:2', sizes: '50vw' });
    const dom = parseDocument(html);
    const sources = DomUtils.getElementsByTagName('source', dom);
    expect(sources.map((s) => s.attribs.type)).toEqual(['image/avif', 'image/webp']);
    for (const s of sources) expect(s.attribs.srcset).toContain('sig=abc');
    const img = DomUtils.getElementsByTagName('img', dom)[0];
    expect(img?.attribs).toMatchObject({
      alt: 'A "lake" <at dawn>',
      width: '900',
      height: '600',
      sizes: '50vw',
      loading: 'lazy',
    });
    expect(img?.attribs.src).toMatch(/fm=jpeg/);
    expect(html).not.toContain('<at dawn>');
  });
});

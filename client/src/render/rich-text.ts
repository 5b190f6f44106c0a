// renderRichText: a delivered rich-text document to HTML, escaped and safe by default. Known
// nodes and marks (docs/api.md "Rich text") have default markup; `components` and `marks` replace any of them
// or render types the defaults do not know (their content is rendered without a wrapper). Any JSON is accepted:
// what is not a node is skipped, and nothing throws.

import type { Link, RichTextMark, RichTextNode } from '../values.js';
import { escapeHtml, isRecord, safeUrl } from './escape.js';
import { defaultLinkHref, type LinkTarget, parseLink } from './links.js';

export type { LinkTarget };

export interface RichTextContext {
  /** The href of a link (after `linkHref`), or null when it leads nowhere (an unpublished entry). */
  href(link: unknown): string | null;
  /** Renders nodes (the children of a node) with the same options. */
  render(nodes: unknown): string;
}

/** Markup for one node; `children` is its content already rendered. Return undefined for the default. */
export type NodeRenderer = (node: RichTextNode, children: string, ctx: RichTextContext) => string | undefined;
/** Markup around marked text; `inner` is the rendered text (escaped) or the inner marks. */
export type MarkRenderer = (mark: RichTextMark, inner: string, ctx: RichTextContext) => string | undefined;

export interface RichTextOptions {
  /** `included.links` of the answer: entry links resolve to their `path`; missing ones render as plain text. */
  links?: Readonly<Record<string, LinkTarget>>;
  /**
   * The href of a link; default `defaultLinkHref` (an entry's path as `included.links` has it, `mailto:` for
   * emails, the URL of url and asset links), which a custom one can fall back to. Return null for no link. The
   * result is checked like any URL.
   */
  linkHref?: (link: Link, target: LinkTarget | undefined) => string | null;
  /** Per node type (`paragraph`, `heading`, `image`, …). */
  components?: Readonly<Record<string, NodeRenderer | undefined>>;
  /** Per mark type (`bold`, `link`, …). */
  marks?: Readonly<Record<string, MarkRenderer | undefined>>;
}

/** Nesting beyond this is dropped: content rules allow 50 (docs/api.md), JSON from elsewhere may not keep them. */
const MAX_DEPTH = 100;

const BLOCK_TAGS: Record<string, string> = {
  paragraph: 'p',
  bulletList: 'ul',
  listItem: 'li',
  blockquote: 'blockquote',
};

const MARK_TAGS: Record<string, string> = {
  bold: 'strong',
  italic: 'em',
  underline: 'u',
  strike: 's',
  code: 'code',
  subscript: 'sub',
  superscript: 'sup',
};

/** A node as far as it is one, checked once; nesting past `depth` levels is dropped. */
function asNode(value: unknown, depth: number): RichTextNode | null {
  if (depth < 0 || !isRecord(value) || typeof value.type !== 'string') return null;
  const node: RichTextNode = { type: value.type };
  if (typeof value.text === 'string') node.text = value.text;
  if (Array.isArray(value.marks))
    node.marks = value.marks.flatMap((m): RichTextMark[] =>
      isRecord(m) && typeof m.type === 'string'
        ? [isRecord(m.attrs) ? { type: m.type, attrs: m.attrs } : { type: m.type }]
        : [],
    );
  if (isRecord(value.attrs)) node.attrs = value.attrs;
  if (Array.isArray(value.content))
    node.content = value.content.flatMap((c) => {
      const n = asNode(c, depth - 1);
      return n === null ? [] : [n];
    });
  return node;
}

/** A whole number in [min, max], else `fallback`. */
function intIn(value: unknown, min: number, max: number, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max
    ? value
    : fallback;
}

/** Renders a rich-text document (or a node, or a list of nodes) to HTML. */
export function renderRichText(doc: unknown, options: RichTextOptions = {}): string {
  const links = options.links ?? {};
  const linkHref = options.linkHref ?? defaultLinkHref;
  const ctx: RichTextContext = {
    href(value) {
      const link = parseLink(value);
      if (link === null) return null;
      const target =
        link.kind === 'entry' && Object.hasOwn(links, link.entry) ? links[link.entry] : undefined;
      return safeUrl(linkHref(link, target));
    },
    render: (nodes) => renderNodes(nodes),
  };

  const renderNodes = (nodes: unknown): string =>
    Array.isArray(nodes) ? nodes.map((n) => renderChecked(asNode(n, MAX_DEPTH))).join('') : '';

  const renderText = (node: RichTextNode): string => {
    let html = escapeHtml(node.text ?? '');
    // The first mark is the outermost.
    for (const mark of [...(node.marks ?? [])].reverse()) html = renderMark(mark, html);
    return html;
  };

  const renderMark = (mark: RichTextMark, inner: string): string => {
    const custom = options.marks?.[mark.type];
    const out = custom === undefined ? undefined : custom(mark, inner, ctx);
    if (out !== undefined) return out;
    if (mark.type === 'link') {
      const href = ctx.href(mark.attrs);
      return href === null ? inner : `<a href="${escapeHtml(href)}">${inner}</a>`;
    }
    const tag = Object.hasOwn(MARK_TAGS, mark.type) ? MARK_TAGS[mark.type] : undefined;
    return tag === undefined ? inner : `<${tag}>${inner}</${tag}>`;
  };

  const renderChecked = (node: RichTextNode | null): string => {
    if (node === null) return '';
    const children = node.type === 'text' ? '' : (node.content ?? []).map(renderChecked).join('');
    const custom = options.components?.[node.type];
    const out = custom === undefined ? undefined : custom(node, children, ctx);
    if (out !== undefined) return out;
    return defaultNode(node, children);
  };

  const defaultNode = (node: RichTextNode, children: string): string => {
    switch (node.type) {
      case 'text':
        return renderText(node);
      case 'doc':
        return children;
      case 'heading': {
        const level = intIn(node.attrs?.level, 1, 6, 2);
        return `<h${level}>${children}</h${level}>`;
      }
      case 'orderedList': {
        const start = intIn(node.attrs?.start, -1e9, 1e9, 1);
        return `<ol${start === 1 ? '' : ` start="${start}"`}>${children}</ol>`;
      }
      case 'codeBlock': {
        const lang = node.attrs?.language;
        const cls =
          typeof lang === 'string' && /^[A-Za-z0-9_+-]{1,40}$/.test(lang) ? ` class="language-${lang}"` : '';
        return `<pre><code${cls}>${children}</code></pre>`;
      }
      case 'hardBreak':
        return '<br>';
      case 'horizontalRule':
        return '<hr>';
      default: {
        const tag = Object.hasOwn(BLOCK_TAGS, node.type) ? BLOCK_TAGS[node.type] : undefined;
        return tag === undefined ? children : `<${tag}>${children}</${tag}>`;
      }
    }
  };

  return Array.isArray(doc) ? renderNodes(doc) : renderChecked(asNode(doc, MAX_DEPTH));
}

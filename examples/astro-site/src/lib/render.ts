// Block and field rendering for the example's pages: the demo's block types to HTML with the client's helpers.
// Field values of an untyped client are `unknown`: they are checked here, never cast.
import { escapeHtml, type Included, isAsset, picture, renderRichText, resolveLink } from '@folio/client';

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A text field's value, else ''. */
export const text = (v: unknown): string => (typeof v === 'string' ? v : '');

export interface BlockValue {
  id: string;
  type: string;
  fields: Record<string, unknown>;
}

/** The blocks of a block-list field. */
export function blocksOf(value: unknown): BlockValue[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((b: unknown) =>
    isRecord(b) && typeof b.id === 'string' && typeof b.type === 'string' && isRecord(b.fields)
      ? [{ id: b.id, type: b.type, fields: b.fields }]
      : [],
  );
}

/** The form key of a form block, else null. */
export function formKeyOf(block: BlockValue): string | null {
  const form = block.fields.form;
  return block.type === 'formBlock' && isRecord(form) && typeof form.form === 'string' ? form.form : null;
}

const linkHtml = (href: string | null, label: string, cls = '') =>
  href === null
    ? escapeHtml(label)
    : `<a${cls === '' ? '' : ` class="${cls}"`} href="${escapeHtml(href)}">${escapeHtml(label)}</a>`;

/** A block of the demo (not a form block: the page renders those with renderFolioForm). */
export function blockHtml(block: BlockValue, included: Included): string {
  const f = block.fields;
  const rich = (doc: unknown) => renderRichText(doc, { links: included.links });
  switch (block.type) {
    case 'hero': {
      const image = isAsset(f.image)
        ? picture(f.image, { sizes: '(min-width: 48rem) 44rem, 100vw', ar: '16:9' })
        : '';
      const cta = resolveLink(f.cta, included);
      return `<section class="block hero"><h2>${escapeHtml(text(f.heading))}</h2>${image}${cta === null ? '' : `<p>${linkHtml(cta, '→', 'button')}</p>`}</section>`;
    }
    case 'textBlock':
      return `<section class="block text">${rich(f.text)}</section>`;
    case 'cta':
      return `<section class="block cta">${linkHtml(resolveLink(f.link, included), text(f.label), 'button')}</section>`;
    case 'linkItem':
      return linkHtml(resolveLink(f.link, included), text(f.label));
    case 'gallery':
      return `<section class="block gallery">${(Array.isArray(f.images) ? f.images : [])
        .filter(isAsset)
        .map((a) => `<figure>${picture(a, { sizes: '14rem', ar: '1:1', widths: [320, 480] })}</figure>`)
        .join('')}</section>`;
    default:
      return '';
  }
}

/** A post's body (rich text) with its entry links in the post's locale. */
export const richText = (doc: unknown, included: Included): string =>
  renderRichText(doc, { links: included.links });

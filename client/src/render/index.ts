// Rendering helpers of @folio/client: rich text to HTML, image urls, srcsets and <picture>.
export { escapeHtml, safeUrl } from './escape.js';
export {
  imageUrl,
  isAsset,
  type ImageFormat,
  type ImageParams,
  type ImageSource,
  ladderWidths,
  picture,
  type PictureOptions,
  srcset,
  WIDTH_LADDER,
} from './images.js';
export { defaultLinkHref, type LinkIncluded, type LinkTarget, parseLink, resolveLink } from './links.js';
export {
  type MarkRenderer,
  type NodeRenderer,
  renderRichText,
  type RichTextContext,
  type RichTextOptions,
} from './rich-text.js';

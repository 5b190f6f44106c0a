// Image urls, srcsets and <picture> for delivered assets (docs/api.md "derived images"). The
// delivered `url` is kept as it is, with its signed crop (`crop`, `sig`): parameters are added to it.

import type { Asset } from '../values.js';
import { escapeHtml } from './escape.js';

/** The widths the server renders (spec 2.3 rule 3): any other `w` is rounded up to the next of these. */
export const WIDTH_LADDER = [160, 320, 480, 640, 768, 1024, 1280, 1600, 1920, 2560, 3840] as const;

export type ImageFormat = 'avif' | 'webp' | 'jpeg' | 'png';

export interface ImageParams {
  /** Width, 1–3840 (rounded up to the ladder by the server, never above the source). */
  w?: number;
  /** Height, 1–3840; not with `ar` or `preset`. */
  h?: number;
  /** Aspect ratio `W:H` (`16:9`) or `[16, 9]`; cropped at the focal point. */
  ar?: string | readonly [number, number];
  /** `thumb`, `card`, `hero`, `og` or a preset of the space. */
  preset?: string;
  /** Quality 1–100. */
  q?: number;
  fm?: ImageFormat;
}

/** Whether a field value (of an untyped client) is a delivered asset: `{ asset, url, width, height, … }`. */
export function isAsset(value: unknown): value is Asset {
  if (typeof value !== 'object' || value === null) return false;
  const v: Record<string, unknown> = { ...value };
  const dim = (x: unknown) => x === null || typeof x === 'number';
  const text = (x: unknown) => x === null || typeof x === 'string';
  return (
    typeof v.asset === 'string' &&
    typeof v.url === 'string' &&
    typeof v.filename === 'string' &&
    typeof v.mime === 'string' &&
    typeof v.size === 'number' &&
    dim(v.width) &&
    dim(v.height) &&
    text(v.alt) &&
    text(v.title) &&
    text(v.credit) &&
    text(v.placeholder) &&
    text(v.color) &&
    (v.crop === null || typeof v.crop === 'object') &&
    (v.focal === null || typeof v.focal === 'object')
  );
}

/** What `imageUrl` needs of an asset: its delivered url (a `Link` of kind `asset` has one too). */
export type ImageSource = Pick<Asset, 'url'>;

function positive(name: string, value: number | undefined, max: number): string | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 1 || value > max)
    throw new RangeError(`imageUrl: ${name} is a whole number from 1 to ${max}, not ${value}`);
  return String(value);
}

/** The url of a derived image; the delivered url's crop and signature stay. */
export function imageUrl(asset: ImageSource, params: ImageParams = {}): string {
  const url = new URL(asset.url);
  const set = (name: string, value: string | undefined) => {
    if (value !== undefined) url.searchParams.set(name, value);
  };
  set('w', positive('w', params.w, 3840));
  set('h', positive('h', params.h, 3840));
  if (params.ar !== undefined) {
    const [aw, ah] = typeof params.ar === 'string' ? params.ar.split(':').map(Number) : params.ar;
    set('ar', `${positive('ar', aw, 999)}:${positive('ar', ah, 999)}`);
  }
  set('preset', params.preset);
  set('q', positive('q', params.q, 100));
  set('fm', params.fm);
  return url.href;
}

/**
 * The widths of the ladder up to the image's own (no upscaling: the server would answer the source's width
 * anyway); `widths` narrows them (each rounded up to the ladder).
 */
export function ladderWidths(asset: Pick<Asset, 'width'>, widths?: readonly number[]): number[] {
  const max = asset.width ?? Number.POSITIVE_INFINITY;
  const rungs = widths === undefined ? [...WIDTH_LADDER] : widths.map(toLadder);
  const kept = [...new Set(rungs)].filter((w) => w <= max).sort((a, b) => a - b);
  // An image narrower than the first rung still gets one candidate: its own width.
  if (kept.length === 0 && asset.width !== null) return [toLadder(Math.min(asset.width, 3840))];
  return kept;
}

function toLadder(w: number): number {
  return WIDTH_LADDER.find((rung) => rung >= w) ?? 3840;
}

/** A `srcset` on the width ladder: `url 320w, url 640w, …`. */
export function srcset(
  asset: Pick<Asset, 'url' | 'width'>,
  widths?: readonly number[],
  params: Omit<ImageParams, 'w' | 'h'> = {},
): string {
  return ladderWidths(asset, widths)
    .map((w) => `${imageUrl(asset, { ...params, w })} ${w}w`)
    .join(', ');
}

export interface PictureOptions extends Omit<ImageParams, 'w' | 'h' | 'fm'> {
  /** The `sizes` attribute (default `100vw`). */
  sizes?: string;
  /** Candidate widths (default: the ladder up to the image's width). */
  widths?: readonly number[];
  /** The `<img>`'s own width (its `src`), default 1024. */
  width?: number;
  /** Default: the asset's `alt` (empty when it has none: decorative). */
  alt?: string;
  /** `lazy` (default) or `eager`. */
  loading?: 'lazy' | 'eager';
  /** A class on the `<img>`. */
  className?: string;
}

/**
 * A `<picture>` with AVIF and WebP sources and a JPEG fallback, all on the width ladder, `width`/`height` from
 * the asset (and `ar`) so the page does not jump, the placeholder colour as background. Escaped throughout.
 */
export function picture(asset: Asset, options: PictureOptions = {}): string {
  const { sizes = '100vw', widths, width = 1024, alt, loading = 'lazy', className, ...params } = options;
  const sources = (['avif', 'webp'] as const)
    .map(
      (fm) =>
        `<source type="image/${fm}" srcset="${escapeHtml(srcset(asset, widths, { ...params, fm }))}" sizes="${escapeHtml(sizes)}">`,
    )
    .join('');
  const dims = dimensions(asset, params);
  const attrs = [
    `src="${escapeHtml(imageUrl(asset, { ...params, w: ladderWidths(asset, [width])[0] ?? width, fm: 'jpeg' }))}"`,
    `srcset="${escapeHtml(srcset(asset, widths, { ...params, fm: 'jpeg' }))}"`,
    `sizes="${escapeHtml(sizes)}"`,
    `alt="${escapeHtml(alt ?? asset.alt ?? '')}"`,
    ...(dims === null ? [] : [`width="${dims[0]}"`, `height="${dims[1]}"`]),
    `loading="${loading}"`,
    'decoding="async"',
    ...(className === undefined ? [] : [`class="${escapeHtml(className)}"`]),
    ...(asset.color !== null && /^#[0-9a-fA-F]{3,8}$/.test(asset.color)
      ? [`style="background-color:${asset.color}"`]
      : []),
  ];
  return `<picture>${sources}<img ${attrs.join(' ')}></picture>`;
}

/** The intrinsic size the `<img>` announces: the asset's, or its width with the asked aspect. */
function dimensions(asset: Asset, params: Pick<ImageParams, 'ar'>): [number, number] | null {
  if (asset.width === null || asset.height === null) return null;
  if (params.ar === undefined) return [asset.width, asset.height];
  const [aw, ah] = typeof params.ar === 'string' ? params.ar.split(':').map(Number) : params.ar;
  if (aw === undefined || ah === undefined || !(aw > 0) || !(ah > 0)) return [asset.width, asset.height];
  return [asset.width, Math.round((asset.width * ah) / aw)];
}

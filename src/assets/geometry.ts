// What a derived image shows and how big it is: pure arithmetic over the source's size, the signed crop, the
// focal point and the request (spec 2.3 rules 2-4). The pixels are sharp's business (derive.ts).

import { invalidQuery } from '../errors/errors.js';
import { own } from '../lib/own.js';
import type { Crop } from '../lib/crop.js';
import type { ImageQuery } from './image-params.js';
import { MAX_DERIVED_WIDTH } from './limits.js';

/** spec 2.3 rule 3: derived widths round up to one of these. */
export const WIDTH_LADDER = [160, 320, 480, 640, 768, 1024, 1280, 1600, 1920, 2560, 3840] as const;

export interface PresetSize {
  width: number;
  height: number;
}

/**
 * spec 2.3 rule 4's presets, cropped at the focal point: a square thumbnail, a 4:3 card, a 16:9 hero and the
 * 1200 × 630 that Open Graph and X cards expect. A space's own `imagePresets` of the same name replace these.
 */
export const BUILTIN_PRESETS: Readonly<Record<string, PresetSize>> = {
  thumb: { width: 160, height: 160 },
  card: { width: 640, height: 480 },
  hero: { width: 1920, height: 1080 },
  og: { width: 1200, height: 630 },
};

export interface SourceImage {
  /** Size after EXIF orientation, as the asset reports it. */
  width: number;
  height: number;
  focal: { x: number; y: number } | null;
}

export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface ImagePlan {
  /** The part of the (oriented) source shown, in its pixels. */
  region: Rect;
  /** The output size. */
  width: number;
  height: number;
}

/** The smallest ladder step at or above `width` (the parser caps it at the top step). */
export function ladderWidth(width: number): number {
  return WIDTH_LADDER.find((step) => step >= width) ?? MAX_DERIVED_WIDTH;
}

const clamp = (n: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, n));

/** The largest rectangle of `aspect` inside `base`, centred on the focal point as far as the edges allow. */
function coverAt(base: Rect, aspect: number, fx: number, fy: number): Rect {
  const width = Math.min(base.width, base.height * aspect);
  const height = width / aspect;
  return {
    left: clamp(fx - width / 2, base.left, base.left + base.width - width),
    top: clamp(fy - height / 2, base.top, base.top + base.height - height),
    width,
    height,
  };
}

/** Whole pixels inside the source, at least one. */
function snap(r: Rect, src: SourceImage): Rect {
  const left = clamp(Math.round(r.left), 0, src.width - 1);
  const top = clamp(Math.round(r.top), 0, src.height - 1);
  return {
    left,
    top,
    width: clamp(Math.round(r.width), 1, src.width - left),
    height: clamp(Math.round(r.height), 1, src.height - top),
  };
}

type SizeQuery = Pick<ImageQuery, 'width' | 'height' | 'aspect' | 'preset'>;

/**
 * The plan of one derived image. The aspect comes from a preset, `ar`, or `w` with `h`; then the region is the
 * largest rectangle of it inside the (cropped) image, centred on the focal point. The width is `w` rounded up to
 * the ladder, else the preset's, else `h` turned into a width and rounded up, else the region's; never above
 * the region's own width (no upscaling). The height follows from the width and the region.
 */
export function planImage(
  src: SourceImage,
  query: SizeQuery,
  crop: Crop | null,
  presets: Readonly<Record<string, PresetSize>>,
): ImagePlan {
  const base: Rect = crop
    ? {
        left: crop.x * src.width,
        top: crop.y * src.height,
        width: crop.width * src.width,
        height: crop.height * src.height,
      }
    : { left: 0, top: 0, width: src.width, height: src.height };
  // Own keys only: `?preset=constructor` must not find Object.prototype.constructor (a 500 before).
  const preset =
    query.preset === null ? null : (own(presets, query.preset) ?? own(BUILTIN_PRESETS, query.preset));
  if (query.preset !== null && preset === undefined)
    throw invalidQuery(`Unknown image preset "${query.preset}".`, 'preset');
  const aspect = preset
    ? preset.width / preset.height
    : (query.aspect ?? (query.width !== null && query.height !== null ? query.width / query.height : null));
  // The focal point is a fraction of the original; a crop that leaves it out pulls it to its nearest edge.
  const focal = src.focal ?? { x: 0.5, y: 0.5 };
  const fx = clamp(focal.x * src.width, base.left, base.left + base.width);
  const fy = clamp(focal.y * src.height, base.top, base.top + base.height);
  const region = snap(aspect === null ? base : coverAt(base, aspect, fx, fy), src);
  let width: number;
  if (query.width !== null) width = ladderWidth(query.width);
  else if (preset) width = preset.width;
  else if (query.height !== null)
    width = ladderWidth(Math.ceil((query.height * region.width) / region.height));
  else width = region.width;
  width = clamp(width, 1, region.width);
  const height = Math.max(1, Math.round((width * region.height) / region.width));
  return { region, width, height };
}

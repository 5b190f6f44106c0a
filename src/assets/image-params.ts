// The query parameters of a derived image (docs/api.md "Images"), after imgix, Storyblok and Sanity: parsed and
// checked here, before any asset is read. Unknown parameters and values answer 400.

import { invalidQuery } from '../errors/errors.js';
import { type Crop, parseCropParam } from '../lib/crop.js';
import { MAX_DERIVED_WIDTH } from './limits.js';

/**
 * The qualities a variant is made at: `q` snaps to the nearest (a tie goes up), so `q=61` and
 * `q=62` are one file, not two. Every format's default is a step. Seven steps instead of a hundred values cut the
 * variants one asset can have by that much: 700 distinct `?h=&q=&fm=` had grown the blob store by 51 MB.
 */
export const QUALITY_STEPS = [25, 50, 60, 75, 80, 90, 100] as const;

/** The step nearest to `q` (1–100). */
export function snapQuality(q: number): number {
  let best: number = QUALITY_STEPS[0];
  for (const step of QUALITY_STEPS) if (Math.abs(step - q) <= Math.abs(best - q)) best = step;
  return best;
}

/** Output formats a client may name with `fm`; without it the format follows `Accept`. */
export const OUTPUT_FORMATS = ['avif', 'webp', 'jpeg', 'png'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number] | 'gif';

export interface ImageQuery {
  /** Requested width in pixels (rounded up to the ladder later). */
  width: number | null;
  height: number | null;
  /** Width ÷ height, from `ar=16:9`. */
  aspect: number | null;
  preset: string | null;
  /** One of QUALITY_STEPS (`q` snapped). */
  quality: number | null;
  format: (typeof OUTPUT_FORMATS)[number] | null;
  /** A crop and its signature (null: missing or malformed), checked by the route: 403 unless it matches. */
  crop: { crop: Crop; sig: string | null } | null;
}

const PARAMS = new Set(['w', 'h', 'ar', 'preset', 'q', 'fm', 'crop', 'sig']);
const INT = /^[1-9]\d{0,4}$/;
const ASPECT = /^([1-9]\d{0,2}):([1-9]\d{0,2})$/;
const PRESET = /^[a-z0-9][a-z0-9_-]{0,39}$/;
const SIG = /^[A-Za-z0-9_-]{22}$/;

function int(raw: string, name: string, max: number): number {
  const n = INT.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1 && n <= max))
    throw invalidQuery(`Parameter "${name}" must be an integer from 1 to ${max}.`, name);
  return n;
}

/** True when the query asks for a derived image at all (the bare URL serves the original file). */
export const wantsDerived = (query: Readonly<Record<string, unknown>>): boolean =>
  Object.keys(query).length > 0;

/** Parses the image parameters; anything unknown, repeated or malformed is 400 `invalid_query`. */
export function parseImageQuery(query: Readonly<Record<string, unknown>>): ImageQuery {
  const raw: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    if (!PARAMS.has(name)) throw invalidQuery(`Unknown image parameter "${name}".`, name);
    if (typeof value !== 'string') throw invalidQuery(`Parameter "${name}" must be given once.`, name);
    raw[name] = value;
  }
  const { w, h, ar, preset, q, fm, crop, sig } = raw;
  let aspect: number | null = null;
  if (ar !== undefined) {
    const m = ASPECT.exec(ar);
    if (!m) throw invalidQuery('Parameter "ar" must be width:height, for example 16:9.', 'ar');
    aspect = Number(m[1]) / Number(m[2]);
  }
  if (preset !== undefined && !PRESET.test(preset))
    throw invalidQuery(`Unknown image preset "${preset}".`, 'preset');
  if (preset !== undefined && (h !== undefined || ar !== undefined))
    throw invalidQuery('A preset sets the aspect: use "w" with it, not "h" or "ar".', 'preset');
  if (h !== undefined && ar !== undefined)
    throw invalidQuery('Give "h" or "ar", not both ("w" and "h" set the aspect).', 'ar');
  const format = fm === undefined ? null : (OUTPUT_FORMATS.find((f) => f === fm) ?? null);
  if (fm !== undefined && format === null)
    throw invalidQuery(`Parameter "fm" must be one of ${OUTPUT_FORMATS.join(', ')}.`, 'fm');
  if (sig !== undefined && crop === undefined)
    throw invalidQuery('Parameter "sig" signs a "crop"; there is none.', 'sig');
  let signed: ImageQuery['crop'] = null;
  if (crop !== undefined) {
    const parsed = parseCropParam(crop);
    if (parsed === null)
      throw invalidQuery('Parameter "crop" must be x,y,width,height as fractions of the image.', 'crop');
    // A missing or malformed signature is a crop nobody saved: the route answers 403, like a forged one.
    signed = { crop: parsed, sig: sig !== undefined && SIG.test(sig) ? sig : null };
  }
  return {
    width: w === undefined ? null : int(w, 'w', MAX_DERIVED_WIDTH),
    height: h === undefined ? null : int(h, 'h', MAX_DERIVED_WIDTH),
    aspect,
    preset: preset ?? null,
    quality: q === undefined ? null : snapQuality(int(q, 'q', 100)),
    format,
    crop: signed,
  };
}

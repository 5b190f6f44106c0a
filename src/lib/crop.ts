// Crops of an image, as fractions of the original (spec 2.3 rule 2), and their signatures: only a crop saved in
// content renders, so the delivered `url` carries the crop and an HMAC that the image route checks.

import { createHmac, timingSafeEqual } from 'node:crypto';

export interface Crop {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Fractions are kept to 4 decimals: 1/10,000 of a 16k-pixel image is under two pixels. */
const round4 = (n: number): number => Math.round(n * 10_000) / 10_000;

const isFraction = (n: unknown): n is number =>
  typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= 1;

/**
 * A crop from content, checked: four fractions of the original, a non-empty rectangle inside it. Anything else
 * (missing, malformed, outside the image) is no crop, never a cast.
 */
export function parseContentCrop(value: unknown): Crop | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { x, y, width, height } = value as Record<string, unknown>;
  if (!isFraction(x) || !isFraction(y) || !isFraction(width) || !isFraction(height)) return null;
  const crop = { x: round4(x), y: round4(y), width: round4(width), height: round4(height) };
  return isInside(crop) ? crop : null;
}

function isInside(c: Crop): boolean {
  return c.width > 0 && c.height > 0 && c.x + c.width <= 1.00001 && c.y + c.height <= 1.00001;
}

/** The crop as the URL carries it: `x,y,width,height`, shortest decimals. */
export const cropParam = (c: Crop): string => [c.x, c.y, c.width, c.height].map(String).join(',');

const FRACTION = /^(?:0(?:\.\d{1,4})?|1(?:\.0{1,4})?|\.\d{1,4})$/;

/** `crop=x,y,w,h` from a URL; null when it is not four fractions of a non-empty rectangle inside the image. */
export function parseCropParam(raw: string): Crop | null {
  const parts = raw.split(',');
  if (parts.length !== 4 || !parts.every((p) => FRACTION.test(p))) return null;
  const [x, y, width, height] = parts.map(Number) as [number, number, number, number];
  const crop = { x, y, width, height };
  return isInside(crop) ? crop : null;
}

/** 128 bits of HMAC-SHA256, base64url: the `sig` of one crop of one asset in one space. */
export function cropSignature(key: Buffer, spaceId: string, assetId: string, crop: Crop): string {
  return createHmac('sha256', key)
    .update(`${spaceId}\n${assetId}\n${cropParam(crop)}`, 'utf8')
    .digest()
    .subarray(0, 16)
    .toString('base64url');
}

/** Constant-time check of a `sig` against the crop as parsed (so `0.50` and `0.5` sign alike). */
export function validCropSignature(
  key: Buffer,
  spaceId: string,
  assetId: string,
  crop: Crop,
  sig: string,
): boolean {
  const want = Buffer.from(cropSignature(key, spaceId, assetId, crop));
  const got = Buffer.from(sig);
  return want.length === got.length && timingSafeEqual(want, got);
}

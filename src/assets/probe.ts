import { extname } from 'node:path';
import sharp from 'sharp';
import { own } from '../lib/own.js';
import { MAX_IMAGE_PIXELS } from './limits.js';

export interface ProbedFile {
  mime: string;
  size: number;
  /** Width and height as displayed: after the EXIF orientation, of the first frame. */
  width: number | null;
  height: number | null;
  /** Average colour as #rrggbb (spec 2.3 rule 1). */
  color: string | null;
  /** A tiny blurred preview (at most 16×16) as a data: URL, for low-quality placeholders. */
  placeholder: string | null;
}

/** An image whose header declares more than MAX_IMAGE_PIXELS: refused before any pixel is decoded. */
export interface TooManyPixels {
  /** As the header declares them (before the EXIF orientation). */
  width: number;
  height: number;
  max: number;
  message: string;
}

export type ProbeResult = { ok: true; file: ProbedFile } | { ok: false; refusal: TooManyPixels };

/** What the caller already knows of the file. */
export interface ProbeInput {
  filename: string;
  size: number;
  /** The type found in the content (sniffFile), used for files that are not images instead of the name. */
  type?: string;
}

const FORMAT_MIME: Record<string, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  avif: 'image/avif',
  heif: 'image/heif',
  tiff: 'image/tiff',
  svg: 'image/svg+xml',
};

const EXT_MIME: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.mp4': 'video/mp4',
  '.mp3': 'audio/mpeg',
  '.zip': 'application/zip',
};

/** The box the average colour is measured in: shrink-on-load makes it cheap, the mean hardly moves. */
const COLOR_BOX = 64;
const PLACEHOLDER_BOX = 16;

/**
 * Every decode keeps libvips' own pixel limit as a second guard, reads the first frame only (an animated GIF or a
 * multi-page TIFF is probed by its first page) and fails on a damaged file rather than inventing pixels.
 */
const DECODE: sharp.SharpOptions = {
  limitInputPixels: MAX_IMAGE_PIXELS,
  failOn: 'error',
  pages: 1,
  sequentialRead: true,
};

const hex = (n: number): string =>
  Math.round(Math.max(0, Math.min(255, n)))
    .toString(16)
    .padStart(2, '0');

const megapixels = (pixels: number): number => Math.floor(pixels / 1_000_000);

export function tooManyPixelsMessage(width: number, height: number): string {
  return `image declares ${width} × ${height} pixels; the limit is ${megapixels(MAX_IMAGE_PIXELS)} megapixels`;
}

function imageMime(meta: sharp.Metadata): string | undefined {
  // libheif reads both HEIC and AVIF; the compression tells them apart.
  if (meta.format === 'heif' && meta.compression === 'av1') return 'image/avif';
  return meta.format ? FORMAT_MIME[meta.format] : undefined;
}

/**
 * Reads what an asset field delivers from the file (its bytes, or the path of a file holding them): media type by
 * content, size, displayed width and height, colour, placeholder. An image declaring more than MAX_IMAGE_PIXELS
 * is refused from its header alone; anything sharp cannot read is a file of the type `about.type` (or the name)
 * says, without pixels.
 */
export async function probeFile(input: Buffer | string, about: ProbeInput): Promise<ProbeResult> {
  const plain: ProbedFile = {
    mime: about.type ?? own(EXT_MIME, extname(about.filename).toLowerCase()) ?? 'application/octet-stream',
    size: about.size,
    width: null,
    height: null,
    color: null,
    placeholder: null,
  };
  let meta: sharp.Metadata;
  try {
    // The one call without libvips' limit: it would refuse with "exceeds pixel limit" and no size to report.
    // metadata() reads the header only and decodes no pixel, so the limit is checked just below instead.
    meta = await sharp(input, { limitInputPixels: false, failOn: 'error', pages: 1 }).metadata();
  } catch {
    return { ok: true, file: plain }; // Not an image sharp can read (PDF, text, …).
  }
  const mime = imageMime(meta);
  const { width, height } = meta;
  if (!mime || !width || !height) return { ok: true, file: plain };
  // With `pages: 1` (sharp's default) height is the first frame's: the only frame ever decoded (limits.ts).
  if (width * height > MAX_IMAGE_PIXELS) {
    const refusal = { width, height, max: MAX_IMAGE_PIXELS, message: tooManyPixelsMessage(width, height) };
    return { ok: false, refusal };
  }
  try {
    const [color, placeholder] = await Promise.all([averageColor(input), placeholderOf(input)]);
    return {
      ok: true,
      file: {
        ...plain,
        mime,
        width: meta.autoOrient.width,
        height: meta.autoOrient.height,
        color,
        placeholder,
      },
    };
  } catch {
    // A header sharp reads over pixels it cannot decode (a truncated file): a file, not an image.
    return { ok: true, file: plain };
  }
}

/**
 * The mean of R, G and B over the image shrunk into COLOR_BOX, converted to 8-bit sRGB first, so 16-bit,
 * greyscale, palette and CMYK files give the colour a viewer sees (their raw channel means do not).
 */
async function averageColor(input: Buffer | string): Promise<string> {
  const { data, info } = await sharp(input, DECODE)
    .resize(COLOR_BOX, COLOR_BOX, { fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .removeAlpha()
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  let r = 0;
  let g = 0;
  let b = 0;
  for (let i = 0; i + 2 < data.length; i += info.channels) {
    r += data[i] ?? 0;
    g += data[i + 1] ?? 0;
    b += data[i + 2] ?? 0;
  }
  const pixels = Math.max(1, info.width * info.height);
  return `#${hex(r / pixels)}${hex(g / pixels)}${hex(b / pixels)}`;
}

/** The placeholder is displayed in place of the image, so it is oriented like it (EXIF applied before resizing). */
async function placeholderOf(input: Buffer | string): Promise<string> {
  const tiny = await sharp(input, DECODE)
    .autoOrient()
    .resize(PLACEHOLDER_BOX, PLACEHOLDER_BOX, { fit: 'inside' })
    .webp({ quality: 40 })
    .toBuffer();
  return `data:image/webp;base64,${tiny.toString('base64')}`;
}

// The pixels of a derived image, with sharp: shrink-on-load, sequential reads, EXIF orientation applied, metadata
// stripped, sRGB out (sharp's defaults once no metadata is kept). One call per variant; the queue bounds them.

import type { Readable } from 'node:stream';
import sharp from 'sharp';
import type { ImagePlan } from './geometry.js';
import type { OutputFormat } from './image-params.js';
import { MAX_IMAGE_PIXELS } from './limits.js';

/** Quality when the request names none: imgix's 75 for WebP, AVIF's equivalent, a photo JPEG's usual 80. */
export const DEFAULT_QUALITY: Readonly<Record<OutputFormat, number>> = {
  avif: 50,
  webp: 75,
  jpeg: 80,
  png: 100,
  gif: 100,
};

/**
 * AVIF at libaom's speed 2 of 9 costs about half of the default 4 for a barely larger file: a first request
 * waits for it, and every later one is served from the blob store.
 */
const AVIF_EFFORT = 2;

function encode(image: sharp.Sharp, format: OutputFormat, quality: number): sharp.Sharp {
  switch (format) {
    case 'avif':
      return image.avif({ quality, effort: AVIF_EFFORT });
    case 'webp':
      return image.webp({ quality });
    case 'jpeg':
      return image.jpeg({ quality, progressive: true });
    case 'png':
      return image.png({ compressionLevel: 6 });
    case 'gif':
      return image.gif();
  }
}

export interface DeriveInput {
  /** The original file, streamed (sequential read: never held whole unless the format needs it). */
  source: Readable;
  /** The source's size after EXIF orientation, which the plan's region is measured in. */
  sourceWidth: number;
  sourceHeight: number;
  plan: ImagePlan;
  format: OutputFormat;
  quality: number | null;
}

/**
 * Renders one variant. A region smaller than the image is cut after scaling the whole image by the output's
 * factor (resize, then extract): libvips then decodes JPEG and WebP at a fraction of their size (shrink-on-load),
 * where an extract first would decode every pixel of a 12 MP photo. Animated GIFs give their first frame.
 */
export async function deriveImage(input: DeriveInput): Promise<Buffer> {
  const { plan, sourceWidth, sourceHeight } = input;
  const pipeline = sharp({ limitInputPixels: MAX_IMAGE_PIXELS, sequentialRead: true, failOn: 'error' });
  input.source.on('error', (err) => pipeline.destroy(err));
  input.source.pipe(pipeline);
  let image = pipeline.autoOrient();
  const { region } = plan;
  const whole =
    region.left === 0 && region.top === 0 && region.width === sourceWidth && region.height === sourceHeight;
  if (whole) image = image.resize(plan.width, plan.height, { fit: 'fill' });
  else {
    const scale = plan.width / region.width;
    const scaledWidth = Math.max(plan.width, Math.round(sourceWidth * scale));
    const scaledHeight = Math.max(plan.height, Math.round(sourceHeight * scale));
    image = image.resize(scaledWidth, scaledHeight, { fit: 'fill' }).extract({
      left: Math.min(Math.round(region.left * scale), scaledWidth - plan.width),
      top: Math.min(Math.round(region.top * scale), scaledHeight - plan.height),
      width: plan.width,
      height: plan.height,
    });
  }
  return encode(image, input.format, input.quality ?? DEFAULT_QUALITY[input.format]).toBuffer();
}

/** Process-wide sharp settings for a server: no libvips operation cache (variants are cached as files), and one
 * libvips thread per image so the work queue's bound is the CPU bound. */
export function configureSharp(threadsPerImage = 1): void {
  sharp.cache(false);
  sharp.concurrency(threadsPerImage);
}

// spec 2.3 rule 5: the format of a derived image follows the request's `Accept`: AVIF where accepted, else WebP,
// else the original's own type (or the nearest one a browser shows).

import type { OutputFormat } from './image-params.js';
import { own } from '../lib/own.js';

/** Media types sharp reads and this pipeline derives from. */
const SOURCE_FORMATS: Readonly<Record<string, OutputFormat>> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/gif': 'gif',
  // Types not every browser shows, for a client that accepts neither AVIF nor WebP: PNG where transparency may
  // matter, JPEG for photo formats.
  'image/webp': 'png',
  'image/avif': 'png',
  'image/svg+xml': 'png',
  'image/tiff': 'jpeg',
  'image/heif': 'jpeg',
};

export const isDerivable = (mime: string): boolean => Object.hasOwn(SOURCE_FORMATS, mime);

export const CONTENT_TYPE: Readonly<Record<OutputFormat, string>> = {
  avif: 'image/avif',
  webp: 'image/webp',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
};

/** Whether `Accept` names the type with a non-zero q (a wildcard `image/*` does not count: browsers send it). */
export function accepts(accept: string | undefined, type: string): boolean {
  if (accept === undefined) return false;
  for (const part of accept.split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (name?.trim().toLowerCase() !== type) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  }
  return false;
}

/** The output format for a source type and a request's `Accept`. */
export function negotiateFormat(sourceMime: string, accept: string | undefined): OutputFormat {
  if (accepts(accept, 'image/avif')) return 'avif';
  if (accepts(accept, 'image/webp')) return 'webp';
  return own(SOURCE_FORMATS, sourceMime) ?? 'jpeg';
}

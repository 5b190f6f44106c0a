import { extname } from 'node:path';
import sharp from 'sharp';

export interface ProbedFile {
  mime: string;
  size: number;
  width: number | null;
  height: number | null;
  /** Average colour as #rrggbb (spec 2.3 rule 1). */
  color: string | null;
  /** A tiny blurred preview as a data: URL, for low-quality placeholders. */
  placeholder: string | null;
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

const hex = (n: number): string =>
  Math.round(Math.max(0, Math.min(255, n)))
    .toString(16)
    .padStart(2, '0');

/** Reads what an asset field delivers from the file's bytes: media type by content, size, colour. */
export async function probeFile(data: Buffer, filename: string): Promise<ProbedFile> {
  try {
    const image = sharp(data, { failOn: 'error' });
    const meta = await image.metadata();
    const mime = meta.format ? FORMAT_MIME[meta.format] : undefined;
    if (mime && meta.width && meta.height) {
      const stats = await image.stats();
      const [r, g, b] = stats.channels;
      const color = r && g && b ? `#${hex(r.mean)}${hex(g.mean)}${hex(b.mean)}` : null;
      const tiny = await sharp(data).resize(16, 16, { fit: 'inside' }).webp({ quality: 40 }).toBuffer();
      const rotated = (meta.orientation ?? 1) >= 5;
      return {
        mime,
        size: data.length,
        width: rotated ? meta.height : meta.width,
        height: rotated ? meta.width : meta.height,
        color,
        placeholder: `data:image/webp;base64,${tiny.toString('base64')}`,
      };
    }
  } catch {
    // Not an image sharp can read: fall through to the name.
  }
  const mime = EXT_MIME[extname(filename).toLowerCase()] ?? 'application/octet-stream';
  return { mime, size: data.length, width: null, height: null, color: null, placeholder: null };
}

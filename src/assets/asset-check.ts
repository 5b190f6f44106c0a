// What every asset file goes through before it is stored, uploaded one by one (ingest.ts) or imported with a
// bundle (import-assets.ts): the content checks of form uploads (spec 4.4 rule 5; SVG and other XML read whole,
// not sniffed), HTML refused (no field `accept` narrows an asset, and an asset is public), and the probe that refuses
// a decompression bomb from its header.

import type { SniffOutcome } from '../files/sniff.js';
import { type ProbedFile, probeFile, type TooManyPixels } from './probe.js';

export type AssetCheck =
  | { ok: true; file: ProbedFile }
  | { ok: false; code: 'invalid_file'; reason: string }
  | { ok: false; code: 'image_too_large'; refusal: TooManyPixels };

const invalid = (reason: string): AssetCheck => ({ ok: false, code: 'invalid_file', reason });

/**
 * `sniffed` is the ContentSniffer's outcome over the whole file at `path`. With `typeFromContent` a file that is
 * no image takes the sniffed type (uploads); without it the type its name says (bundle imports, as they always did).
 */
export async function checkAssetFile(
  path: string,
  file: { filename: string; size: number },
  sniffed: SniffOutcome,
  opts: { typeFromContent: boolean },
): Promise<AssetCheck> {
  if (!sniffed.ok) return invalid(sniffed.reason);
  if (sniffed.type === 'text/html') return invalid('an HTML page');
  const about = {
    filename: file.filename,
    size: file.size,
    ...(opts.typeFromContent ? { type: sniffed.type } : {}),
  };
  const probe = await probeFile(path, about);
  if (!probe.ok) return { ok: false, code: 'image_too_large', refusal: probe.refusal };
  // libvips reads SVG the XML check did not (gzip-compressed SVGZ): an asset delivered as SVG must have passed it.
  if (probe.file.mime === 'image/svg+xml' && sniffed.type !== 'image/svg+xml')
    return invalid(`an SVG image that is not plain SVG text (${sniffed.type})`);
  return { ok: true, file: probe.file };
}

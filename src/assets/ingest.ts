// POST /v1/spaces/<spaceId>/assets: one file and its texts, after Contentful's and Storyblok's
// asset upload. The file is cut off while streaming at MAX_ASSET_BYTES, checked against its content like a form
// upload (asset-check.ts; SVG and XML read whole while they stream to disk), probed (a decompression bomb is
// refused from its header) and only then stored and published in one cv bump, so a refused file never reaches
// the blob store. No HTTP here: asset-routes.ts turns multipart parts into AssetPart values.

import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BlobStore } from '../blobs/blob-store.js';
import { safeSegment } from '../blobs/blob-store.js';
import { at, isObject, Problems } from '../lib/problems.js';
import type { AssetDoc } from '../content/model.js';
import { displayName, tooLarge } from '../forms/uploads/receive-upload.js';
import type { ContentSniffer } from '../files/sniff.js';
import { FileTooLarge, SniffingLimit } from '../files/sniff-stream.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../lib/file-modes.js';
import { newId } from '../lib/ids.js';
import { invalid, requireSpace } from '../content/context.js';
import {
  type FieldErrorDetail,
  type FolioError,
  invalidBody,
  notFound,
  validationFailed,
} from '../errors/errors.js';
import { getAsset, insertAssets } from '../store/authoring-repo.js';
import { putDocVersion } from '../store/log-repo.js';
import type { Store } from '../store/open-store.js';
import { withPublish } from '../content/publish-log.js';
import { checkAssetFile } from './asset-check.js';
import type { TooManyPixels } from './probe.js';

/** The largest asset file: a print-quality photo or a long PDF, well above what a site serves. */
export const MAX_ASSET_BYTES = 50 * 1024 * 1024;
/** The largest text part (`alt`, `title` hold one text per locale). */
export const MAX_ASSET_FIELD_BYTES = 16 * 1024;

const TEXT_PARTS = ['alt', 'title', 'credit', 'focal'] as const;
type TextPart = (typeof TEXT_PARTS)[number];
const isTextPart = (name: string): name is TextPart => (TEXT_PARTS as readonly string[]).includes(name);

export type AssetPart =
  | { kind: 'field'; name: string; value: string; truncated: boolean }
  | { kind: 'file'; name: string; filename: string; mimetype: string; stream: Readable };

export interface IngestDeps {
  store: Store;
  blobs: BlobStore;
  /** Where a file waits on disk while it is checked (never in memory: it may be 50 MB). */
  workDir: string;
}

export interface IngestRequest {
  spaceId: string;
  /** The multipart parts in order; a file part's stream must be read before the next part comes. */
  parts: AsyncIterable<AssetPart>;
}

/** An asset as the management API answers it (the delivered asset of spec 2.3 without a usage's crop). */
export type ManagedAsset = AssetDoc & { url: string };

export function managedAsset(doc: AssetDoc, url: string): ManagedAsset {
  const { id, filename, mime, size, width, height, focal, alt, title, credit, color, placeholder } = doc;
  return { id, url, filename, mime, size, width, height, focal, alt, title, credit, color, placeholder };
}

/** The texts of the parts before the file, parsed; problems are answered once the file part comes. */
interface AssetTexts {
  alt: Record<string, string>;
  title: Record<string, string>;
  credit: string | null;
  focal: { x: number; y: number } | null;
}

interface Received {
  path: string;
  filename: string;
  declared: string;
  size: number;
  /** What was read of the file while it was written to disk. */
  sniffer: ContentSniffer;
}

const fileFailure = (error: FieldErrorDetail): FolioError =>
  validationFailed('The file is not valid.', { details: { fields: { file: error } } });

const imageTooLarge = (r: TooManyPixels): FolioError =>
  fileFailure({
    code: 'image_too_large',
    message: `This ${r.message}.`,
    params: { width: r.width, height: r.height, max: r.max },
  });

export async function ingestAsset(
  deps: IngestDeps,
  req: IngestRequest,
): Promise<{ doc: AssetDoc; cv: number }> {
  const space = await requireSpace(deps.store, req.spaceId);
  const locales = new Set(space.settings.locales.map((l) => l.code));
  await mkdir(deps.workDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const dir = await mkdtemp(join(deps.workDir, 'asset-'));
  try {
    const { texts, file } = await receive(req.parts, locales, join(dir, 'file'));
    // The same checks as a form upload, over the whole file (SVG and XML read through), plus HTML and the probe.
    const sniffed = await file.sniffer.outcome(file.declared);
    const checked = await checkAssetFile(file.path, file, sniffed, { typeFromContent: true });
    if (!checked.ok) {
      if (checked.code === 'image_too_large') throw imageTooLarge(checked.refusal);
      throw fileFailure({ code: 'invalid_file', message: `This file is not valid: ${checked.reason}.` });
    }

    const id = newId('ast');
    const blobKey = `assets/${space.id}/${id}/${safeSegment(file.filename)}`;
    const doc: AssetDoc = { id, filename: file.filename, ...checked.file, ...texts };
    await deps.blobs.put(blobKey, createReadStream(file.path), { contentType: doc.mime });
    try {
      const { cv } = await withPublish(deps.store, space.id, async (tx, cv) => {
        await insertAssets(tx, space.id, [{ blobKey, doc, createdAt: new Date().toISOString() }]);
        // Delivery reads assets at a cv from the published log (content-view.ts), like the import writes them.
        await putDocVersion(tx, space.id, cv, 'asset', id, doc);
      });
      return { doc, cv };
    } catch (err) {
      // The error worth answering is the store's; a blob that could not be removed is only unreferenced.
      await deps.blobs.delete(blobKey).catch(() => undefined);
      throw err;
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** An asset as stored now, or a 404. */
export async function getManagedAsset(
  store: Store,
  spaceId: string,
  id: string,
): Promise<{ doc: AssetDoc; cv: number }> {
  const space = await requireSpace(store, spaceId);
  const row = await getAsset(store, space.id, id);
  if (!row) throw notFound(`Asset "${id.slice(0, 100)}" not found.`);
  return { doc: row.doc, cv: space.cv };
}

/** Text parts first, then exactly one file part, which is written to `path`. */
async function receive(
  parts: AsyncIterable<AssetPart>,
  locales: ReadonlySet<string>,
  path: string,
): Promise<{ texts: AssetTexts; file: Received }> {
  const texts: AssetTexts = { alt: {}, title: {}, credit: null, focal: null };
  const seen = new Set<string>();
  const problems = new Problems();
  let file: Received | null = null;
  for await (const part of parts) {
    if (part.kind === 'file') {
      try {
        if (part.name !== 'file')
          throw invalidBody(`The file goes in the part named "file", not "${part.name.slice(0, 50)}".`);
        if (file) throw invalidBody('Send exactly one "file" part.');
        if (!problems.empty) throw invalid('asset', problems.list);
      } catch (err) {
        // An unread file would hold the request open: the parser waits for it to be read.
        part.stream.destroy();
        throw err;
      }
      file = await writeFile(part, path);
      continue;
    }
    if (file)
      throw invalidBody(
        `Send the text parts before the "file" part ("${part.name.slice(0, 50)}" came after it).`,
      );
    if (!isTextPart(part.name))
      throw invalidBody(`Unknown part "${part.name.slice(0, 50)}": send ${TEXT_PARTS.join(', ')} and file.`);
    if (seen.has(part.name)) throw invalidBody(`Send the "${part.name}" part once.`);
    seen.add(part.name);
    if (part.truncated)
      throw invalidBody(`The "${part.name}" part is longer than ${MAX_ASSET_FIELD_BYTES} bytes.`);
    parseText(texts, part.name, part.value, locales, problems);
  }
  if (!file) throw invalidBody('The request has no "file" part.');
  return { texts, file };
}

function parseText(
  texts: AssetTexts,
  name: TextPart,
  value: string,
  locales: ReadonlySet<string>,
  p: Problems,
): void {
  switch (name) {
    case 'credit':
      texts.credit = value.trim() === '' ? null : value;
      return;
    case 'focal': {
      const focal = parseFocal(value);
      if (focal) texts.focal = focal;
      else p.add('focal', 'must be "x,y" with fractions from 0 to 1, like "0.5,0.3"');
      return;
    }
    case 'alt':
    case 'title':
      texts[name] = parseLocalized(value, name, locales, p);
  }
}

const FRACTION = /^\s*(?:0|1|0?\.\d+|[01]\.\d+)\s*$/;

/** `"x,y"`: the point to keep in view when the image is cropped, as fractions of the width and height. */
function parseFocal(value: string): { x: number; y: number } | null {
  const [x, y, ...rest] = value.split(',');
  if (x === undefined || y === undefined || rest.length > 0 || !FRACTION.test(x) || !FRACTION.test(y))
    return null;
  const point = { x: Number(x), y: Number(y) };
  return point.x <= 1 && point.y <= 1 ? point : null;
}

/** A JSON object of one text per locale of the space. */
function parseLocalized(
  value: string,
  path: string,
  locales: ReadonlySet<string>,
  p: Problems,
): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    parsed = undefined;
  }
  const texts: Record<string, string> = {};
  if (!isObject(parsed)) {
    p.add(path, 'must be a JSON object of texts keyed by locale, like {"en":"…"}');
    return texts;
  }
  for (const [locale, text] of Object.entries(parsed)) {
    if (!locales.has(locale))
      p.add(at(path, locale), `"${locale.slice(0, 50)}" is not a locale of the space`);
    else if (typeof text !== 'string') p.add(at(path, locale), 'must be a string');
    else texts[locale] = text;
  }
  return texts;
}

async function writeFile(part: Extract<AssetPart, { kind: 'file' }>, path: string): Promise<Received> {
  const limit = new SniffingLimit(MAX_ASSET_BYTES);
  try {
    await pipeline(part.stream, limit, createWriteStream(path, { mode: PRIVATE_FILE_MODE }));
    // The parser cuts a file off at its own limit (just above ours) and ends the stream: never accept a cut file.
    if ('truncated' in part.stream && part.stream.truncated === true) throw new FileTooLarge();
  } catch (err) {
    if (err instanceof FileTooLarge) throw tooLarge('file', MAX_ASSET_BYTES);
    throw err;
  }
  return {
    path,
    filename: displayName(part.filename),
    declared: part.mimetype,
    size: limit.size,
    sniffer: limit.sniffer,
  };
}

// Derived images: find the asset, check the signed crop, plan the size, then serve the variant from
// memory, else from the blob store, else derive it once through the bounded work queue and keep it in both (the
// blob store within its budget: derived-images.ts). Only a new derivation counts against the visitor's limit.
// No Fastify here: image-routes.ts turns the result into a response.

import { createHash } from 'node:crypto';
import { buffer as readAll } from 'node:stream/consumers';
import { LRUCache } from 'lru-cache';
import type { BlobStore } from '../blobs/blob-store.js';
import { etagOf } from '../cache/etag.js';
import { type DeliveryDeps, loadSpace } from '../delivery/delivery-service.js';
import { forbidden, invalidQuery, notFound } from '../errors/errors.js';
import { type AssetRow, getAsset } from '../store/authoring-repo.js';
import { validCropSignature } from '../lib/crop.js';
import { deriveImage, DEFAULT_QUALITY } from './derive.js';
import type { DerivedImages } from './derived-images.js';
import { planImage } from './geometry.js';
import type { ImageQuery } from './image-params.js';
import type { ImageWork } from './image-work.js';
import { CONTENT_TYPE, isDerivable, negotiateFormat } from './negotiate.js';

export interface Variant {
  body: Buffer;
  etag: string;
  contentType: string;
}

export interface DerivedImage extends Variant {
  /** The format followed `Accept` (no `fm`): the response must say `Vary: Accept`. */
  negotiated: boolean;
}

export interface ImageServiceDeps {
  delivery: DeliveryDeps;
  blobs: BlobStore;
  /** `deriveKey(masterKey, 'image-crops')`. */
  cropKey: Buffer;
  work: ImageWork;
  /** The derived images in the blob store: their budget and their uses. */
  derived: DerivedImages;
  /** Bytes of derived images kept in memory. */
  memoryBytes: number;
  log: { warn(obj: object, msg: string): void };
}

/** Asset rows looked up per (space, cv): a publish or import moves the cv, so nothing stale outlives it. */
const ASSET_ROWS = 10_000;

export class ImageService {
  private readonly variants: LRUCache<string, Variant>;
  private readonly assets = new LRUCache<string, { row: AssetRow | null }>({ max: ASSET_ROWS });

  constructor(private readonly deps: ImageServiceDeps) {
    this.variants = new LRUCache<string, Variant>({
      maxSize: deps.memoryBytes,
      // One variant may take at most an eighth of the memory, so a few huge ones cannot flush the rest.
      maxEntrySize: Math.max(1, Math.floor(deps.memoryBytes / 8)),
      sizeCalculation: (v, key) => v.body.length + key.length,
    });
  }

  /** The asset as stored now, or a 404. */
  async asset(spaceId: string, assetId: string): Promise<AssetRow> {
    const space = await loadSpace(this.deps.delivery, spaceId);
    const key = `${spaceId}|${space.cv}|${assetId}`;
    let found = this.assets.get(key);
    if (found === undefined) {
      found = { row: await getAsset(this.deps.delivery.store, spaceId, assetId) };
      this.assets.set(key, found);
    }
    if (found.row === null) throw notFound('Asset not found.');
    return found.row;
  }

  /**
   * One derived image of an asset for a parsed query and the request's `Accept`. `beforeDerive` runs (and may
   * throw: the visitor's limit) only when the variant has to be made, not when it is in memory, in the blob store
   * or being made for another request.
   */
  async derived(
    spaceId: string,
    assetId: string,
    query: ImageQuery,
    accept: string | undefined,
    beforeDerive: () => Promise<void>,
  ): Promise<DerivedImage> {
    const space = await loadSpace(this.deps.delivery, spaceId);
    const row = await this.asset(spaceId, assetId);
    const { doc } = row;
    if (!isDerivable(doc.mime) || doc.width === null || doc.height === null)
      throw invalidQuery(`Asset "${assetId}" is not an image: it has no derived sizes.`);
    // spec 2.3 rule 2: only crops saved in content render; the delivered url signs them.
    if (query.crop !== null) {
      const { crop, sig } = query.crop;
      if (sig === null || !validCropSignature(this.deps.cropKey, spaceId, assetId, crop, sig))
        throw forbidden('This crop was not saved in content (its signature does not match).');
    }
    const source = { width: doc.width, height: doc.height, focal: doc.focal };
    const plan = planImage(source, query, query.crop?.crop ?? null, space.settings.imagePresets);
    const format = query.format ?? negotiateFormat(doc.mime, accept);
    // PNG and GIF are lossless: `q` changes nothing of their bytes, so it makes no variant of its own either.
    const quality = LOSSLESS.has(format)
      ? DEFAULT_QUALITY[format]
      : (query.quality ?? DEFAULT_QUALITY[format]);
    const { region } = plan;
    // Keyed by what decides the pixels, so `w=500` and `w=640` (same ladder step) share one file.
    const name = `${region.left}-${region.top}-${region.width}-${region.height}_${plan.width}x${plan.height}_q${quality}.${format}`;
    const key = `derived/${spaceId}/${assetId}/${sourceVersion(row)}/${name}`;
    let variant = this.variants.get(key);
    if (variant === undefined) {
      const input = { sourceWidth: doc.width, sourceHeight: doc.height, plan, format, quality };
      const body = await this.storedOrDerived(key, spaceId, row, input, beforeDerive);
      variant = { body, etag: etagOf(body), contentType: CONTENT_TYPE[format] };
      this.variants.set(key, variant);
    } else this.deps.derived.used(key);
    return { ...variant, negotiated: query.format === null };
  }

  private async storedOrDerived(
    key: string,
    spaceId: string,
    row: AssetRow,
    input: Omit<Parameters<typeof deriveImage>[0], 'source'>,
    beforeDerive: () => Promise<void>,
  ): Promise<Buffer> {
    const stored = await this.deps.blobs.get(key);
    if (stored !== null) {
      this.deps.derived.used(key);
      return readAll(stored.stream);
    }
    // A variant being made for another request is joined, not made (nor counted) again.
    if (!this.deps.work.has(key)) await beforeDerive();
    return this.deps.work.run(key, async () => {
      const original = await this.deps.blobs.get(row.blobKey);
      if (original === null) throw notFound('Asset not found.');
      const body = await deriveImage({ ...input, source: original.stream });
      try {
        await this.deps.derived.keep({ key, spaceId, assetId: row.doc.id, sourceKey: row.blobKey, body });
      } catch (err) {
        // The image is good; only the file that would spare the next request the work is missing.
        this.deps.log.warn({ err, key }, 'derived image not stored');
      }
      return body;
    });
  }
}

const LOSSLESS: ReadonlySet<string> = new Set(['png', 'gif']);

/** What identifies the original's bytes: a re-import under the same id and name gets new variants. */
function sourceVersion(row: AssetRow): string {
  return createHash('sha1')
    .update(`${row.blobKey}\n${row.doc.size}\n${row.createdAt}`)
    .digest('base64url')
    .slice(0, 12);
}

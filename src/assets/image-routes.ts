import { availableParallelism } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { noneMatch } from '../cache/etag.js';
import { deliveryDepsOf } from '../delivery/delivery-service.js';
import type { AppServices } from '../app/services.js';
import { notFound } from '../errors/errors.js';
import { deriveKey } from '../store/secrets-repo.js';
import { attachmentDisposition } from '../files/disposition.js';
import { configureSharp } from './derive.js';
import { parseImageQuery, wantsDerived } from './image-params.js';
import { workerLink } from '../cluster/worker-pool.js';
import { derivationLimit } from './derivation-limit.js';
import { DerivedImages } from './derived-images.js';
import { ImageService } from './image-service.js';
import { ImageWork } from './image-work.js';
import { IMAGE_QUERY } from './schemas.js';
import { Visitors } from '../ratelimit/visitors.js';
import { errors, media, noBody, NO_SECURITY, pathParams, queryParams, SPACE_ID } from '../lib/api-schema.js';

type Params = { spaceId: string; assetId: string; filename: string };

/**
 * Types a browser opens as a document of the API's origin: SVG, XML of any kind (XHTML in it
 * runs) and HTML. Their originals are downloads, whatever the content checks let through.
 */
export function opensAsDocument(mime: string): boolean {
  const type = (mime.split(';')[0] ?? '').trim().toLowerCase();
  return type === 'text/html' || type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml');
}

/** Derived images kept in memory per process; the blob store keeps them within IMAGE_CACHE_MAX_MB. */
const VARIANT_MEMORY_BYTES = 64 * 1024 * 1024;
/** Derivations waiting for the CPU before a request is told to come back (503). */
const MAX_WAITING = 500;

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Nothing in a served file runs as a page of the API's origin. */
const SANDBOX = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

const fileSchema = {
  summary: 'An asset file, or a derived image',
  description:
    'Public by unguessable id (image tags send no token). Without parameters the original (SVG, XML and HTML as attachments); with them a derived image, AVIF or WebP by `Accept` unless `fm` says (`Vary: Accept`). `Cache-Control: public, max-age=31536000, immutable`, an `ETag` (`If-None-Match` → 304), `X-Content-Type-Options: nosniff` and a sandboxing CSP. A file that is no image answers 400 to any parameter; more new variants than IMAGE_DERIVATIONS_PER_MINUTE from one visitor: 429 with `Retry-After`; too many derivations waiting: 503.',
  tags: ['assets'],
  security: NO_SECURITY,
  params: pathParams({
    spaceId: SPACE_ID,
    assetId: 'The asset id (`ast_…`).',
    filename: 'The file name as in the delivered `url` (any name serves the asset).',
  }),
  querystring: queryParams(IMAGE_QUERY),
  response: {
    200: media("The file: the original's type, or the derived image's (AVIF, WebP, JPEG, PNG).", {
      '*/*': { type: 'string', contentMediaType: 'application/octet-stream' },
    }),
    304: noBody('Not modified: `If-None-Match` named the ETag.'),
    ...errors('invalid_query', 'forbidden', 'not_found', 'rate_limited', 'unavailable'),
  },
};

/**
 * Asset files at `/v1/<spaceId>/assets/<assetId>/<filename>` (spec 2.3): public by unguessable id, like any CDN
 * image URL (`<img>` sends no token). Without parameters the original file; with them a derived image
 * (docs/api.md "Images"). SVG, XML and HTML originals download as attachments: opened from the API origin, each
 * is a page.
 */
export async function imageRoutes(app: FastifyInstance, opts: { services: AppServices }): Promise<void> {
  const { services } = opts;
  // One derivation per core but one, and one libvips thread each: the event loop keeps a core for JSON.
  configureSharp(1);
  const { images: budget } = services.config;
  const derived = new DerivedImages(
    services.store,
    services.blobs,
    { maxBytes: budget.cacheMaxBytes, perAsset: budget.variantsPerAsset },
    app.log,
  );
  app.addHook('onClose', async () => derived.close());
  const images = new ImageService({
    delivery: deliveryDepsOf(services),
    blobs: services.blobs,
    cropKey: deriveKey(services.masterKey, 'image-crops'),
    work: new ImageWork({ concurrency: Math.max(1, availableParallelism() - 1), maxWaiting: MAX_WAITING }),
    derived,
    memoryBytes: VARIANT_MEMORY_BYTES,
    log: app.log,
  });
  // Image URLs need no token: a visitor's new derivations are what is limited.
  const visitors = new Visitors(services.masterKey, services.config.visitors.ipv6Prefix);
  const limitDerivations = derivationLimit({
    max: budget.derivationsPerMinute,
    redis: app.folioEdge.redis,
    cluster: workerLink(),
    onRejected: () => app.folioEdge.metrics.rejected('image_derivation'),
  });

  app.get<{ Params: Params; Querystring: Record<string, unknown> }>(
    '/v1/:spaceId/assets/:assetId/:filename',
    { schema: fileSchema },
    async (request, reply) => {
      const { spaceId, assetId } = request.params;
      reply.header('x-content-type-options', 'nosniff').header('content-security-policy', SANDBOX);
      if (wantsDerived(request.query)) {
        const query = parseImageQuery(request.query);
        const image = await images.derived(spaceId, assetId, query, request.headers.accept, () =>
          limitDerivations(visitors.connection(request).key),
        );
        if (image.negotiated) reply.header('vary', 'Accept');
        reply.header('cache-control', IMMUTABLE).header('etag', image.etag);
        if (noneMatch(request.headers['if-none-match'], image.etag)) return reply.code(304).send();
        return reply.header('content-type', image.contentType).send(image.body);
      }
      const asset = await images.asset(spaceId, assetId);
      const blob = await services.blobs.get(asset.blobKey);
      if (!blob) throw notFound('Asset not found.');
      if (opensAsDocument(asset.doc.mime))
        reply.header('content-disposition', attachmentDisposition(asset.doc.filename));
      return reply
        .header('content-type', asset.doc.mime)
        .header('content-length', String(blob.size))
        .header('cache-control', IMMUTABLE)
        .send(blob.stream);
    },
  );
}

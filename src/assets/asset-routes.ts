import { join } from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { assetUrlFor, deliveryDepsOf } from '../delivery/delivery-service.js';
import type { AppServices } from '../app/services.js';
import { multipartParts } from '../lib/multipart-parts.js';
import { unsupportedMediaType } from '../errors/errors.js';
import {
  getManagedAsset,
  ingestAsset,
  managedAsset,
  MAX_ASSET_BYTES,
  MAX_ASSET_FIELD_BYTES,
} from './ingest.js';
import { assetBody, assetUpload } from './schemas.js';
import { documentOnly, json, managementOperation } from '../lib/api-schema.js';
import { SPACE, withSpace } from '../lib/management-responses.js';

const uploadSchema = managementOperation(
  {
    summary: 'Upload an asset',
    description:
      'Needs `content.write`. Multipart: `alt`, `title`, `credit`, `focal`, then `file` (at most 50 MB: 413 with `details.fields.file`). The type is found in the content; refused content (HTML, scripted SVG, appended archives, …) and images over 268 megapixels are 422 `validation_failed`. Published at once: one cv bump.',
    tags: ['management', 'assets'],
    params: SPACE,
    body: assetUpload,
    response: { 201: json('The new asset and the cv it is delivered from.', assetBody) },
  },
  'invalid_body',
  'too_large',
  'unsupported_media_type',
  'validation_failed',
);

const readSchema = managementOperation({
  summary: 'An asset',
  description: 'Needs `content.write`. Its stored texts, the `url` of the original and the current cv.',
  tags: ['management', 'assets'],
  params: withSpace({ id: 'The asset id (`ast_…`).' }),
  response: { 200: json('The asset.', assetBody) },
});

type P = { spaceId: string };

const ASSET_MESSAGES = {
  unsupported: 'Assets are uploaded as multipart/form-data.',
  invalid:
    'The request body is not valid multipart form data with alt, title, credit, focal and one "file" last.',
};

/**
 * Asset upload in the management API (content.write, the plugin's default): POST /assets with multipart/form-data
 * only (anything else 415), in a scope of its own so the other management routes keep their JSON parser. The
 * parser's file limit sits one byte above ours, so our cut-off at MAX_ASSET_BYTES always answers first (413).
 */
export async function assetRoutes(app: FastifyInstance, opts: { services: AppServices }): Promise<void> {
  const { services } = opts;
  const delivery = deliveryDepsOf(services);
  // On the data volume, not the OS temp dir: that may be memory (tmpfs), and a file here is up to 50 MB.
  const deps = {
    store: services.store,
    blobs: services.blobs,
    workDir: join(services.config.dataDir, 'tmp'),
  };
  const urlOf = (spaceId: string) => assetUrlFor(delivery, spaceId);

  // The parts are checked by ingest (400, 413, 422 per part); the body schema documents them only.
  app.setValidatorCompiler(documentOnly);
  app.removeAllContentTypeParsers();
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: {
      fileSize: MAX_ASSET_BYTES + 1,
      files: 1,
      fields: 8,
      fieldSize: MAX_ASSET_FIELD_BYTES,
      parts: 9,
      headerPairs: 50,
    },
  });

  app.post<{ Params: P }>(
    '/assets',
    // The multipart parser streams and keeps its own limits; this only lifts the scope's 1 MB JSON default.
    { bodyLimit: MAX_ASSET_BYTES + 1024 * 1024, schema: uploadSchema },
    async (req, reply) => {
      if (!req.isMultipart()) throw unsupportedMediaType('Assets are uploaded as multipart/form-data.');
      const { spaceId } = req.params;
      const { doc, cv } = await ingestAsset(deps, { spaceId, parts: multipartParts(req, ASSET_MESSAGES) });
      return reply.status(201).send({ asset: managedAsset(doc, urlOf(spaceId)(doc)), cv });
    },
  );

  app.get<{ Params: P & { id: string } }>('/assets/:id', { schema: readSchema }, async (req) => {
    const { doc, cv } = await getManagedAsset(services.store, req.params.spaceId, req.params.id);
    return { asset: managedAsset(doc, urlOf(req.params.spaceId)(doc)), cv };
  });
}

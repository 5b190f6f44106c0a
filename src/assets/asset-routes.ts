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
    { bodyLimit: MAX_ASSET_BYTES + 1024 * 1024 },
    async (req, reply) => {
      if (!req.isMultipart()) throw unsupportedMediaType('Assets are uploaded as multipart/form-data.');
      const { spaceId } = req.params;
      const { doc, cv } = await ingestAsset(deps, { spaceId, parts: multipartParts(req, ASSET_MESSAGES) });
      return reply.status(201).send({ asset: managedAsset(doc, urlOf(spaceId)(doc)), cv });
    },
  );

  app.get<{ Params: P & { id: string } }>('/assets/:id', async (req) => {
    const { doc, cv } = await getManagedAsset(services.store, req.params.spaceId, req.params.id);
    return { asset: managedAsset(doc, urlOf(req.params.spaceId)(doc)), cv };
  });
}

import { join } from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { assetUrlFor, deliveryDepsOf } from '../delivery/delivery-service.js';
import type { AppServices } from '../server/app.js';
import { FolioError } from '../server/errors.js';
import {
  type AssetPart,
  getManagedAsset,
  ingestAsset,
  managedAsset,
  MAX_ASSET_BYTES,
  MAX_ASSET_FIELD_BYTES,
} from './ingest.js';

type P = { spaceId: string };

/** The parser's own failures are the client's: a malformed body, too many parts, a prototype key. */
function multipartFailure(err: unknown): FolioError {
  if (err instanceof FolioError) return err;
  const code = isObjectWithCode(err) ? err.code : undefined;
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE')
    return new FolioError('unsupported_media_type', 'Assets are uploaded as multipart/form-data.');
  return new FolioError(
    'invalid_body',
    'The request body is not valid multipart form data with alt, title, credit, focal and one "file" last.',
  );
}

const isObjectWithCode = (v: unknown): v is { code: unknown } =>
  typeof v === 'object' && v !== null && 'code' in v;

/** Multipart parts as the domain sees them; errors of the parser itself become 400 `invalid_body`. */
async function* partsOf(request: FastifyRequest): AsyncGenerator<AssetPart> {
  const iterator = request.parts();
  while (true) {
    let next: Awaited<ReturnType<typeof iterator.next>>;
    try {
      next = await iterator.next();
    } catch (err) {
      throw multipartFailure(err);
    }
    if (next.done) return;
    const p = next.value;
    if (p.type === 'file') {
      // busboy takes a part without a file name for a file when its type is not text/plain: `filename` is then
      // undefined, whatever the declared type says.
      const filename: unknown = p.filename;
      yield {
        kind: 'file',
        name: p.fieldname,
        filename: typeof filename === 'string' ? filename : '',
        mimetype: p.mimetype,
        stream: p.file,
      };
    } else {
      // A part sent as application/json arrives parsed; the domain parses the text itself, whichever way it came.
      const value = typeof p.value === 'string' ? p.value : JSON.stringify(p.value);
      yield { kind: 'field', name: p.fieldname, value, truncated: p.valueTruncated };
    }
  }
}

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
      if (!req.isMultipart())
        throw new FolioError('unsupported_media_type', 'Assets are uploaded as multipart/form-data.');
      const { spaceId } = req.params;
      const { doc, cv } = await ingestAsset(deps, { spaceId, parts: partsOf(req) });
      return reply.status(201).send({ asset: managedAsset(doc, urlOf(spaceId)(doc)), cv });
    },
  );

  app.get<{ Params: P & { id: string } }>('/assets/:id', async (req) => {
    const { doc, cv } = await getManagedAsset(services.store, req.params.spaceId, req.params.id);
    return { asset: managedAsset(doc, urlOf(req.params.spaceId)(doc)), cv };
  });
}

import multipart from '@fastify/multipart';
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  preHandlerAsyncHookHandler,
} from 'fastify';
import { rejectUnknown } from '../delivery/params.js';
import { toFolioError } from '../server/error-handler.js';
import { FolioError } from '../server/errors.js';
import { MAX_FILE_BYTES, type UploadDeps, type UploadPart, receiveUpload } from './uploads/receive-upload.js';

type Params = { spaceId: string; key: string };

export interface UploadRouteOptions {
  deps: UploadDeps;
  /** The per-visitor limit shared with submissions (spec 8: "10 per minute, uploads included"). */
  limit: preHandlerAsyncHookHandler;
  clock: () => Date;
}

const invalidBody = (message: string): FolioError => new FolioError('invalid_body', message);

/** The parser's own failures are the client's: a malformed body, too many parts, a prototype key. */
function multipartFailure(err: unknown): FolioError {
  if (err instanceof FolioError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE')
    return new FolioError('unsupported_media_type', 'Uploads are multipart/form-data.');
  return invalidBody(
    'The request body is not valid multipart form data with one "field", one "file" and the challenge token.',
  );
}

/** Multipart parts as the domain sees them; errors of the parser itself become 400 `invalid_body`. */
async function* partsOf(request: FastifyRequest): AsyncGenerator<UploadPart> {
  const iterator = request.parts();
  while (true) {
    let next: IteratorResult<Awaited<ReturnType<typeof iterator.next>>['value']>;
    try {
      next = await iterator.next();
    } catch (err) {
      throw multipartFailure(err);
    }
    if (next.done) return;
    const p = next.value;
    if (p.type === 'file') {
      // busboy takes a part without a file name for a file when its type is not text/plain, and then gives
      // `filename` undefined whatever its type says: a nameless file, not a 500.
      const filename: unknown = p.filename;
      yield {
        kind: 'file',
        name: p.fieldname,
        filename: typeof filename === 'string' ? filename : '',
        mimetype: p.mimetype,
        stream: p.file,
      };
    } else {
      yield { kind: 'field', name: p.fieldname, value: typeof p.value === 'string' ? p.value : '' };
    }
  }
}

/**
 * POST /v1/<spaceId>/forms/<key>/uploads (spec 4.4): its own scope, where multipart/form-data is the only body
 * type (anything else 415) and the file streams to the blob store as it arrives. The parser's limits sit just
 * above ours (10 MB + 1 byte), so our cut-off at min(10 MB, maxSize) always comes first and answers 413.
 */
export async function uploadRoutes(app: FastifyInstance, opts: UploadRouteOptions): Promise<void> {
  app.removeAllContentTypeParsers();
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: {
      fileSize: MAX_FILE_BYTES + 1,
      files: 1,
      fields: 8,
      fieldSize: 4096,
      parts: 10,
      headerPairs: 50,
    },
  });
  app.setErrorHandler((err: FastifyError, request, reply: FastifyReply) => {
    const code = typeof err.code === 'string' ? err.code : '';
    const folio =
      code.startsWith('FST_') && code !== 'FST_ERR_CTP_INVALID_MEDIA_TYPE' && !code.startsWith('FST_ERR_')
        ? multipartFailure(err)
        : toFolioError(err);
    if (folio.status >= 500) request.log.error({ err }, 'upload failed');
    if (folio.code === 'rate_limited' && !reply.hasHeader('retry-after')) reply.header('retry-after', '60');
    return reply.status(folio.status).header('cache-control', 'no-store').send(folio.toBody());
  });

  app.post<{ Params: Params; Querystring: Record<string, unknown> }>(
    '/v1/:spaceId/forms/:key/uploads',
    { config: { delivery: 'form' }, preHandler: opts.limit },
    async (request, reply) => {
      rejectUnknown(request.query, []);
      if (!request.isMultipart())
        throw new FolioError(
          'unsupported_media_type',
          'Uploads are multipart/form-data with "field" and "file".',
        );
      const result = await receiveUpload(opts.deps, {
        spaceId: request.params.spaceId,
        formKey: request.params.key,
        parts: partsOf(request),
        remoteIp: request.ip,
        now: opts.clock(),
      });
      return reply.status(201).header('cache-control', 'no-store').send(result);
    },
  );
}

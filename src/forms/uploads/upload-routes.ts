import multipart from '@fastify/multipart';
import type { FastifyError, FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { rejectUnknown } from '../../delivery/params.js';
import { invalidBody, unsupportedMediaType } from '../../errors/errors.js';
import { redactUrl } from '../../lib/redact-url.js';
import { abortDetails, clientWentAway } from '../../lib/client-abort.js';
import { multipartFailure, multipartParts } from '../../lib/multipart-parts.js';
import { MAX_FILE_BYTES, type UploadDeps, receiveUpload } from './receive-upload.js';
import { json } from '../../lib/api-schema.js';
import { FORM_PARAMS, formPost, uploadBody, uploadResult } from '../authoring/schemas.js';

type Params = { spaceId: string; key: string };

export interface UploadRouteOptions {
  deps: UploadDeps;
  /** The per-visitor limit shared with submissions (spec 8: "10 per minute, uploads included"). */
  limit: preHandlerAsyncHookHandler;
  /** The visitor's address for Turnstile (src/ratelimit/visitors.ts): the connection's, or a server-side token's claim. */
  visitorIp: (request: FastifyRequest) => Promise<string>;
  clock: () => Date;
}

const UPLOAD_MESSAGES = {
  unsupported: 'Uploads are multipart/form-data.',
  invalid:
    'The request body is not valid multipart form data with one "field", one "file" and the challenge token.',
};

const uploadSchema = formPost(
  {
    summary: 'Upload a file for a file field',
    description:
      "One file per request, before the submission that names its id. Multipart with `field`, the Turnstile token and `file`, in this order; at most 10 MB (or the field's `maxSize`): 413 `too_large` with `details.fields.<field>`. The content is identified and checked against `accept` (422 `validation_failed`: `file_type`, `invalid_file`). `Cache-Control: no-store`.",
    params: FORM_PARAMS,
    body: uploadBody,
    response: { 201: json('Stored privately: name the id in the submission within a day.', uploadResult) },
  },
  'invalid_body',
  'too_large',
  'unsupported_media_type',
  'turnstile_required',
  'invalid_field',
);

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
  // Only what is the upload's own: a cancelled upload and multipart's failures. The rest, and the reply itself,
  // go to the root's handler (src/lib/error-reply.ts), to which Fastify hands what this one throws.
  app.setErrorHandler((err: FastifyError, request) => {
    if (clientWentAway(request, err)) {
      // A visitor who cancels an upload is no failure of ours: no stack, no error line (the bytes are discarded).
      request.log.info({ url: redactUrl(request.url), ...abortDetails(err) }, 'upload aborted by the client');
      throw invalidBody('The upload was aborted.');
    }
    const code = typeof err.code === 'string' ? err.code : '';
    if (code.startsWith('FST_') && code !== 'FST_ERR_CTP_INVALID_MEDIA_TYPE' && !code.startsWith('FST_ERR_'))
      throw multipartFailure(err, UPLOAD_MESSAGES);
    throw err;
  });

  app.post<{ Params: Params; Querystring: Record<string, unknown> }>(
    '/v1/:spaceId/forms/:key/uploads',
    { config: { delivery: 'form' }, preHandler: opts.limit, schema: uploadSchema },
    async (request, reply) => {
      rejectUnknown(request.query, []);
      if (!request.isMultipart())
        throw unsupportedMediaType('Uploads are multipart/form-data with "field" and "file".');
      const result = await receiveUpload(opts.deps, {
        spaceId: request.params.spaceId,
        formKey: request.params.key,
        parts: multipartParts(request, UPLOAD_MESSAGES),
        remoteIp: await opts.visitorIp(request),
        now: opts.clock(),
      });
      return reply.status(201).header('cache-control', 'no-store').send(result);
    },
  );
}

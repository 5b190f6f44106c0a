import type { FastifyInstance } from 'fastify';
import { managementAuth } from '../auth/management-auth.js';
import type { AppServices } from '../server/app.js';
import { notFound } from '../server/errors.js';
import { readSubmissionUpload } from './uploads/uploads-repo.js';

type Params = { spaceId: string; key: string; submissionId: string; uploadId: string };

/** `filename*` of RFC 6266 / RFC 8187, with a plain ASCII `filename` beside it for old clients. */
export function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * The files of stored submissions, for form owners only (spec 3.3: "files are stored privately and never served
 * from a public URL"): behind a management token, always as a download (never rendered inline from the API's
 * origin), never cached by anyone. Notification emails link here.
 */
export async function formFileRoutes(app: FastifyInstance, opts: { services: AppServices }): Promise<void> {
  const { store, blobs, tokens } = opts.services;
  if (!app.hasRequestDecorator('managementToken')) app.decorateRequest('managementToken', null);
  app.addHook('onRequest', managementAuth(tokens));

  app.get<{ Params: Params }>(
    '/v1/spaces/:spaceId/forms/:key/submissions/:submissionId/files/:uploadId',
    async (request, reply) => {
      const { spaceId, key, submissionId, uploadId } = request.params;
      const upload = await readSubmissionUpload(store.db, { spaceId, formKey: key, submissionId, uploadId });
      const blob = upload ? await blobs.get(upload.blobKey) : null;
      if (!upload || !blob) throw notFound('File not found.');
      return reply
        .header('content-type', upload.type)
        .header('content-length', String(blob.size))
        .header('content-disposition', attachmentDisposition(upload.name))
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(blob.stream);
    },
  );
}

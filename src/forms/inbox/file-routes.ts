import type { FastifyInstance, FastifyRequest } from 'fastify';
import { recordActivity } from '../../activity/activity-repo.js';
import { managementAuth } from '../../auth/management-auth.js';
import { declareScopes, routeScopes } from '../../auth/route-scopes.js';
import type { AppServices } from '../../app/services.js';
import { forbidden, notFound } from '../../errors/errors.js';
import { attachmentDisposition } from '../../files/disposition.js';
import {
  FILE_LINK_SECONDS,
  inboxLinkKey,
  MAIL_LINK_DEFAULT_SECONDS,
  mailLinkKey,
  signedFileUrl,
  validFileLink,
} from '../uploads/file-links.js';
import { readSubmissionUpload } from '../uploads/uploads-repo.js';
import { json, MANAGEMENT_SECURITY, media, queryParams } from '../../lib/api-schema.js';
import { FILE_PARAMS, fileLink, inboxOperation } from './schemas.js';

type Params = { spaceId: string; key: string; submissionId: string; uploadId: string };

const hasLinkQuery = (request: FastifyRequest): boolean => {
  const q = request.query as Record<string, unknown>;
  return q['signature'] !== undefined || q['expires'] !== undefined;
};

/**
 * The files of stored submissions, for form owners only (spec 3.3: "files are stored privately and never served
 * from a public URL"): behind a management token with `forms.read`, or a signed link that token asked for (ten
 * minutes, one file), always as a download (never rendered inline from the API's origin), never cached.
 */
export async function formFileRoutes(app: FastifyInstance, opts: { services: AppServices }): Promise<void> {
  const { store, blobs, tokens, masterKey, config } = opts.services;
  const clock = opts.services.clock ?? (() => new Date());
  const linkKey = inboxLinkKey(masterKey);
  // Links in owner emails: their own key and lifetime.
  const mailKey = mailLinkKey(masterKey, config.mail.fileLinkSecret);
  const mailSeconds = config.mail.fileLinkSeconds ?? MAIL_LINK_DEFAULT_SECONDS;
  const validLink = (p: Params, query: Record<string, unknown>, now: number): boolean =>
    validFileLink(linkKey, p, query, now, FILE_LINK_SECONDS) ||
    validFileLink(mailKey, p, query, now, mailSeconds);
  const auth = managementAuth(tokens);
  if (!app.hasRequestDecorator('managementToken')) app.decorateRequest('managementToken', null);
  declareScopes(app);
  app.addHook('onRequest', async (request) => {
    // A signed link is its own credential (checked in the handler); anything else needs the token and scope.
    if (request.routeOptions.config.scopes?.signedLink === true && hasLinkQuery(request)) return;
    await auth(request);
    await routeScopes(request);
  });

  const path = '/v1/spaces/:spaceId/forms/:key/submissions/:submissionId/files/:uploadId';
  const download = inboxOperation({
    summary: 'Download a file of a submission',
    description:
      'Needs `forms.read`, or a signed link (`expires` and `signature` from `…/link`, or from an owner email: those open for `MAIL_FILE_LINK_SECONDS`; no token). Always an attachment with its identified `Content-Type`, `Cache-Control: private, no-store`, `X-Content-Type-Options: nosniff` and a sandboxing CSP. A changed, forged or expired link is 403 `forbidden`. Recorded in the activity log.',
    // The signed link is its own credential: no token at all.
    security: [...MANAGEMENT_SECURITY, {}],
    params: FILE_PARAMS,
    querystring: queryParams({
      expires: 'A signed link: its expiry (Unix seconds).',
      signature: 'A signed link: its HMAC-SHA256 (base64url).',
    }),
    response: {
      200: media('The file.', {
        'application/octet-stream': { type: 'string', contentMediaType: 'application/octet-stream' },
      }),
    },
  });
  const link = inboxOperation({
    summary: 'A download link for a file, signed for ten minutes',
    description: 'Needs `forms.read`: for an inbox screen that hands the browser a URL without the token.',
    params: FILE_PARAMS,
    response: { 200: json('The link.', fileLink) },
  });

  app.get<{ Params: Params; Querystring: Record<string, unknown> }>(
    path,
    { config: { scopes: { all: ['forms.read'], signedLink: true } }, schema: download },
    async (request, reply) => {
      const p = request.params;
      const viaLink = hasLinkQuery(request);
      if (viaLink && !validLink(p, request.query, Math.floor(clock().getTime() / 1000)))
        throw forbidden('This download link is not valid or has expired.');
      const upload = await readSubmissionUpload(store.db, {
        spaceId: p.spaceId,
        formKey: p.key,
        submissionId: p.submissionId,
        uploadId: p.uploadId,
      });
      const blob = upload ? await blobs.get(upload.blobKey) : null;
      if (!upload || !blob) throw notFound('File not found.');
      await recordActivity(store.db, {
        spaceId: p.spaceId,
        actor: viaLink ? 'link' : (request.managementToken?.id ?? ''),
        action: 'submission.file_downloaded',
        subject: p.key,
        details: { submission: p.submissionId, upload: p.uploadId },
      });
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

  // A short-lived link to one file, for an inbox screen that hands the browser a URL without the token.
  app.post<{ Params: Params }>(
    `${path}/link`,
    { config: { scopes: { all: ['forms.read'] } }, schema: link },
    async (request, reply) => {
      const p = request.params;
      const upload = await readSubmissionUpload(store.db, {
        spaceId: p.spaceId,
        formKey: p.key,
        submissionId: p.submissionId,
        uploadId: p.uploadId,
      });
      if (!upload) throw notFound('File not found.');
      const expires = Math.floor(clock().getTime() / 1000) + FILE_LINK_SECONDS;
      const url = signedFileUrl(config.publicUrl, linkKey, p, expires);
      return reply
        .header('cache-control', 'no-store')
        .send({ url, expiresAt: new Date(expires * 1000).toISOString() });
    },
  );
}

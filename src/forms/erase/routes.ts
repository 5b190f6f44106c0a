import type { FastifyInstance } from 'fastify';
import { managementAuth } from '../../auth/management-auth.js';
import { declareScopes, routeScopes } from '../../auth/route-scopes.js';
import type { AppServices } from '../../app/services.js';
import { invalidBody } from '../../errors/errors.js';
import { eraseAddress } from './erase.js';
import { BODY_ERRORS, json, pathParams, SPACE_ID } from '../../lib/api-schema.js';
import { eraseBody, eraseResult, inboxOperation } from '../inbox/schemas.js';

const eraseSchema = inboxOperation(
  {
    summary: 'Forget a visitor: delete every submission holding an address',
    description:
      'Needs `forms.erase`. Matches the address normalized (NFKC, lower case, invisible characters removed, as `uniqueField` compares) with the email fields of every submission, in the inbox and spam, deleted forms included; deletes the submissions with their notes, files, notification records and `.eml` files and the outbox rows naming them. `dryRun: true` only counts. An address that is not one: 400 with `details.fields.email`.',
    params: pathParams({ spaceId: SPACE_ID }),
    body: eraseBody,
    response: { 200: json('What was (or would be) deleted.', eraseResult) },
  },
  ...BODY_ERRORS,
);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `POST /v1/spaces/<id>/forms/erase` (spec 4.5), behind a management token with `forms.erase`. */
export async function eraseRoutes(app: FastifyInstance, opts: { services: AppServices }): Promise<void> {
  const { store, blobs, tokens, config } = opts.services;
  if (!app.hasRequestDecorator('managementToken')) app.decorateRequest('managementToken', null);
  // Token and scope before the body is read.
  declareScopes(app);
  app.addHook('onRequest', managementAuth(tokens));
  app.addHook('onRequest', routeScopes);

  app.post<{ Params: { spaceId: string } }>(
    '/v1/spaces/:spaceId/forms/erase',
    { config: { scopes: { all: ['forms.erase'] } }, bodyLimit: 4096, schema: eraseSchema },
    async (request, reply) => {
      const body: unknown = request.body;
      if (!isObject(body)) throw invalidBody('Send { "email": "…", "dryRun"?: boolean }.');
      const unknownKey = Object.keys(body).find((k) => k !== 'email' && k !== 'dryRun');
      if (unknownKey !== undefined)
        throw invalidBody(`Unknown member "${unknownKey.slice(0, 40)}"; send email and dryRun.`);
      const dryRun = body['dryRun'] ?? false;
      if (typeof dryRun !== 'boolean') throw invalidBody('"dryRun" must be true or false.');
      const result = await eraseAddress(
        { store, blobs, mailDir: config.mail.outboxDir, log: request.log },
        {
          spaceId: request.params.spaceId,
          email: body['email'],
          dryRun,
          actor: request.managementToken?.id ?? '',
        },
      );
      return reply.header('cache-control', 'no-store').send(result);
    },
  );
}

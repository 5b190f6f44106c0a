import type { FastifyInstance } from 'fastify';
import { createRedirectSchema, updateRedirectSchema } from '../lib/management-schemas.js';
import type { AppServices } from '../app/services.js';
import { createRedirect, deleteRedirect, listRedirectViews, updateRedirect } from './redirect-ops.js';
import { json, managementOperation, object, S } from '../lib/api-schema.js';
import { deleted, SPACE, withSpace, WRITE_ERRORS } from '../lib/management-responses.js';
import { redirectView } from './schemas.js';

const REDIRECT = withSpace({ id: 'The redirect id (`rdr_…`).' });
const PUBLISHES = 'Every change publishes (one cv) and sends `redirect.updated`.';
const saved = object({ redirect: redirectView, cv: S.cv });

const schemas = {
  list: managementOperation({
    summary: 'Redirects, manual and automatic',
    params: SPACE,
    response: { 200: json('The redirects.', object({ redirects: S.arrayOf(redirectView) })) },
  }),
  create: managementOperation(
    {
      summary: 'Create a redirect',
      description: `Status default 301 (410 for \`to: null\`); one redirect per path and locale (409). ${PUBLISHES}`,
      params: SPACE,
      body: createRedirectSchema,
      response: { 201: json('Created and published.', saved) },
    },
    ...WRITE_ERRORS,
  ),
  update: managementOperation(
    {
      summary: 'Change a redirect',
      description: `An automatic redirect edited by hand becomes manual. ${PUBLISHES}`,
      params: REDIRECT,
      body: updateRedirectSchema,
      response: { 200: json('Changed and published.', saved) },
    },
    ...WRITE_ERRORS,
  ),
  remove: managementOperation({
    summary: 'Delete a redirect',
    description: PUBLISHES,
    params: REDIRECT,
    response: { 200: json('Deleted.', deleted('id', true)) },
  }),
};

type P = { spaceId: string };

/** Manual redirects (spec 2.6); automatic ones are listed too (`auto: true`). Every change publishes. */
export async function redirectManagementRoutes(
  app: FastifyInstance,
  opts: { services: AppServices },
): Promise<void> {
  const { store } = opts.services;
  app.get<{ Params: P }>('/redirects', { schema: schemas.list }, async (req) => ({
    redirects: await listRedirectViews(store, req.params.spaceId),
  }));
  app.post<{ Params: P; Body: Record<string, unknown> }>(
    '/redirects',
    { schema: schemas.create },
    async (req, reply) => {
      reply.status(201);
      return createRedirect(store, req.params.spaceId, req.body);
    },
  );
  app.patch<{ Params: P & { id: string }; Body: Record<string, unknown> }>(
    '/redirects/:id',
    { schema: schemas.update },
    async (req) => updateRedirect(store, req.params.spaceId, req.params.id, req.body),
  );
  app.delete<{ Params: P & { id: string } }>('/redirects/:id', { schema: schemas.remove }, async (req) => ({
    id: req.params.id,
    deleted: true,
    ...(await deleteRedirect(store, req.params.spaceId, req.params.id)),
  }));
}

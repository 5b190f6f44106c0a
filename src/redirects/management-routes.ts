import type { FastifyInstance } from 'fastify';
import { createRedirectSchema, updateRedirectSchema } from '../management/schemas.js';
import type { AppServices } from '../app/services.js';
import { createRedirect, deleteRedirect, listRedirectViews, updateRedirect } from './redirect-ops.js';

type P = { spaceId: string };

/** Manual redirects (spec 2.6); automatic ones are listed too (`auto: true`). Every change publishes. */
export async function redirectManagementRoutes(
  app: FastifyInstance,
  opts: { services: AppServices },
): Promise<void> {
  const { store } = opts.services;
  app.get<{ Params: P }>('/redirects', async (req) => ({
    redirects: await listRedirectViews(store, req.params.spaceId),
  }));
  app.post<{ Params: P; Body: Record<string, unknown> }>(
    '/redirects',
    { schema: { body: createRedirectSchema } },
    async (req, reply) => {
      reply.status(201);
      return createRedirect(store, req.params.spaceId, req.body);
    },
  );
  app.patch<{ Params: P & { id: string }; Body: Record<string, unknown> }>(
    '/redirects/:id',
    { schema: { body: updateRedirectSchema } },
    async (req) => updateRedirect(store, req.params.spaceId, req.params.id, req.body),
  );
  app.delete<{ Params: P & { id: string } }>('/redirects/:id', async (req) => ({
    id: req.params.id,
    deleted: true,
    ...(await deleteRedirect(store, req.params.spaceId, req.params.id)),
  }));
}

import type { FastifyInstance } from 'fastify';
import { createWebhookSchema, updateWebhookSchema } from '../management/schemas.js';
import type { AppServices } from '../app/services.js';
import {
  createWebhook,
  deleteWebhook,
  getWebhookView,
  listWebhookViews,
  updateWebhook,
  webhookDeliveries,
  type WebhookOpsDeps,
} from './webhook-ops.js';

type P = { spaceId: string };
type PId = P & { id: string };

/** Webhook endpoints (spec 6) and their delivery attempts. */
export async function webhookManagementRoutes(
  app: FastifyInstance,
  opts: { services: AppServices },
): Promise<void> {
  const deps: WebhookOpsDeps = {
    store: opts.services.store,
    allowPrivate: opts.services.config.webhookAllowPrivate,
  };
  app.get<{ Params: P }>('/webhooks', async (req) => ({
    webhooks: await listWebhookViews(deps, req.params.spaceId),
  }));
  app.post<{ Params: P; Body: Record<string, unknown> }>(
    '/webhooks',
    { schema: { body: createWebhookSchema } },
    async (req, reply) => {
      reply.status(201);
      return { webhook: await createWebhook(deps, req.params.spaceId, req.body) };
    },
  );
  app.get<{ Params: PId }>('/webhooks/:id', async (req) => ({
    webhook: await getWebhookView(deps, req.params.spaceId, req.params.id),
  }));
  app.patch<{ Params: PId; Body: Record<string, unknown> }>(
    '/webhooks/:id',
    { schema: { body: updateWebhookSchema } },
    async (req) => ({ webhook: await updateWebhook(deps, req.params.spaceId, req.params.id, req.body) }),
  );
  app.delete<{ Params: PId }>('/webhooks/:id', async (req) => {
    await deleteWebhook(deps, req.params.spaceId, req.params.id);
    return { id: req.params.id, deleted: true };
  });
  app.get<{ Params: PId }>('/webhooks/:id/deliveries', async (req) => ({
    deliveries: await webhookDeliveries(deps, req.params.spaceId, req.params.id),
  }));
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ScopeRule } from '../auth/route-scopes.js';
import type { TokenRow } from '../store/tokens-repo.js';
import { unauthorized } from '../errors/errors.js';
import { createWebhookSchema, updateWebhookSchema } from '../lib/management-schemas.js';
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
import { json, managementOperation, object, S } from '../lib/api-schema.js';
import { deleted, SPACE, withSpace, WRITE_ERRORS } from '../lib/management-responses.js';
import { deliveryAttempt, webhookView } from './schemas.js';

const WEBHOOK = withSpace({ id: 'The webhook endpoint id.' });
const one = object({ webhook: webhookView });

const schemas = {
  list: managementOperation({
    summary: 'Webhook endpoints',
    description: 'Without their secrets.',
    params: SPACE,
    response: { 200: json('The endpoints.', object({ webhooks: S.arrayOf(webhookView) })) },
  }),
  create: managementOperation(
    {
      summary: 'Register a webhook endpoint',
      description:
        'Loopback, private and other internal addresses are refused unless `WEBHOOK_ALLOW_PRIVATE=true`. A secret is generated when not given. Subscribing to `form.submitted` (or `*`) needs `forms.read` too (403 with `details.routing`). Recorded in the activity log.',
      params: SPACE,
      body: createWebhookSchema,
      response: { 201: json('The endpoint with its `secret`.', one) },
    },
    ...WRITE_ERRORS,
  ),
  one: managementOperation({
    summary: 'A webhook endpoint',
    params: WEBHOOK,
    response: { 200: json('The endpoint (no secret).', one) },
  }),
  update: managementOperation(
    {
      summary: 'Change a webhook endpoint',
      description:
        '`secret: "rotate"` makes a new one; enabling a disabled endpoint resumes later events. Subscribing to `form.submitted`, enabling or re-pointing an endpoint that receives it needs `forms.read` too (403 with `details.routing`). Recorded in the activity log.',
      params: WEBHOOK,
      body: updateWebhookSchema,
      response: { 200: json('The endpoint (with `secret` if it changed).', one) },
    },
    ...WRITE_ERRORS,
  ),
  remove: managementOperation({
    summary: 'Delete a webhook endpoint',
    params: WEBHOOK,
    response: { 200: json('Deleted.', deleted('id', false)) },
  }),
  deliveries: managementOperation({
    summary: 'The last delivery attempts to an endpoint',
    description: 'At most 100, newest first; kept 30 days.',
    params: WEBHOOK,
    response: { 200: json('The attempts.', object({ deliveries: S.arrayOf(deliveryAttempt) })) },
  }),
};

type P = { spaceId: string };
type PId = P & { id: string };

/**
 * Endpoints are content management, but one that receives `form.submitted` receives every visitor's answers:
 * routing answers is reading them, checked by webhook-ops.ts (webhookRouting).
 */
const SCOPES = {
  create: {
    all: ['content.write'],
    also: [{ scopes: ['forms.read'], when: 'to subscribe it to `form.submitted` (or `*`)' }],
  },
  update: {
    all: ['content.write'],
    also: [
      {
        scopes: ['forms.read'],
        when: 'to subscribe, enable or re-point an endpoint that receives `form.submitted`',
      },
    ],
  },
} as const satisfies Record<string, ScopeRule>;

/** The token that authenticated the request (the management plugin's hooks ran before any handler). */
function caller(request: FastifyRequest): TokenRow {
  if (!request.managementToken) throw unauthorized('A management token is required.');
  return request.managementToken;
}

/** Webhook endpoints (spec 6) and their delivery attempts. */
export async function webhookManagementRoutes(
  app: FastifyInstance,
  opts: { services: AppServices },
): Promise<void> {
  const deps: WebhookOpsDeps = {
    store: opts.services.store,
    allowPrivate: opts.services.config.webhookAllowPrivate,
  };
  app.get<{ Params: P }>('/webhooks', { schema: schemas.list }, async (req) => ({
    webhooks: await listWebhookViews(deps, req.params.spaceId),
  }));
  app.post<{ Params: P; Body: Record<string, unknown> }>(
    '/webhooks',
    { config: { scopes: SCOPES.create }, schema: schemas.create },
    async (req, reply) => {
      reply.status(201);
      return { webhook: await createWebhook(deps, req.params.spaceId, req.body, caller(req)) };
    },
  );
  app.get<{ Params: PId }>('/webhooks/:id', { schema: schemas.one }, async (req) => ({
    webhook: await getWebhookView(deps, req.params.spaceId, req.params.id),
  }));
  app.patch<{ Params: PId; Body: Record<string, unknown> }>(
    '/webhooks/:id',
    { config: { scopes: SCOPES.update }, schema: schemas.update },
    async (req) => ({
      webhook: await updateWebhook(deps, req.params.spaceId, req.params.id, req.body, caller(req)),
    }),
  );
  app.delete<{ Params: PId }>('/webhooks/:id', { schema: schemas.remove }, async (req) => {
    await deleteWebhook(deps, req.params.spaceId, req.params.id, caller(req));
    return { id: req.params.id, deleted: true };
  });
  app.get<{ Params: PId }>('/webhooks/:id/deliveries', { schema: schemas.deliveries }, async (req) => ({
    deliveries: await webhookDeliveries(deps, req.params.spaceId, req.params.id),
  }));
}

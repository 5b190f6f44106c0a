import { Problems } from '../bundle/problems.js';
import { newId } from '../lib/ids.js';
import { invalid, requireSpace } from '../management/context.js';
import { notFound } from '../errors/errors.js';
import type { Store } from '../store/open-store.js';
import { generateSecret } from './signing.js';
import { checkWebhook, webhookView } from './webhook-model.js';
import {
  deleteWebhook as deleteRow,
  getWebhook,
  insertWebhooks,
  listDeliveries,
  listWebhooks,
  nextWebhookPosition,
  updateWebhook as updateRow,
  type WebhookRow,
} from './webhooks-repo.js';

export interface WebhookOpsDeps {
  store: Store;
  allowPrivate: boolean;
}

async function find(deps: WebhookOpsDeps, spaceId: string, id: string): Promise<WebhookRow> {
  await requireSpace(deps.store, spaceId);
  const w = await getWebhook(deps.store, id);
  if (!w || w.spaceId !== spaceId) throw notFound(`Webhook "${id}" not found.`);
  return w;
}

export async function listWebhookViews(deps: WebhookOpsDeps, spaceId: string) {
  await requireSpace(deps.store, spaceId);
  return (await listWebhooks(deps.store, spaceId)).map((w) => webhookView(w));
}

export async function getWebhookView(deps: WebhookOpsDeps, spaceId: string, id: string) {
  return webhookView(await find(deps, spaceId, id));
}

/** Registers an endpoint; the answer carries its secret (generated unless given), the only time it is shown. */
export async function createWebhook(deps: WebhookOpsDeps, spaceId: string, body: Record<string, unknown>) {
  await requireSpace(deps.store, spaceId);
  const p = new Problems();
  if (!checkWebhook(body, '', p, deps.allowPrivate)) throw invalid('webhook', p.list);
  const now = new Date().toISOString();
  const row: WebhookRow = {
    id: newId('whk'),
    spaceId,
    url: body.url,
    events: body.events,
    secret: body.secret ?? generateSecret(),
    enabled: body.enabled ?? true,
    disabledReason: null,
    position: await nextWebhookPosition(deps.store.db, spaceId),
    createdAt: now,
    updatedAt: now,
  };
  await insertWebhooks(deps.store.db, [row]);
  return webhookView(row, true);
}

/**
 * Changes an endpoint: `url`, `events`, `enabled` (enabling again clears the reason it was disabled for),
 * `secret` (`"rotate"` generates a new one, which the answer then carries).
 */
export async function updateWebhook(
  deps: WebhookOpsDeps,
  spaceId: string,
  id: string,
  body: { url?: unknown; events?: unknown; enabled?: unknown; secret?: unknown },
) {
  const current = await find(deps, spaceId, id);
  const rotate = body.secret === 'rotate';
  const merged = {
    url: body.url ?? current.url,
    events: body.events ?? current.events,
    enabled: body.enabled ?? current.enabled,
    ...(body.secret !== undefined && !rotate ? { secret: body.secret } : {}),
  };
  const p = new Problems();
  if (!checkWebhook(merged, '', p, deps.allowPrivate)) throw invalid('webhook', p.list);
  const enabled = merged.enabled ?? true;
  const next: WebhookRow = {
    ...current,
    url: merged.url,
    events: merged.events,
    enabled,
    secret: rotate ? generateSecret() : (merged.secret ?? current.secret),
    disabledReason: enabled ? null : (current.disabledReason ?? 'Disabled through the management API.'),
    updatedAt: new Date().toISOString(),
  };
  await updateRow(deps.store.db, next);
  return webhookView(next, rotate || body.secret !== undefined);
}

export async function deleteWebhook(deps: WebhookOpsDeps, spaceId: string, id: string): Promise<void> {
  await find(deps, spaceId, id);
  await deleteRow(deps.store.db, spaceId, id);
}

/** The latest delivery attempts to an endpoint (at most 100), newest first. */
export async function webhookDeliveries(deps: WebhookOpsDeps, spaceId: string, id: string) {
  await find(deps, spaceId, id);
  return (await listDeliveries(deps.store, id, 100)).map(({ webhookId: _w, ...d }) => d);
}

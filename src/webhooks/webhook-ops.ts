import { recordActivity } from '../activity/activity-repo.js';
import { requireRoutingScope } from '../auth/scopes.js';
import { Problems } from '../lib/problems.js';
import { newId } from '../lib/ids.js';
import { invalid, requireSpace } from '../content/context.js';
import { notFound } from '../errors/errors.js';
import type { Store } from '../store/open-store.js';
import type { TokenRow } from '../store/tokens-repo.js';
import { subscribes } from './events.js';
import { generateSecret } from './signing.js';
import { checkWebhook, webhookView } from './webhook-model.js';
import {
  deleteWebhook as deleteRow,
  getWebhook,
  insertWebhooks,
  listDeliveries,
  listWebhooks,
  lockWebhook,
  nextWebhookPosition,
  updateWebhook as updateRow,
  type WebhookRow,
} from './webhooks-repo.js';

export interface WebhookOpsDeps {
  store: Store;
  allowPrivate: boolean;
}

/** Who changes an endpoint: the management token (its id goes into the activity log, its scopes decide routing). */
export type WebhookCaller = Pick<TokenRow, 'id' | 'scopes'>;

async function find(deps: WebhookOpsDeps, spaceId: string, id: string): Promise<WebhookRow> {
  await requireSpace(deps.store, spaceId);
  const w = await getWebhook(deps.store, id);
  if (!w || w.spaceId !== spaceId) throw notFound(`Webhook "${id}" not found.`);
  return w;
}

/** `form.submitted` carries every visitor's answers (spec 6); `*` subscribes to it too. */
const receivesAnswers = (w: Pick<WebhookRow, 'events' | 'enabled'>): boolean =>
  w.enabled && subscribes(w.events, 'form.submitted');

/**
 * What of a change routes answers somewhere they did not go: an endpoint that receives
 * `form.submitted` after the change, when it did not before (created, subscribed, enabled) or now at another URL.
 * Rotating its secret, unsubscribing, disabling or deleting it routes nothing.
 */
export function webhookRouting(before: WebhookRow | null, after: WebhookRow): string[] {
  if (!receivesAnswers(after)) return [];
  if (before === null) return ['events'];
  const out: string[] = [];
  if (!subscribes(before.events, 'form.submitted')) out.push('events');
  if (!before.enabled) out.push('enabled');
  if (before.url !== after.url) out.push('url');
  return out;
}

/** The activity log's details of an endpoint: events, state and host, never its secret or the rest of its URL. */
function details(w: WebhookRow, changed?: readonly string[]) {
  let host: string | null = null;
  try {
    host = new URL(w.url).host;
  } catch {
    host = null;
  }
  return {
    events: w.events.join(','),
    enabled: w.enabled,
    host,
    ...(changed === undefined ? {} : { changed: changed.join(',') }),
  };
}

export async function listWebhookViews(deps: WebhookOpsDeps, spaceId: string) {
  await requireSpace(deps.store, spaceId);
  return (await listWebhooks(deps.store, spaceId)).map((w) => webhookView(w));
}

export async function getWebhookView(deps: WebhookOpsDeps, spaceId: string, id: string) {
  return webhookView(await find(deps, spaceId, id));
}

/**
 * Registers an endpoint; the answer carries its secret (generated unless given), the only time it is shown. One
 * subscribed to `form.submitted` (or `*`) needs the caller's `forms.read`. Recorded in the activity log.
 */
export async function createWebhook(
  deps: WebhookOpsDeps,
  spaceId: string,
  body: Record<string, unknown>,
  caller: WebhookCaller,
) {
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
    position: 0,
    createdAt: now,
    updatedAt: now,
  };
  requireRoutingScope(caller, webhookRouting(null, row));
  await deps.store.db.transaction().execute(async (tx) => {
    row.position = await nextWebhookPosition(tx, spaceId);
    await insertWebhooks(tx, [row]);
    await recordActivity(tx, {
      spaceId,
      actor: caller.id,
      action: 'webhook.created',
      subject: row.id,
      details: details(row),
    });
  });
  return webhookView(row, true);
}

/**
 * Changes an endpoint: `url`, `events`, `enabled` (enabling again clears the reason it was disabled for),
 * `secret` (`"rotate"` generates a new one, which the answer then carries). Read under a lock in the transaction
 * that writes it, so the routing check (webhookRouting) judges the row it replaces. Recorded in the activity log.
 */
export async function updateWebhook(
  deps: WebhookOpsDeps,
  spaceId: string,
  id: string,
  body: { url?: unknown; events?: unknown; enabled?: unknown; secret?: unknown },
  caller: WebhookCaller,
) {
  await requireSpace(deps.store, spaceId);
  return deps.store.db.transaction().execute(async (tx) => {
    const current = await lockWebhook(deps.store, tx, id);
    if (!current || current.spaceId !== spaceId) throw notFound(`Webhook "${id}" not found.`);
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
    requireRoutingScope(caller, webhookRouting(current, next));
    await updateRow(tx, next);
    const changed = (['url', 'events', 'enabled', 'secret'] as const).filter((k) =>
      k === 'events' ? next.events.join(',') !== current.events.join(',') : next[k] !== current[k],
    );
    await recordActivity(tx, {
      spaceId,
      actor: caller.id,
      action: 'webhook.updated',
      subject: id,
      details: details(next, changed),
    });
    return webhookView(next, rotate || body.secret !== undefined);
  });
}

export async function deleteWebhook(
  deps: WebhookOpsDeps,
  spaceId: string,
  id: string,
  caller: WebhookCaller,
): Promise<void> {
  const w = await find(deps, spaceId, id);
  await deps.store.db.transaction().execute(async (tx) => {
    if (!(await deleteRow(tx, spaceId, id))) throw notFound(`Webhook "${id}" not found.`);
    await recordActivity(tx, {
      spaceId,
      actor: caller.id,
      action: 'webhook.deleted',
      subject: id,
      details: details(w),
    });
  });
}

/** The latest delivery attempts to an endpoint (at most 100), newest first. */
export async function webhookDeliveries(deps: WebhookOpsDeps, spaceId: string, id: string) {
  await find(deps, spaceId, id);
  return (await listDeliveries(deps.store, id, 100)).map(({ webhookId: _w, ...d }) => d);
}

import type { Selectable } from 'kysely';
import { randomBase62 } from '../lib/ids.js';
import type { Store } from '../store/open-store.js';
import type { WebhooksTable } from '../store/schema.js';
import type { Queryable } from '../store/spaces-repo.js';

/** A registered webhook endpoint (spec 6). */
export interface WebhookRow {
  id: string;
  spaceId: string;
  url: string;
  /** Event types it receives; `*` for all. */
  events: string[];
  /** `whsec_<base64 key>` (Standard Webhooks). */
  secret: string;
  enabled: boolean;
  disabledReason: string | null;
  position: number;
  createdAt: string;
  updatedAt: string;
}

/** One delivery attempt as recorded. */
export interface DeliveryRow {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  statusCode: number | null;
  ok: boolean;
  durationMs: number;
  error: string | null;
  at: string;
}

const toRow = (store: Store, r: Selectable<WebhooksTable>): WebhookRow => ({
  id: r.id,
  spaceId: r.space_id,
  url: r.url,
  events: store.dialect.parseJson<string[]>(r.events),
  secret: r.secret,
  enabled: Number(r.enabled) === 1,
  disabledReason: r.disabled_reason,
  position: Number(r.position),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export async function listWebhooks(
  store: Store,
  spaceId: string,
  db: Queryable = store.db,
): Promise<WebhookRow[]> {
  const rows = await db
    .selectFrom('webhooks')
    .selectAll()
    .where('space_id', '=', spaceId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map((r) => toRow(store, r));
}

export async function getWebhook(store: Store, id: string): Promise<WebhookRow | null> {
  const row = await store.db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toRow(store, row) : null;
}

/** The endpoint, locked for the caller's transaction where the engine has row locks (SQLite's are whole-file). */
export async function lockWebhook(store: Store, tx: Queryable, id: string): Promise<WebhookRow | null> {
  const row = await tx
    .selectFrom('webhooks')
    .selectAll()
    .where('id', '=', id)
    .$if(store.dialect.rowLocks, (q) => q.forUpdate())
    .executeTakeFirst();
  return row ? toRow(store, row) : null;
}

export async function insertWebhooks(db: Queryable, rows: readonly WebhookRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('webhooks')
    .values(
      rows.map((w) => ({
        id: w.id,
        space_id: w.spaceId,
        url: w.url,
        events: JSON.stringify(w.events),
        secret: w.secret,
        enabled: w.enabled ? 1 : 0,
        disabled_reason: w.disabledReason,
        position: w.position,
        created_at: w.createdAt,
        updated_at: w.updatedAt,
      })),
    )
    .execute();
}

export async function nextWebhookPosition(db: Queryable, spaceId: string): Promise<number> {
  const row = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.max('position').as('max'))
    .where('space_id', '=', spaceId)
    .executeTakeFirst();
  return row?.max === null || row?.max === undefined ? 0 : Number(row.max) + 1;
}

export async function updateWebhook(
  db: Queryable,
  w: Pick<WebhookRow, 'id' | 'url' | 'events' | 'secret' | 'enabled' | 'disabledReason' | 'updatedAt'>,
): Promise<void> {
  await db
    .updateTable('webhooks')
    .set({
      url: w.url,
      events: JSON.stringify(w.events),
      secret: w.secret,
      enabled: w.enabled ? 1 : 0,
      disabled_reason: w.disabledReason,
      updated_at: w.updatedAt,
    })
    .where('id', '=', w.id)
    .execute();
}

/** Turns an endpoint off (a receiver answering 410 Gone asked for it). */
export async function disableWebhook(store: Store, id: string, reason: string, now: Date): Promise<void> {
  await store.db
    .updateTable('webhooks')
    .set({ enabled: 0, disabled_reason: reason, updated_at: now.toISOString() })
    .where('id', '=', id)
    .execute();
}

export async function deleteWebhook(db: Queryable, spaceId: string, id: string): Promise<boolean> {
  const r = await db
    .deleteFrom('webhooks')
    .where('space_id', '=', spaceId)
    .where('id', '=', id)
    .executeTakeFirst();
  await db.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
  return Number(r.numDeletedRows) > 0;
}

export async function recordDeliveries(
  store: Store,
  attempts: readonly { spaceId: string; delivery: Omit<DeliveryRow, 'id'> }[],
): Promise<void> {
  // One insert per 100 attempts: a burst's deliveries finish together, one statement rather than one each.
  for (let i = 0; i < attempts.length; i += 100) {
    await store.db
      .insertInto('webhook_deliveries')
      .values(
        attempts.slice(i, i + 100).map(({ spaceId, delivery: d }) => ({
          id: `whd_${randomBase62(20)}`,
          space_id: spaceId,
          webhook_id: d.webhookId,
          event_id: d.eventId,
          event_type: d.eventType,
          attempt: d.attempt,
          status_code: d.statusCode,
          ok: d.ok ? 1 : 0,
          duration_ms: d.durationMs,
          error: d.error,
          at: d.at,
        })),
      )
      .execute();
  }
}

/** The latest attempts to an endpoint, newest first. */
export async function listDeliveries(store: Store, webhookId: string, limit: number): Promise<DeliveryRow[]> {
  const rows = await store.db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .orderBy('at', 'desc')
    .orderBy('attempt', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    webhookId: r.webhook_id,
    eventId: r.event_id,
    eventType: r.event_type,
    attempt: Number(r.attempt),
    statusCode: r.status_code === null ? null : Number(r.status_code),
    ok: Number(r.ok) === 1,
    durationMs: Number(r.duration_ms),
    error: r.error,
    at: r.at,
  }));
}

/** Forgets delivery attempts recorded before `before`. */
export async function deleteDeliveriesBefore(store: Store, before: Date): Promise<number> {
  const r = await store.db
    .deleteFrom('webhook_deliveries')
    .where('at', '<', before.toISOString())
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

import type { ClaimedJob } from '../jobs/jobs-repo.js';
import { Coalescer } from '../jobs/coalesce.js';
import { enqueueJobs, type EventPayload } from '../jobs/outbox-repo.js';
import { type JobHandler, PermanentJobError } from '../jobs/runner.js';
import { jobsEnqueued } from '../jobs/wakeup.js';
import type { Store } from '../store/open-store.js';
import { withEventKeys } from './event-keys.js';
import { subscribes } from './events.js';
import { postJson } from '../outbound/send.js';
import { signPayload } from './signing.js';
import { eventAsSent } from './submitted-event.js';
import {
  type DeliveryRow,
  disableWebhook,
  getWebhook,
  listWebhooks,
  recordDeliveries,
} from './webhooks-repo.js';

export interface WebhookJobDeps {
  store: Store;
  /** `WEBHOOK_ALLOW_PRIVATE`: endpoints on internal addresses are reached only when true. */
  allowPrivate: boolean;
  /** Per attempt (default 10 s). */
  timeoutMs?: number;
}

interface WebhookJob {
  event: EventPayload;
  webhookId: string;
}

/** The body every endpoint receives for an event, identical on every attempt (docs/api.md "Webhooks"). */
export function webhookBody(event: EventPayload): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    timestamp: event.createdAt,
    spaceId: event.spaceId,
    data: event.data,
  });
}

/**
 * `event` jobs fan out: one `webhook` job per enabled endpoint of the space subscribed to the event type,
 * each with a stable id, so running the fan-out twice (at-least-once) enqueues nothing twice.
 */
function fanOut(deps: WebhookJobDeps): JobHandler {
  return async (job: ClaimedJob) => {
    // The CDN tags the change invalidates, fixed here once for every endpoint and attempt.
    const event = await withEventKeys(deps.store, job.payload as EventPayload);
    const endpoints = (await listWebhooks(deps.store, job.spaceId)).filter(
      (w) => w.enabled && subscribes(w.events, event.type),
    );
    if (endpoints.length === 0) return;
    // One statement for every endpoint: all of them or none are enqueued, without a transaction's round trips.
    await enqueueJobs(
      deps.store.db,
      endpoints.map((w) => ({
        spaceId: job.spaceId,
        kind: 'webhook',
        payload: { event, webhookId: w.id } satisfies WebhookJob,
        id: `${event.id}.${w.id}`,
        ignoreDuplicate: true,
        // Due since the event was: claimed in the event's order, ahead of jobs enqueued after it
        // (otherwise a delivery waits through the queue twice, once as the event and once as itself).
        ...(Number.isNaN(Date.parse(job.createdAt)) ? {} : { runAt: new Date(job.createdAt) }),
        // A submission's deliveries go with it (retention, erase), as its event does.
        ...(job.submissionId === null ? {} : { submissionId: job.submissionId }),
      })),
    );
    jobsEnqueued(deps.store);
  };
}

/**
 * `webhook` jobs: one signed POST per attempt (Standard Webhooks headers; `webhook-id` is the event id on
 * every attempt and endpoint, so receivers deduplicate). 2xx is delivered; 410 disables the endpoint; any
 * other answer or none is retried with backoff by the runner. Every attempt is recorded (status, time, error;
 * never the body).
 */
function deliver(deps: WebhookJobDeps): JobHandler {
  // Attempts finishing within a few ms are recorded by one insert; each job still goes on only once its is written.
  const records = new Coalescer<{ spaceId: string; delivery: Omit<DeliveryRow, 'id'> }>(
    async (attempts) => {
      await recordDeliveries(deps.store, attempts);
      return [];
    },
    { delayMs: 2, max: 100 },
  );
  return async (job: ClaimedJob) => {
    const { event: stored, webhookId } = job.payload as WebhookJob;
    const endpoint = await getWebhook(deps.store, webhookId);
    // Deleted or disabled since the event: nothing to deliver.
    if (!endpoint || !endpoint.enabled) return;
    // A submission's answers are read now; one erased, expired or moved to spam since sends nothing.
    const event = await eventAsSent(deps.store, stored);
    if (event === null) return;
    const body = webhookBody(event);
    const now = new Date();
    const timestamp = Math.floor(now.getTime() / 1000);
    const res = await postJson(
      endpoint.url,
      body,
      {
        'user-agent': 'Folio-Webhooks/1',
        'webhook-id': event.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signPayload(endpoint.secret, event.id, timestamp, body),
      },
      { timeoutMs: deps.timeoutMs ?? 10_000, allowPrivate: deps.allowPrivate },
    );
    const ok = res.status !== null && res.status >= 200 && res.status < 300;
    await records.add({
      spaceId: job.spaceId,
      delivery: {
        webhookId,
        eventId: event.id,
        eventType: event.type,
        attempt: job.attempts,
        statusCode: res.status,
        ok,
        durationMs: res.durationMs,
        error: ok ? null : (res.error ?? `receiver answered ${res.status}`),
        at: now.toISOString(),
      },
    });
    if (ok) return;
    if (res.status === 410) {
      await disableWebhook(deps.store, webhookId, 'The receiver answered 410 Gone.', new Date());
      return;
    }
    if (res.forbidden) throw new PermanentJobError(res.error ?? 'target not allowed');
    throw new Error(res.error ?? `receiver answered ${res.status}`);
  };
}

export function webhookJobHandlers(deps: WebhookJobDeps): [kind: string, handler: JobHandler][] {
  return [
    ['event', fanOut(deps)],
    ['webhook', deliver(deps)],
  ];
}

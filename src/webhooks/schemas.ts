/** Webhook endpoints and their delivery attempts (docs/api.md "Webhooks"), for the OpenAPI document. */
import { object, S } from '../lib/api-schema.js';

export const webhookView = object(
  {
    id: S.string,
    url: S.string,
    events: S.arrayOf(S.string, 'Event types, or `*` for all.'),
    enabled: S.boolean,
    disabledReason: S.describe(S.nullableString, 'Why it was switched off (a 410 answer).'),
    createdAt: S.dateTime,
    updatedAt: S.dateTime,
    secret: S.describe(
      S.string,
      '`whsec_…`: only when it was just made (create, `secret: "rotate"`) or set. Keep it.',
    ),
  },
  ['id', 'url', 'events', 'enabled', 'disabledReason', 'createdAt', 'updatedAt'],
);

export const deliveryAttempt = object({
  id: S.string,
  eventId: S.string,
  eventType: S.string,
  attempt: S.integer,
  statusCode: S.nullableInteger,
  ok: S.boolean,
  durationMs: S.integer,
  error: S.nullableString,
  at: S.dateTime,
});

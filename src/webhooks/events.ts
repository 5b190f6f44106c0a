/** Webhook event types (spec 6); an endpoint subscribes to some of them, or to `*` for every one. */
export const EVENT_TYPES = [
  'form.submitted',
  'menu.updated',
  'redirect.updated',
  'content.published',
  'token.revoked',
] as const;
export type WebhookEventType = (typeof EVENT_TYPES)[number];

export function subscribes(events: readonly string[], type: string): boolean {
  return events.includes('*') || events.includes(type);
}

import { at, isObject, type Problems } from '../lib/problems.js';
import { EVENT_TYPES } from './events.js';
import { isValidSecret } from './signing.js';
import { webhookUrlProblem } from '../outbound/target.js';
import type { WebhookRow } from './webhooks-repo.js';

/** A webhook endpoint as in a bundle (`webhooks[]`); the secret is generated when left out. */
export interface WebhookDoc {
  url: string;
  events: string[];
  secret?: string;
  /** Left out when enabled. */
  enabled?: boolean;
  disabledReason?: string | null;
}

const MEMBERS = new Set(['url', 'events', 'secret', 'enabled', 'disabledReason']);
const EVENTS = new Set<string>([...EVENT_TYPES, '*']);

/**
 * Checks an endpoint as authored. Bundles are checked without the private-network rule (the importing
 * installation's setting applies when sending); the management API checks it (`allowPrivate`).
 */
export function checkWebhook(
  input: unknown,
  path: string,
  p: Problems,
  allowPrivate = true,
): input is WebhookDoc {
  const before = p.list.length;
  if (!isObject(input)) {
    p.add(path, 'must be an object { url, events, secret }');
    return false;
  }
  for (const key of Object.keys(input))
    if (!MEMBERS.has(key)) p.add(at(path, key), 'is not a member of a webhook');
  const urlProblem = webhookUrlProblem(input.url, allowPrivate);
  if (urlProblem) p.add(at(path, 'url'), urlProblem);
  checkEvents(input.events, at(path, 'events'), p);
  if (input.secret !== undefined && !isValidSecret(input.secret))
    p.add(at(path, 'secret'), 'must be "whsec_" followed by the base64 of a 24 to 64 byte key');
  if (input.enabled !== undefined && typeof input.enabled !== 'boolean')
    p.add(at(path, 'enabled'), 'must be true or false');
  if (
    input.disabledReason !== undefined &&
    input.disabledReason !== null &&
    typeof input.disabledReason !== 'string'
  )
    p.add(at(path, 'disabledReason'), 'must be a string or null');
  return p.list.length === before;
}

export function checkEvents(events: unknown, path: string, p: Problems): void {
  if (!Array.isArray(events) || events.length === 0) {
    p.add(path, `must be a non-empty array of event types (${[...EVENTS].join(', ')})`);
    return;
  }
  const seen = new Set<unknown>();
  events.forEach((e, i) => {
    if (typeof e !== 'string' || !EVENTS.has(e))
      p.add(at(path, i), `must be one of ${[...EVENTS].join(', ')}`);
    else if (seen.has(e)) p.add(at(path, i), `duplicate event "${e}"`);
    seen.add(e);
  });
}

/** The bundle shape of a stored endpoint, secret included (`folio export` drops it unless `--secrets`). */
export function webhookToDoc(w: WebhookRow): WebhookDoc {
  return {
    url: w.url,
    events: w.events,
    secret: w.secret,
    ...(w.enabled ? {} : { enabled: false, disabledReason: w.disabledReason }),
  };
}

/** The management API's view of an endpoint: the secret only when asked for (creation, rotation). */
export function webhookView(w: WebhookRow, withSecret = false) {
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    enabled: w.enabled,
    disabledReason: w.disabledReason,
    createdAt: w.createdAt,
    updatedAt: w.updatedAt,
    ...(withSecret ? { secret: w.secret } : {}),
  };
}

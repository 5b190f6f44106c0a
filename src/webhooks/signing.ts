import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the secret is `whsec_` + the base64 of the
 * key; the signature is `v1,` + base64(HMAC-SHA256(key, "<webhook-id>.<webhook-timestamp>.<body>")).
 */
const PREFIX = 'whsec_';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** A new secret: 24 random bytes, as Standard Webhooks libraries generate them. */
export function generateSecret(): string {
  return `${PREFIX}${randomBytes(24).toString('base64')}`;
}

/** `whsec_` followed by a base64 key of 24 to 64 bytes. */
export function isValidSecret(secret: unknown): secret is string {
  if (typeof secret !== 'string' || !secret.startsWith(PREFIX)) return false;
  const b64 = secret.slice(PREFIX.length);
  if (!BASE64.test(b64) || b64.length % 4 !== 0) return false;
  const bytes = Buffer.from(b64, 'base64').length;
  return bytes >= 24 && bytes <= 64;
}

/** The `webhook-signature` header value for one attempt. */
export function signPayload(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice(PREFIX.length), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

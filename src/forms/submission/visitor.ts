import { createHmac } from 'node:crypto';
import { isIP } from 'node:net';
import { deriveKey } from '../../store/secrets-repo.js';

/**
 * A visitor is their IP address (`request.ip`: the socket's address, or the first untrusted hop of
 * X-Forwarded-For when TRUST_PROXY is set), but only ever as a keyed hash (DESIGN.md decisions, spec 2.13: the
 * IP is never stored). The key is derived from the installation's master key, so the hash cannot be reversed by
 * trying every address without it.
 */
export class VisitorKeys {
  private readonly key: Buffer;

  constructor(masterKey: Buffer) {
    this.key = deriveKey(masterKey, 'visitor');
  }

  /** The visitor key of an IP address: 128 bits of an HMAC-SHA256, base64url. */
  of(ip: string): string {
    return createHmac('sha256', this.key).update(ip, 'utf8').digest('base64url').slice(0, 22);
  }
}

/** The header a server-side site names its visitor's address in (docs/api.md). */
export const VISITOR_IP_HEADER = 'folio-visitor-ip';

/**
 * The visitor's address a server-side site forwarded, when it may: the token has no origins (a site's server, never
 * a page: a browser could claim any address), the form allows it (`settings.trustVisitorIp`), and the header is
 * one IP address. Otherwise the request's own address (`request.ip`).
 */
export function visitorIp(
  request: { ip: string; headers: Readonly<Record<string, unknown>> },
  token: { origins: readonly string[] } | null,
  formTrusts: boolean,
): string {
  const claimed = request.headers[VISITOR_IP_HEADER];
  if (!formTrusts || token === null || token.origins.length > 0 || typeof claimed !== 'string')
    return request.ip;
  const ip = claimed.trim().replace(/^\[|\]$/g, '');
  return isIP(ip) === 0 ? request.ip : ip;
}

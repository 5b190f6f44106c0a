import { createHmac } from 'node:crypto';
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

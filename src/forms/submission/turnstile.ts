import { createHmac, randomUUID } from 'node:crypto';
import type { Kv } from '../../kv/kv.js';

/**
 * Cloudflare's documented test secrets (developers.cloudflare.com/turnstile/troubleshooting/testing/). They are
 * answered here without a network call — their answers are fixed, and a server without outbound access can
 * still run its test setup: `1x…AA` accepts any token (also a reused one: the dummy widget always produces the
 * same `XXXX.DUMMY.TOKEN.XXXX`), `2x…AA` always fails, `3x…AA` always fails as "token already spent".
 */
export const TURNSTILE_TEST_SECRETS = {
  pass: '1x0000000000000000000000000000000AA',
  fail: '2x0000000000000000000000000000000AA',
  spent: '3x0000000000000000000000000000000AA',
} as const;

/** Tokens are at most 2048 characters (Cloudflare's siteverify documentation). */
const MAX_TOKEN_LENGTH = 2048;
/** Tokens are valid for 300 seconds; remembering used ones that long covers their whole life. */
const TOKEN_LIFETIME_MS = 300_000;

export type TurnstileOutcome = { ok: true } | { ok: false; reason: string };

export interface TurnstileOptions {
  verifyUrl: string;
  timeoutMs: number;
  /** Remembers used tokens (memory, or Redis across instances). */
  kv: Kv;
  /** Keys the token hashes kept in the Kv. */
  hashKey: Buffer;
  onError?: (err: unknown) => void;
}

/**
 * Verifies challenge tokens with siteverify (spec 4.4: single-use, required when the form uses Turnstile). Fails
 * closed: a timeout, a network error, a non-200 answer or an unreadable body all reject the submission. The
 * secret goes only to siteverify; the visitor's IP goes along as `remoteip` and is not kept anywhere.
 */
export class TurnstileVerifier {
  constructor(private readonly options: TurnstileOptions) {}

  async verify(secret: string, token: unknown, remoteIp: string): Promise<TurnstileOutcome> {
    if (typeof token !== 'string' || token.trim() === '')
      return { ok: false, reason: 'missing-input-response' };
    if (token.length > MAX_TOKEN_LENGTH) return { ok: false, reason: 'invalid-input-response' };
    if (secret === TURNSTILE_TEST_SECRETS.pass) return { ok: true };
    if (secret === TURNSTILE_TEST_SECRETS.fail) return { ok: false, reason: 'invalid-input-response' };
    if (secret === TURNSTILE_TEST_SECRETS.spent) return { ok: false, reason: 'timeout-or-duplicate' };

    // Single use, whatever siteverify says: the first request to present a token claims it, atomically across
    // instances when the Kv is Redis. A token that failed verification stays claimed (it is spent anyway).
    const hash = createHmac('sha256', this.options.hashKey).update(token, 'utf8').digest('base64url');
    let claimed: boolean;
    try {
      claimed = await this.options.kv.setOnce(`ts:${hash}`, TOKEN_LIFETIME_MS);
    } catch (err) {
      this.options.onError?.(err);
      return { ok: false, reason: 'internal-error' };
    }
    if (!claimed) return { ok: false, reason: 'timeout-or-duplicate' };
    return this.siteverify(secret, token, remoteIp);
  }

  private async siteverify(secret: string, token: string, remoteIp: string): Promise<TurnstileOutcome> {
    const body = new URLSearchParams({
      secret,
      response: token,
      remoteip: remoteIp,
      idempotency_key: randomUUID(),
    });
    try {
      const res = await fetch(this.options.verifyUrl, {
        method: 'POST',
        body,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      if (!res.ok) {
        await res.body?.cancel();
        return { ok: false, reason: `siteverify-status-${res.status}` };
      }
      const answer = (await res.json()) as { success?: unknown; 'error-codes'?: unknown };
      if (answer.success === true) return { ok: true };
      const codes = Array.isArray(answer['error-codes']) ? answer['error-codes'].join(',') : '';
      return { ok: false, reason: codes === '' ? 'rejected' : codes };
    } catch (err) {
      this.options.onError?.(err);
      return { ok: false, reason: 'siteverify-unreachable' };
    }
  }
}

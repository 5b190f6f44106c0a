import { createHmac } from 'node:crypto';
import { type Kv, MemoryKv } from '../../kv/kv.js';

const MINUTE = 60_000;

export interface LimitsConfig {
  /** spec 8: 10 per minute per visitor, submissions and uploads together. */
  perVisitor: number;
  /** spec 8: 30 submissions per minute per form. */
  perForm: number;
}

export type LimitOutcome = { ok: true } | { ok: false; retryAfterSeconds: number; limit: number };

/** How the limits behave while the shared Kv (Redis) fails. */
export interface FallbackOptions {
  /** After a failure, requests count locally this long before one of them tries the shared Kv again. */
  retryMs?: number;
  /** At most one `onError` call per this interval while failures go on (default: one a minute). */
  logEveryMs?: number;
  now?: () => number;
}

/**
 * The form limits of spec 8 as fixed one-minute windows in a Kv (memory, or Redis shared by every instance).
 * Not @fastify/rate-limit: a request passes two independent limits here, one of them shared with the upload
 * route, and that plugin runs one limit per request and shares its decorators with the per-token delivery limit.
 *
 * While Redis is unreachable the limits never switch off: they count in this process (a MemoryKv), so they hold
 * per instance, as the delivery limit does (docs/operations.md "Many instances"). Requests then skip Redis for
 * `retryMs` instead of each waiting for its timeout; one request per interval tries Redis again, and counting is
 * shared again as soon as it answers. Turnstile still fails closed.
 */
export class FormLimits {
  /** Per-instance counters while the shared Kv fails. */
  private readonly local: MemoryKv;
  private readonly retryMs: number;
  private readonly logEveryMs: number;
  private readonly now: () => number;
  /** While set, counting is local until this time (ms), then one request tries the shared Kv. */
  private localUntil: number | null = null;
  private lastLog = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly kv: Kv,
    private readonly config: LimitsConfig,
    /** Keys the form part of Redis keys, so form keys never appear in Redis and installations never collide. */
    private readonly hashKey: Buffer,
    private readonly onError: (err: unknown) => void = () => {},
    options: FallbackOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.retryMs = options.retryMs ?? 5_000;
    this.logEveryMs = options.logEveryMs ?? MINUTE;
    this.local = new MemoryKv(this.now);
  }

  /** Counts one request of a visitor (submission or upload) in a space. */
  visitor(spaceId: string, visitorKey: string): Promise<LimitOutcome> {
    return this.count(`rl:v:${this.hash(`${spaceId}\n${visitorKey}`)}`, this.config.perVisitor);
  }

  /** Counts one submission to a form. */
  form(spaceId: string, formKey: string): Promise<LimitOutcome> {
    return this.count(`rl:f:${this.hash(`${spaceId}\n${formKey}`)}`, this.config.perForm);
  }

  private hash(text: string): string {
    return createHmac('sha256', this.hashKey).update(text, 'utf8').digest('base64url').slice(0, 22);
  }

  private async count(key: string, limit: number): Promise<LimitOutcome> {
    const { count, resetMs } = await this.hit(key);
    if (count <= limit) return { ok: true };
    return { ok: false, limit, retryAfterSeconds: Math.max(1, Math.ceil(resetMs / 1000)) };
  }

  private async hit(key: string): Promise<{ count: number; resetMs: number }> {
    const now = this.now();
    if (this.localUntil !== null) {
      if (now < this.localUntil) return this.local.hit(key, MINUTE);
      // This request tries the shared Kv; those arriving meanwhile keep counting locally.
      this.localUntil = now + this.retryMs;
    }
    try {
      const shared = await this.kv.hit(key, MINUTE);
      this.localUntil = null;
      return shared;
    } catch (err) {
      this.localUntil = now + this.retryMs;
      // Logged once in a while, not per request: an outage would otherwise flood the log.
      if (now - this.lastLog >= this.logEveryMs) {
        this.lastLog = now;
        this.onError(err);
      }
      return this.local.hit(key, MINUTE);
    }
  }
}

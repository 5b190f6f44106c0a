import { createHmac } from 'node:crypto';
import type { Kv } from './kv.js';

const MINUTE = 60_000;

export interface LimitsConfig {
  /** spec 8: 10 per minute per visitor, submissions and uploads together. */
  perVisitor: number;
  /** spec 8: 30 submissions per minute per form. */
  perForm: number;
}

export type LimitOutcome = { ok: true } | { ok: false; retryAfterSeconds: number; limit: number };

/**
 * The form limits of spec 8 as fixed one-minute windows in a Kv (memory, or Redis shared by every instance).
 * Not @fastify/rate-limit: a request passes two independent limits here, one of them shared with the upload
 * route, and that plugin runs one limit per request and shares its decorators with the per-token delivery limit.
 * Limits fail open when Redis is unreachable: forms keep working, and Turnstile still fails closed.
 */
export class FormLimits {
  constructor(
    private readonly kv: Kv,
    private readonly config: LimitsConfig,
    /** Keys the form part of Redis keys, so form keys never appear in Redis and installations never collide. */
    private readonly hashKey: Buffer,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

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
    try {
      const { count, resetMs } = await this.kv.hit(key, MINUTE);
      if (count <= limit) return { ok: true };
      return { ok: false, limit, retryAfterSeconds: Math.max(1, Math.ceil(resetMs / 1000)) };
    } catch (err) {
      this.onError(err);
      return { ok: true };
    }
  }
}

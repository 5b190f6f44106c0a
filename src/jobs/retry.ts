/** When a failed job runs again, and when it is given up. */
export interface RetryPolicy {
  /** Attempts in all, the first included; after the last failure the job is `dead`. */
  maxAttempts: number;
  /** Delay before attempt `attempt + 1`, after attempt `attempt` (1-based) failed. */
  delayMs(attempt: number): number;
}

const BASE_MS = 30_000;
const CAP_MS = 12 * 60 * 60_000;

/**
 * The default schedule (docs/api.md "Webhooks"): exponential backoff from 30 seconds, doubling, capped at
 * 12 hours, each delay jittered by ±20 % so endpoints recovering from an outage are not hit in lockstep.
 * 17 attempts: the last about 3.2 days after the first (spec 6 leaves retries open; Standard Webhooks
 * senders retry for days).
 */
export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 17,
  delayMs(attempt: number): number {
    const exact = Math.min(BASE_MS * 2 ** Math.max(0, attempt - 1), CAP_MS);
    return Math.round(exact * (0.8 + Math.random() * 0.4));
  },
};

/** The time of the next attempt after `attempts` failed ones, or null when the job is given up. */
export function nextAttemptAt(policy: RetryPolicy, attempts: number, now: Date): Date | null {
  if (attempts >= policy.maxAttempts) return null;
  return new Date(now.getTime() + Math.max(0, policy.delayMs(attempts)));
}

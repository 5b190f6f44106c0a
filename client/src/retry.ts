/** How the client asks again after 429 (any method) and 503 (GETs only). */
export interface RetryOptions {
  /** Retries after 429 per call (default 2). */
  retries?: number;
  /**
   * The longest wait, in milliseconds (default 10,000). An answer asking for longer (`Retry-After: 60`) is not
   * waited for: the call fails at once with the 429 and its `retryAfter`, so a page never hangs for a minute.
   */
  maxDelayMs?: number;
  /** Ask a GET once more after 503 `unavailable` (default true). */
  retryUnavailable?: boolean;
}

export interface RetryPolicy {
  retries: number;
  maxDelayMs: number;
  retryUnavailable: boolean;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 2, maxDelayMs: 10_000, retryUnavailable: true };
export const NO_RETRY: RetryPolicy = { retries: 0, maxDelayMs: 0, retryUnavailable: false };

export function retryPolicy(options: RetryOptions | false | undefined): RetryPolicy {
  if (options === false) return NO_RETRY;
  const retries = options?.retries ?? DEFAULT_RETRY.retries;
  const maxDelayMs = options?.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs;
  if (!Number.isInteger(retries) || retries < 0) throw new RangeError('retry.retries: a whole number ≥ 0');
  if (!(maxDelayMs >= 0)) throw new RangeError('retry.maxDelayMs: a number of milliseconds ≥ 0');
  return {
    retries,
    maxDelayMs,
    retryUnavailable: options?.retryUnavailable ?? DEFAULT_RETRY.retryUnavailable,
  };
}

/** Without `Retry-After`: 0.5 s, 1 s, 2 s, … */
export const backoffMs = (attempt: number): number => 500 * 2 ** attempt;

/**
 * `Retry-After` in milliseconds, or undefined when absent or unreadable. RFC 9110 10.2.3: either
 * delay-seconds (`120`) or an HTTP-date (`Wed, 21 Oct 2015 07:28:00 GMT`); a date in the past is no wait.
 */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

import { cacheKey, type EtagCache } from './etag-cache.js';
import { errorFromAnswer, errorFromFetchFailure, FolioApiError } from './errors.js';
import { remember, responseInfoOf } from './response-info.js';
import { backoffMs, retryAfterMs, type RetryPolicy, sleep } from './retry.js';

/** `fetch` as the client calls it: the platform's, or one the caller passes (tests, instrumentation, proxies). */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface TransportConfig {
  /** The service's address, without a trailing slash and without `/v1`. */
  baseUrl: string;
  spaceId: string;
  token: string;
  /** `header`: `Authorization: Bearer`; `query`: `?token=` (public tokens only; spares browsers a preflight). */
  tokenIn: 'header' | 'query';
  fetch: FetchLike;
  retry: RetryPolicy;
  cache: EtagCache | null;
}

/** One call of the API: what to send, and how to check the JSON answer (null: not the expected shape). */
export interface ApiCall<T> {
  method: 'GET' | 'POST';
  /** Under `/v1/<spaceId>`, starting with `/`. */
  path: string;
  query?: URLSearchParams;
  body?: { json: unknown } | { form: FormData };
  signal?: AbortSignal | undefined;
  read(body: unknown): T | null;
}

/** The empty wait before asking again after 503 without `Retry-After`. */
const UNAVAILABLE_WAIT_MS = 500;

/**
 * Sends calls: URL and token, JSON and multipart bodies, ETag revalidation of GETs, retries after 429 (any
 * method: a 429 was refused before anything was done, so asking again cannot submit twice) and one retry of a
 * GET after 503. Every failure leaves as a `FolioApiError`.
 */
export class Transport {
  constructor(readonly config: TransportConfig) {}

  url(path: string, query?: URLSearchParams): string {
    const { baseUrl, spaceId, token, tokenIn } = this.config;
    const params = new URLSearchParams(query);
    if (tokenIn === 'query') params.set('token', token);
    const search = params.toString();
    return `${baseUrl}/v1/${encodeURIComponent(spaceId)}${path}${search === '' ? '' : `?${search}`}`;
  }

  async send<T>(call: ApiCall<T>): Promise<T> {
    const { token, tokenIn, cache, retry } = this.config;
    const url = this.url(call.path, call.query);
    const key = call.method === 'GET' && cache !== null ? cacheKey(token, url) : undefined;
    const cached = key === undefined ? undefined : cache?.get(key);
    const headers = new Headers({ accept: 'application/json' });
    if (tokenIn === 'header') headers.set('authorization', `Bearer ${token}`);
    if (cached !== undefined) headers.set('if-none-match', cached.etag);
    let body: string | FormData | undefined;
    if (call.body !== undefined && 'json' in call.body) {
      body = JSON.stringify(call.body.json);
      headers.set('content-type', 'application/json');
    } else if (call.body !== undefined) {
      // fetch writes the multipart boundary into the content type itself.
      body = call.body.form;
    }
    const init: RequestInit = { method: call.method, headers, ...(body === undefined ? {} : { body }) };
    if (call.signal !== undefined) init.signal = call.signal;

    let rateLimitedRetries = 0;
    let unavailableRetried = false;
    for (;;) {
      const res = await this.fetchOnce(url, init, call.signal);
      if (res.status === 304 && cached !== undefined) {
        discard(res);
        const value = this.readAnswer(call, res.status, cached.text);
        remember(value, responseInfoOf(res.status, res.headers));
        return value;
      }
      if (res.ok) {
        const text = await readText(res, call.signal);
        const value = this.readAnswer(call, res.status, text);
        remember(value, responseInfoOf(res.status, res.headers));
        const etag = res.headers.get('etag');
        if (key !== undefined && etag !== null && !/no-store/i.test(res.headers.get('cache-control') ?? ''))
          cache?.set(key, { etag, text });
        return value;
      }
      const retryAfter = retryAfterMs(res.headers.get('retry-after'));
      let wait: number | undefined;
      if (res.status === 429 && rateLimitedRetries < retry.retries) {
        wait = retryAfter ?? backoffMs(rateLimitedRetries);
        rateLimitedRetries += 1;
      } else if (
        res.status === 503 &&
        call.method === 'GET' &&
        retry.retryUnavailable &&
        !unavailableRetried
      ) {
        wait = retryAfter ?? UNAVAILABLE_WAIT_MS;
        unavailableRetried = true;
      }
      if (wait !== undefined && wait <= retry.maxDelayMs) {
        discard(res);
        try {
          await sleep(wait, call.signal);
        } catch (err) {
          throw errorFromFetchFailure(err, call.signal);
        }
        continue;
      }
      const text = await readText(res, call.signal);
      throw errorFromAnswer(
        res.status,
        text,
        retryAfter === undefined ? undefined : Math.ceil(retryAfter / 1000),
      );
    }
  }

  private async fetchOnce(
    url: string,
    init: RequestInit,
    signal: AbortSignal | undefined,
  ): Promise<Response> {
    try {
      return await this.config.fetch(url, init);
    } catch (err) {
      throw errorFromFetchFailure(err, signal);
    }
  }

  private readAnswer<T>(call: ApiCall<T>, status: number, text: string): T {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw invalidResponse(status, 'the answer is not JSON');
    }
    const value = call.read(json);
    if (value === null)
      throw invalidResponse(status, `the answer of ${call.method} ${call.path} has another shape`);
    return value;
  }
}

function invalidResponse(status: number, why: string): FolioApiError {
  return new FolioApiError({ status, code: 'invalid_response', message: `HTTP ${status}: ${why}` });
}

/** The body as text; a connection lost while reading it is a network error like any other. */
async function readText(res: Response, signal: AbortSignal | undefined): Promise<string> {
  try {
    return await res.text();
  } catch (err) {
    throw errorFromFetchFailure(err, signal);
  }
}

/** An answer that is not read (a 304, a 429 asked again): release its connection. */
function discard(res: Response): void {
  res.body?.cancel().catch(() => undefined);
}

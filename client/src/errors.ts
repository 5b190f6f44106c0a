import { isObject } from './parse.js';
import type { FieldError, FolioErrorCode, PathRedirect } from './types.js';

export interface FolioApiErrorInit {
  status: number;
  code: FolioErrorCode;
  message: string;
  details?: Record<string, unknown> | undefined;
  retryAfter?: number | undefined;
  redirect?: PathRedirect | undefined;
  cause?: unknown;
}

/**
 * Every failure of a client call: an error answer of the API (spec 7.1: `code`, `message`, `details`), and what
 * the client raises itself with status 0 (`network_error`, `timeout`, `aborted`) or with the answer's status
 * (`http_error`: an error answer that is not the API's envelope, e.g. a proxy's HTML page; `invalid_response`: a
 * success answer that is not the expected JSON).
 */
export class FolioApiError extends Error {
  override readonly name = 'FolioApiError';
  /** The HTTP status; 0 when no answer arrived. */
  readonly status: number;
  readonly code: FolioErrorCode;
  readonly details: Record<string, unknown> | undefined;
  /** Seconds to wait before asking again (429: `Retry-After`, or `details.retryAfter`). */
  readonly retryAfter: number | undefined;
  /** An old path's redirect (404 from `entries.byPath`, spec 7.3). */
  readonly redirect: PathRedirect | undefined;

  constructor(init: FolioApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.retryAfter = init.retryAfter;
    this.redirect = init.redirect;
  }

  /**
   * Field problems of a `validation_failed` answer (spec 7.1, 7.4), by field key: `{ code, message, params? }`.
   * Empty for other errors.
   */
  get fields(): Record<string, FieldError> {
    const fields = this.details?.fields;
    const out: Record<string, FieldError> = {};
    if (!isObject(fields)) return out;
    for (const [key, value] of Object.entries(fields)) {
      if (!isObject(value) || typeof value.code !== 'string') continue;
      out[key] = {
        code: value.code,
        message: typeof value.message === 'string' ? value.message : value.code,
        ...(isObject(value.params) ? { params: paramsOf(value.params) } : {}),
      };
    }
    return out;
  }
}

/**
 * The error of an answer that is not 2xx: the envelope's code, message and details when the body is the
 * envelope, else `http_error` naming the status (a proxy's page, an empty body).
 */
export function errorFromAnswer(
  status: number,
  bodyText: string,
  retryAfter: number | undefined,
): FolioApiError {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    body = undefined;
  }
  const error = isObject(body) ? body.error : undefined;
  if (!isObject(body) || !isObject(error) || typeof error.code !== 'string') {
    return new FolioApiError({
      status,
      code: 'http_error',
      message: `HTTP ${status}: the answer is not the API's error envelope`,
      retryAfter,
    });
  }
  const details = isObject(error.details) ? error.details : undefined;
  const detailsRetry = details?.retryAfter;
  return new FolioApiError({
    status,
    code: error.code,
    message: typeof error.message === 'string' ? error.message : error.code,
    details,
    retryAfter: retryAfter ?? (typeof detailsRetry === 'number' ? detailsRetry : undefined),
    redirect: pathRedirect(body.redirect),
  });
}

function pathRedirect(value: unknown): PathRedirect | undefined {
  if (!isObject(value) || typeof value.status !== 'number') return undefined;
  if (typeof value.to !== 'string' && value.to !== null) return undefined;
  return { to: value.to, status: value.status };
}

/** What a failed `fetch` becomes: `aborted` or `timeout` when the caller's signal ended it, else `network_error`. */
export function errorFromFetchFailure(err: unknown, signal: AbortSignal | undefined): FolioApiError {
  if (signal?.aborted) {
    const reason: unknown = signal.reason;
    const timedOut = isObject(reason) && reason.name === 'TimeoutError';
    return new FolioApiError({
      status: 0,
      code: timedOut ? 'timeout' : 'aborted',
      message: timedOut ? 'The request timed out' : 'The request was aborted',
      cause: reason ?? err,
    });
  }
  const detail = err instanceof Error ? err.message : String(err);
  return new FolioApiError({
    status: 0,
    code: 'network_error',
    message: `Network error: ${detail}`,
    cause: err,
  });
}

/** Error params as the rules give them: texts and numbers (anything else is left out). */
function paramsOf(params: Record<string, unknown>): Record<string, string | number> {
  return Object.fromEntries(
    Object.entries(params).filter(
      (e): e is [string, string | number] => typeof e[1] === 'string' || typeof e[1] === 'number',
    ),
  );
}

/**
 * The one error type and the one registry of codes (spec 7). Every failure a client sees is a FolioError
 * rendered as the 7.1 envelope; `test/errors-registry.test.ts` checks this registry against the spec's table.
 */

export const ERROR_CODES = {
  // spec 7.3
  invalid_body: 400,
  not_found: 404,
  form_not_open: 409,
  form_closed: 409,
  form_full: 409,
  already_submitted: 409,
  too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  submission_too_large: 422,
  turnstile_failed: 422,
  turnstile_required: 422,
  invalid_field: 422,
  rate_limited: 429,
  // Folio's own codes where the spec says "not shown" (docs/api.md lists them)
  invalid_query: 400,
  invalid_bundle: 400,
  invalid_request: 400,
  unauthorized: 401,
  forbidden_origin: 403,
  preview_token_required: 403,
  forbidden: 403,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  cv_expired: 410,
  gone: 410,
  headers_too_large: 431,
  internal_error: 500,
  unavailable: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface FieldErrorDetail {
  code: string;
  message: string;
  params?: Record<string, string | number>;
}

export class FolioError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;
  /** Extra top-level members of the body beside `error` (spec 7.3: `redirect` on a 404). */
  readonly extra: Record<string, unknown> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: Record<string, unknown>; extra?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'FolioError';
    this.code = code;
    this.status = ERROR_CODES[code];
    this.details = options.details;
    this.extra = options.extra;
  }

  toBody(): Record<string, unknown> {
    const error: Record<string, unknown> = { code: this.code, message: this.message };
    if (this.details !== undefined) error.details = this.details;
    return { error, ...this.extra };
  }
}

export const invalidQuery = (message: string, parameter?: string): FolioError =>
  new FolioError('invalid_query', message, parameter === undefined ? {} : { details: { parameter } });

export const notFound = (message = 'Not found.'): FolioError => new FolioError('not_found', message);

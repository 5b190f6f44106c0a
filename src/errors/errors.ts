/**
 * The one error type and the one registry of codes (spec 7), fastify-style: every code's status and default
 * message live here, and each code has one constructor, named after the code in camelCase:
 *
 *     throw notFound(`Entry "${id}" not found.`);            // 404 not_found
 *     throw conflict(`Entry "${id}" already exists.`);       // 409 conflict
 *     throw forbidden('…', { details: { missingScopes } });  // 403 forbidden
 *     throw unavailable(undefined, { cause: err });          // 503 with the registry's message
 *
 * A constructor takes `(message?, options?)`: the message defaults to the registry's, options carry `details`
 * (the envelope's `error.details`), `extra` (members beside `error`, spec 7.3: `redirect` on a 404) and `cause`.
 * The one exception is `invalidQuery(message?, parameter?)`: nearly every call names the query parameter at fault,
 * which it puts in `details.parameter`. Call sites never spell a status or a code; lint refuses `new FolioError`
 * outside this folder. Every failure a client sees is a FolioError rendered as the 7.1 envelope (`toBody`), and
 * `test/errors-registry.test.ts` checks this registry against docs/api.md and spec 7.3.
 *
 * A leaf: imports nothing from src/ (lint enforces it), so every folder may import it.
 */

interface ErrorDefinition {
  readonly status: number;
  /** Used when a call site gives none; a 5xx message is all a client ever sees of a server failure. */
  readonly message: string;
}

export const ERRORS = {
  // spec 7.3
  invalid_body: { status: 400, message: 'The request body is not valid.' },
  not_found: { status: 404, message: 'Not found.' },
  form_not_open: { status: 409, message: 'This form is not open yet.' },
  form_closed: { status: 409, message: 'This form is closed.' },
  form_full: { status: 409, message: 'This form has reached its maximum number of submissions.' },
  already_submitted: { status: 409, message: 'This address has already been used to submit this form.' },
  too_large: { status: 413, message: 'The request body is too large.' },
  unsupported_media_type: { status: 415, message: 'Unsupported media type.' },
  validation_failed: { status: 422, message: 'Some fields are not valid.' },
  submission_too_large: { status: 422, message: 'The submitted values are too large.' },
  turnstile_failed: { status: 422, message: 'The challenge token is missing, used or invalid.' },
  turnstile_required: { status: 422, message: 'This form needs a challenge token.' },
  invalid_field: { status: 422, message: 'The field is not a field of this form.' },
  rate_limited: { status: 429, message: 'Too many requests; retry later.' },
  // Folio's own codes where the spec says "not shown" (docs/api.md lists them)
  invalid_query: { status: 400, message: 'The request URL is not valid.' },
  invalid_bundle: { status: 400, message: 'The bundle is not valid.' },
  invalid_request: { status: 400, message: 'The request is not valid HTTP.' },
  unauthorized: { status: 401, message: 'A valid token is required.' },
  forbidden_origin: { status: 403, message: 'This origin is not allowed for this token.' },
  preview_token_required: { status: 403, message: 'draft and release need a preview token.' },
  forbidden: { status: 403, message: 'This token may not do this.' },
  method_not_allowed: { status: 405, message: 'This method is not served on this path.' },
  request_timeout: { status: 408, message: 'The request line and headers did not arrive in time.' },
  conflict: { status: 409, message: 'The request conflicts with the current state.' },
  cv_expired: { status: 410, message: 'The cv is older than the oldest kept version; request a current cv.' },
  gone: { status: 410, message: 'Gone.' },
  expectation_failed: { status: 417, message: 'Only the expectation 100-continue is supported.' },
  headers_too_large: {
    status: 431,
    message: 'The request line and headers exceed 16 KB; send long values in a request body.',
  },
  internal_error: { status: 500, message: 'Internal error.' },
  unavailable: { status: 503, message: 'The service is temporarily unavailable; try again shortly.' },
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorCode = keyof typeof ERRORS;

/** Status by code: what docs/api.md's table lists. */
export const ERROR_CODES = Object.freeze(
  Object.fromEntries(Object.entries(ERRORS).map(([code, { status }]) => [code, status])),
) as { readonly [C in ErrorCode]: (typeof ERRORS)[C]['status'] };

export interface FieldErrorDetail {
  code: string;
  message: string;
  params?: Record<string, string | number>;
}

export interface FolioErrorOptions {
  /** The envelope's `error.details`. */
  details?: Record<string, unknown>;
  /** Extra top-level members of the body beside `error` (spec 7.3: `redirect` on a 404). */
  extra?: Record<string, unknown>;
  cause?: unknown;
}

export class FolioError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;
  readonly extra: Record<string, unknown> | undefined;

  /** Use the code's constructor below (`notFound(…)`), not this. */
  constructor(code: ErrorCode, message: string, options: FolioErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'FolioError';
    this.code = code;
    this.status = ERRORS[code].status;
    this.details = options.details;
    this.extra = options.extra;
  }

  toBody(): Record<string, unknown> {
    const error: Record<string, unknown> = { code: this.code, message: this.message };
    if (this.details !== undefined) error.details = this.details;
    return { error, ...this.extra };
  }
}

export type ErrorConstructor = (message?: string, options?: FolioErrorOptions) => FolioError;

const define =
  (code: ErrorCode): ErrorConstructor =>
  (message = ERRORS[code].message, options = {}) =>
    new FolioError(code, message, options);

// One constructor per code, in the registry's order.
export const invalidBody = define('invalid_body');
export const notFound = define('not_found');
export const formNotOpen = define('form_not_open');
export const formClosed = define('form_closed');
export const formFull = define('form_full');
export const alreadySubmitted = define('already_submitted');
export const tooLarge = define('too_large');
export const unsupportedMediaType = define('unsupported_media_type');
export const validationFailed = define('validation_failed');
export const submissionTooLarge = define('submission_too_large');
export const turnstileFailed = define('turnstile_failed');
export const turnstileRequired = define('turnstile_required');
export const invalidField = define('invalid_field');
export const rateLimited = define('rate_limited');
/** 400 `invalid_query`; `parameter` names the query parameter at fault (`details.parameter`). */
export const invalidQuery = (
  message: string = ERRORS.invalid_query.message,
  parameter?: string,
): FolioError =>
  new FolioError('invalid_query', message, parameter === undefined ? {} : { details: { parameter } });
export const invalidBundle = define('invalid_bundle');
export const invalidRequest = define('invalid_request');
export const unauthorized = define('unauthorized');
export const forbiddenOrigin = define('forbidden_origin');
export const previewTokenRequired = define('preview_token_required');
export const forbidden = define('forbidden');
export const methodNotAllowed = define('method_not_allowed');
export const requestTimeout = define('request_timeout');
export const conflict = define('conflict');
export const cvExpired = define('cv_expired');
export const gone = define('gone');
export const expectationFailed = define('expectation_failed');
export const headersTooLarge = define('headers_too_large');
export const internalError = define('internal_error');
export const unavailable = define('unavailable');

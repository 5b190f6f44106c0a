import type { FastifyError } from 'fastify';
import {
  FolioError,
  internalError,
  invalidBody,
  invalidQuery,
  invalidRequest,
  tooLarge,
  unavailable,
  unsupportedMediaType,
} from './errors.js';
import { isStoreUnavailable } from './store-unavailable.js';

/**
 * Maps Fastify's own errors onto the registry (spec 7.2); anything else is a 500 whose message is never shown.
 * The app's error handler (src/server/error-handler.ts) answers with it, and so do the routes that render
 * failures themselves (form submissions and uploads, src/forms/).
 */
export function toFolioError(err: FastifyError | Error): FolioError {
  if (err instanceof FolioError) return err;
  const e = err as FastifyError;
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return tooLarge();
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return unsupportedMediaType();
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return invalidBody();
    case 'FST_ERR_BAD_URL':
      return invalidRequest('The request path is not a valid URL (bad percent-encoding).');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      // routerOptions.maxParamLength in src/server/app.ts; no id, key or path segment comes near it.
      return invalidRequest('A path segment is longer than 2,048 characters.');
    case 'FST_ERR_ASYNC_CONSTRAINT':
      return invalidQuery();
    default:
      break;
  }
  if (isStoreUnavailable(err)) return unavailable(undefined, { cause: err });
  if (e.validation) return e.validationContext === 'body' ? invalidBody(e.message) : invalidQuery(e.message);
  if (e instanceof SyntaxError || e.statusCode === 400)
    return invalidBody('The request body is not valid JSON.');
  if (e.statusCode === 415) return unsupportedMediaType();
  if (e.statusCode === 413) return tooLarge();
  return internalError(undefined, { cause: err });
}

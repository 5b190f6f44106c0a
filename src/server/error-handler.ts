import type { FastifyError, FastifyInstance } from 'fastify';
import { isStoreUnavailable } from '../observability/store-unavailable.js';
import { FolioError } from './errors.js';

/** Maps Fastify's own errors onto the registry (spec 7.2); anything else is a 500 whose message is never shown. */
export function toFolioError(err: FastifyError | Error): FolioError {
  if (err instanceof FolioError) return err;
  const e = err as FastifyError;
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new FolioError('too_large', 'The request body is too large.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new FolioError('unsupported_media_type', 'Unsupported media type.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new FolioError('invalid_body', 'The request body is not valid.');
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_ASYNC_CONSTRAINT':
      return new FolioError('invalid_query', 'The request URL is not valid.');
    default:
      break;
  }
  if (isStoreUnavailable(err)) {
    return new FolioError('unavailable', 'The service is temporarily unavailable; try again shortly.', {
      cause: err,
    });
  }
  if (e.validation) {
    const where = e.validationContext === 'body' ? 'invalid_body' : 'invalid_query';
    return new FolioError(where, e.message);
  }
  if (e instanceof SyntaxError || e.statusCode === 400)
    return new FolioError('invalid_body', 'The request body is not valid JSON.');
  if (e.statusCode === 415) return new FolioError('unsupported_media_type', 'Unsupported media type.');
  if (e.statusCode === 413) return new FolioError('too_large', 'The request body is too large.');
  return new FolioError('internal_error', 'Internal error.', { cause: err });
}

export function registerErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((err, request, reply) => {
    const folio = toFolioError(err as Error);
    // An unreachable store is logged once by the cv poll (src/cluster/cv-fanout.ts), not once per request.
    if (folio.status >= 500 && folio.code !== 'unavailable') request.log.error({ err }, 'request failed');
    if (folio.code === 'rate_limited' && !reply.hasHeader('retry-after')) reply.header('retry-after', '60');
    reply.status(folio.status).header('cache-control', 'no-store').send(folio.toBody());
  });
  app.setNotFoundHandler((request, reply) => {
    const err = new FolioError(
      'not_found',
      `No route for ${request.method} ${request.url.split('?')[0] ?? ''}.`,
    );
    reply.status(404).header('cache-control', 'no-store').send(err.toBody());
  });
}

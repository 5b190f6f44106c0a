import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isStoreUnavailable } from '../observability/store-unavailable.js';
import { inputGuard } from './input-guard.js';
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
      return new FolioError('invalid_request', 'The request path is not a valid URL (bad percent-encoding).');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      // routerOptions.maxParamLength in src/server/app.ts; no id, key or path segment comes near it.
      return new FolioError('invalid_request', 'A path segment is longer than 2,048 characters.');
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

/** Every error leaves as the 7.1 envelope, never stored by a cache. */
function sendError(reply: FastifyReply, err: FolioError): void {
  reply.status(err.status).header('cache-control', 'no-store').send(err.toBody());
}

/**
 * Fastify's `frameworkErrors` option: errors raised while routing, before any route runs (an undecodable path,
 * an over-long path segment). Without it Fastify answers these with its own body, outside the envelope.
 */
export function frameworkErrors(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  sendError(reply, toFolioError(err));
}

/**
 * The methods some route serves at this URL (HEAD beside every GET). The CORS preflight route
 * `OPTIONS /v1/:spaceId/*` matches every path, so OPTIONS alone does not make a path known.
 */
function allowedMethods(app: FastifyInstance, url: string): string[] {
  const allowed = app.supportedMethods.filter((method) => app.findRoute({ method, url }) !== null);
  return allowed.some((m) => m !== 'OPTIONS') ? allowed : [];
}

/**
 * Registers how bad requests are answered: the error handler, not-found (404, or 405 with `Allow` for a known
 * path and the wrong method, RFC 9110 15.5.6) and the input guard, all on the root so every route has them.
 */
export function registerErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((err, request, reply) => {
    const folio = toFolioError(err as Error);
    // An unreachable store is logged once by the cv poll (src/cluster/cv-fanout.ts), not once per request.
    if (folio.status >= 500 && folio.code !== 'unavailable') request.log.error({ err }, 'request failed');
    if (folio.code === 'rate_limited' && !reply.hasHeader('retry-after')) reply.header('retry-after', '60');
    sendError(reply, folio);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const allowed = allowedMethods(request.server, request.url);
    if (allowed.length === 0 || allowed.includes(request.method)) {
      sendError(reply, new FolioError('not_found', `No route for ${request.method} ${path}.`));
      return;
    }
    const allow = allowed.join(', ');
    reply.header('allow', allow);
    const message = `${request.method} is not served on ${path}; use ${allow}.`;
    sendError(reply, new FolioError('method_not_allowed', message, { details: { allow: allowed } }));
  });
  // NUL in path parameters, body depth: before schemas, validators and handlers see them (input-guard.ts).
  app.addHook('preValidation', inputGuard);
}

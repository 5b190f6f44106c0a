import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FolioError } from '../errors/errors.js';
import { toFolioError } from '../errors/from-fastify.js';

/**
 * The one error reply path (spec 7.1). The root error handler (src/server/error-handler.ts) answers with
 * `sendErrorReply`; a scoped handler (a plain HTML form post, an upload) handles only what is its own and
 * throws the rest, which Fastify hands to the parent's handler (its `buildErrorHandler` chain), so the root.
 */

/**
 * What every error reply carries, whatever its body: a failure of ours (5xx) is logged with its stack, the reply
 * is never stored by a cache, and an error that says when to come back says it in `Retry-After` (RFC 9110
 * 10.2.3): a 429 without the header set by its limiter says 60 seconds, other errors `details.retryAfter` (a full
 * queue's 503).
 */
export function prepareErrorReply(request: FastifyRequest, reply: FastifyReply, err: unknown): FolioError {
  const folio = toFolioError(err instanceof Error ? err : new Error(String(err)));
  // An unreachable store is logged once by the cv poll (src/cluster/cv-fanout.ts), not once per request.
  if (folio.status >= 500 && folio.code !== 'unavailable') request.log.error({ err }, 'request failed');
  if (folio.code === 'rate_limited' && !reply.hasHeader('retry-after')) reply.header('retry-after', '60');
  const retryAfter = folio.details?.retryAfter;
  if (typeof retryAfter === 'number' && !reply.hasHeader('retry-after'))
    reply.header('retry-after', String(retryAfter));
  reply.header('cache-control', 'no-store');
  // Errors raised before the hooks ran (routing, the parser) carry the id too.
  if (!reply.hasHeader('x-request-id')) reply.header('x-request-id', request.id);
  return folio;
}

/** Answers `err` as the 7.1 envelope, after `prepareErrorReply`. */
export function sendErrorReply(request: FastifyRequest, reply: FastifyReply, err: unknown): void {
  const folio = prepareErrorReply(request, reply, err);
  reply.status(folio.status).send(folio.toBody());
}

import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { invalidBody, methodNotAllowed, notFound } from '../errors/errors.js';
import { redactUrl } from '../lib/redact-url.js';
import { abortDetails, clientWentAway } from '../lib/client-abort.js';
import { sendErrorReply } from '../lib/error-reply.js';
import { methodsAt } from '../lib/route-methods.js';
import { inputGuard } from './input-guard.js';

/**
 * Fastify's `frameworkErrors` option: errors raised while routing, before any route runs (an undecodable path,
 * an over-long path segment). Without it Fastify answers these with its own body, outside the envelope.
 */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  sendErrorReply(request, reply, err);
}

/**
 * A request no route serves: 404, or 405 with `Allow` for a known path and the wrong method (RFC 9110 15.5.6).
 * Answered from a root onRequest hook, before Fastify reads a body for the not-found route: a PATCH or QUERY
 * with a broken (or no) JSON body on a GET route is a wrong method, not a bad body.
 */
function answerUnrouted(request: FastifyRequest, reply: FastifyReply): void {
  const path = request.url.split('?', 1)[0] ?? '';
  const allowed = methodsAt(request.server, request.url);
  if (allowed.length === 0 || allowed.includes(request.method)) {
    sendErrorReply(request, reply, notFound(`No route for ${request.method} ${path}.`));
    return;
  }
  const allow = allowed.join(', ');
  reply.header('allow', allow);
  const message = `${request.method} is not served on ${path}; use ${allow}.`;
  sendErrorReply(request, reply, methodNotAllowed(message, { details: { allow: allowed } }));
}

/**
 * Registers how bad requests are answered: the error handler, not-found (404, or 405 with `Allow` for a known
 * path and the wrong method, RFC 9110 15.5.6) and the input guard, all on the root so every route has them.
 */
export function registerErrorHandlers(app: FastifyInstance): void {
  // The root of every scope's error handler: scoped ones throw what is not their own, and it lands here.
  app.setErrorHandler((err, request, reply) => {
    if (clientWentAway(request, err)) {
      // The client closed the connection mid-body (a cancelled asset upload): its doing, logged without a stack.
      request.log.info(
        { url: redactUrl(request.url), ...abortDetails(err) },
        'request aborted by the client',
      );
      sendErrorReply(request, reply, invalidBody('The request was aborted.'));
      return;
    }
    sendErrorReply(request, reply, err);
  });
  // Before anything else runs for a request no route serves (rate limits, body parsing); callback style, so a
  // routed request pays one property read and no promise.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.is404) answerUnrouted(request, reply);
    else done();
  });
  app.setNotFoundHandler(answerUnrouted);
  // NUL in path parameters, body depth: before schemas, validators and handlers see them (input-guard.ts).
  app.addHook('preValidation', inputGuard);
}

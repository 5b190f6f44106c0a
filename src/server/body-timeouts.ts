import type { IncomingMessage, ServerOptions } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { requestTimeout } from '../errors/errors.js';
import { answerAndClose } from './client-errors.js';

/**
 * Node's HTTP server options for REQUEST_TIMEOUT_MS: a request's line, headers and body must
 * all arrive within it, else 408 (`clientErrorHandler`, in the envelope). Node checks every
 * `connectionsCheckingInterval` (30 s by default): a quarter of the timeout, so a short one is kept closely too.
 * The headers' own limit stays Node's 60 s, or the request's when that is shorter (Node wants it no longer).
 */
export function timeoutOptions(requestTimeoutMs: number): ServerOptions {
  return {
    requestTimeout: requestTimeoutMs,
    headersTimeout: Math.min(60_000, requestTimeoutMs),
    connectionsCheckingInterval: Math.min(30_000, Math.max(10, Math.floor(requestTimeoutMs / 4))),
  };
}

/** A body was announced (`Content-Length` above 0, or chunked) and has neither arrived whole nor been read. */
export function bodyUnread(req: IncomingMessage): boolean {
  if (req.complete || req.readableEnded) return false;
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * The body's own timeouts (a submission trickled at 1 byte per 20 s held its connection for
 * minutes, and a 401 sent before the body kept reading it to the end).
 *
 * - While a request's body is arriving, its connection may stay silent for BODY_TIMEOUT_MS at most (the socket's
 *   idle timeout, which Node emits as `timeout` on a request not yet complete); then 408 `request_timeout` in the
 *   envelope, and the connection is closed. Once the body is read the connection's own setting is back, so a slow
 *   answer is never cut by it. REQUEST_TIMEOUT_MS bounds a body that keeps trickling (`timeoutOptions`).
 * - An answer sent before the body was read (a 401, 403 or 429 from the delivery pipeline, a 413) says
 *   `Connection: close`: Node then closes the connection once the answer is out, instead of reading the rest of
 *   the body to keep the connection alive for a next request.
 */
export function registerBodyTimeouts(app: FastifyInstance, bodyTimeoutMs: number): void {
  const message = `The request body stopped arriving for ${Math.round(bodyTimeoutMs / 1000)} s.`;
  app.addHook('onRequest', (request, _reply, done) => {
    const req = request.raw;
    const socket = req.socket;
    // `inject` has no socket to time out (light-my-request's stand-in has no setTimeout).
    if (!bodyUnread(req) || typeof socket?.setTimeout !== 'function') return done();
    const connectionTimeout = app.server.timeout;
    socket.setTimeout(bodyTimeoutMs);
    const onTimeout = () => answerAndClose(socket, requestTimeout(message));
    req.once('timeout', onTimeout);
    req.once('end', () => {
      req.off('timeout', onTimeout);
      if (!socket.destroyed) socket.setTimeout(connectionTimeout);
    });
    done();
  });
  // Synchronous, and one property read for every request without an unread body.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (bodyUnread(request.raw)) reply.header('connection', 'close');
    done(null, payload);
  });
}

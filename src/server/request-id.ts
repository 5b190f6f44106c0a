import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { redactUrl } from '../lib/redact-url.js';

/**
 * Request ids that follow a request across a proxy and into our logs: the caller's `X-Request-Id` when it is short
 * and plain (a proxy's or a load balancer's id), else a fresh UUID. Anything else a client sends (long, spaces,
 * control characters, quotes) could forge or break log lines, so it is replaced, not cleaned.
 */
const SAFE_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Fastify's `genReqId`: the request's id, once per request. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && SAFE_ID.test(given) ? given : randomUUID();
}

/** Fastify's logger serializer of a request: pino's default members, with the URL redacted. */
export function serializeRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** Every answer carries its id (errors too: src/lib/error-reply.ts sets it again for replies made before hooks). */
export function registerRequestIdHeader(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Metrics } from './metrics.js';

/**
 * Counts a response by route pattern (not URL: bounded label values), method and status, and times it until it
 * is handed to the socket. Called from the edge's one onSend hook (src/server/edge-plugin.ts): a second hook
 * kind would cost every cache hit its own hook runner.
 */
export function recordResponse(metrics: Metrics, request: FastifyRequest, reply: FastifyReply): void {
  metrics.request(
    request.routeOptions.url ?? 'unmatched',
    request.method,
    reply.statusCode,
    reply.elapsedTime / 1000,
  );
}

// A leaf: telling a client that went away from a failure of ours.

import type { FastifyRequest } from 'fastify';

/** How a request body stream fails when its connection closes mid-way (Node's `aborted`, a pipe's premature close). */
const ABORT_CODES = new Set(['ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE']);

const codeOf = (err: unknown): string | undefined =>
  typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string'
    ? err.code
    : undefined;

/**
 * Whether `err` is the client closing the connection before its request body ended (a cancelled upload, a closed
 * tab): the client's doing, logged at info without a stack, never as a failure of the server. Both must hold, so a
 * failure of ours that merely coincides with a hang-up is still an error.
 */
export function clientWentAway(request: FastifyRequest, err: unknown): boolean {
  const code = codeOf(err);
  return request.raw.readableAborted && code !== undefined && ABORT_CODES.has(code);
}

/** What an info line about it carries: the failure's code and message, not its stack. */
export function abortDetails(err: unknown): { code?: string; reason: string } {
  const code = codeOf(err);
  const reason = (err instanceof Error ? err.message : String(err)).slice(0, 200);
  return { ...(code === undefined ? {} : { code }), reason };
}

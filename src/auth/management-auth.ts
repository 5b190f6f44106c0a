import type { FastifyReply, FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../errors/errors.js';
import type { TokenRow } from '../store/tokens-repo.js';
import type { TokenCache } from './token-cache.js';
import './session-auth.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The management token that authenticated this request (management routes only). */
    managementToken: TokenRow | null;
  }
}

/**
 * Authenticates the management API under /v1/spaces/<spaceId>/… (spec 4.5; its auth is "not shown"): a
 * `folio_mgt_` token of that space in `Authorization: Bearer`, never in a URL. Register with
 * `app.decorateRequest('managementToken', null)` and `addHook('preHandler', managementAuth(tokens))` in the
 * management plugin's scope.
 */
export function managementAuth(tokens: TokenCache) {
  return async (request: FastifyRequest): Promise<void> => {
    const spaceId = (request.params as { spaceId?: string }).spaceId;
    const header = request.headers.authorization;
    const m = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    // Without a header, the inbox's browser session (src/inbox/) may present a token: its own, with its scopes.
    const sessions = header === undefined ? request.server.managementSessions : undefined;
    const token = m?.[1] ? await tokens.find(m[1]) : sessions ? await sessions.authenticate(request) : null;
    if (!m?.[1] && !token)
      throw unauthorized('A management token is required: Authorization: Bearer <token>.');
    if (!token || token.spaceId !== spaceId) throw unauthorized('The token is not valid for this space.');
    if (token.kind !== 'management') {
      throw forbidden('This operation needs a management token.');
    }
    request.managementToken = token;
  };
}

export type { FastifyReply };

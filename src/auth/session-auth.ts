import type { FastifyRequest } from 'fastify';
import type { TokenRow } from '../store/tokens-repo.js';

/**
 * Another way to present a management token's authority: a browser session of the inbox (src/inbox/). The
 * management auth asks it when a request carries no `Authorization` header; it answers the session's token (the
 * scopes checked are the token's own), null when the request has no live session, and throws `forbidden` for a
 * cross-site request or an unsafe one without the session's CSRF token.
 */
export interface ManagementSessions {
  authenticate(request: FastifyRequest): Promise<TokenRow | null>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Decorated on the root by the inbox plugin (src/inbox/plugin.ts); absent in apps without it. */
    managementSessions?: ManagementSessions;
  }
}

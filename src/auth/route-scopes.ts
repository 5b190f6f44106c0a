import type { FastifyRequest } from 'fastify';
import { requireScopes, type Scope } from './scopes.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Management routes: the scopes a token needs (all of them), checked by `routeScopes` after auth. Routes of
     * the management plugin that leave it out need the plugin's default (`content.write`).
     */
    scopes?: readonly Scope[];
  }
}

/**
 * One onRequest hook for a subtree of management routes (after `managementAuth`): each route's
 * `config.scopes`, or `fallback` for routes that name none, so a new route is never left unchecked.
 */
export function routeScopes(fallback: readonly Scope[]) {
  return async (request: FastifyRequest): Promise<void> => {
    requireScopes(request, ...(request.routeOptions.config.scopes ?? fallback));
  };
}

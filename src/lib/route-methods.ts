// A leaf: which methods the app's router serves at a URL (405 answers, CORS preflights).

import type { FastifyInstance } from 'fastify';

/**
 * The methods some route serves at this URL (HEAD beside every GET), or none for a path no route serves. The CORS
 * preflight route `OPTIONS /v1/:spaceId/*` matches every path under /v1, so OPTIONS alone does not make a path known.
 */
export function methodsAt(app: FastifyInstance, url: string): string[] {
  // The router matches paths; a query string would be part of a wildcard's value, or make a path miss.
  const path = url.split('?', 1)[0] ?? '';
  const allowed = app.supportedMethods.filter((method) => app.findRoute({ method, url: path }) !== null);
  return allowed.some((m) => m !== 'OPTIONS') ? allowed : [];
}

import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppServices } from '../../server/app.js';
import { deriveKey } from '../../store/secrets-repo.js';
import { deliveryDepsOf, openScope, type Scope } from '../delivery-service.js';
import { rejectUnknown } from '../params.js';
import { LIST_PARAMS, rejectNul } from './list-params.js';
import { type ListDeps, listEntries, queryWithCursorCv } from './list-service.js';
import { LIST_DOC_PARAMS, optionList } from './option-lists.js';
import { SITEMAP_PARAMS, sitemapStream } from './sitemap-service.js';
import { entryTree, TREE_PARAMS } from './tree-service.js';

type Params = { spaceId: string };
type Query = Record<string, unknown>;

/** spec 1.2, 4.1: pinned (and cursor) responses are immutable; previews are never cached. */
function cacheHeaders(reply: FastifyReply, scope: Scope): void {
  if (scope.view.mode !== 'published') reply.header('cache-control', 'private, no-store');
  else if (scope.pinned) reply.header('cache-control', 'public, max-age=31536000, immutable');
  else reply.header('cache-control', 'public, max-age=10, stale-while-revalidate=60');
  reply.header('x-folio-cv', String(scope.view.cv));
}

/** GET /entries, /tree, /sitemap and /lists/<key> under /v1/<spaceId> (spec 4.2, 4.3). */
export async function listRoutes(app: FastifyInstance, opts: { services: AppServices }): Promise<void> {
  const { services } = opts;
  const deps: ListDeps = { ...deliveryDepsOf(services), cursorKey: deriveKey(services.masterKey, 'cursor') };
  const read = { config: { delivery: 'read' as const } };
  const scopeOf = (spaceId: string, query: Query) => {
    rejectNul(query);
    return openScope(deps, { spaceId, query });
  };

  app.get<{ Params: Params; Querystring: Query }>('/v1/:spaceId/entries', read, async (request, reply) => {
    const filters = Object.keys(request.query).filter((k) => k.startsWith('filter'));
    rejectUnknown(request.query, [...LIST_PARAMS, ...filters]);
    rejectNul(request.query);
    const query = queryWithCursorCv(deps, request.query);
    const scope = await scopeOf(request.params.spaceId, query);
    const body = await listEntries(deps, scope, query);
    cacheHeaders(reply, scope);
    return body;
  });

  app.get<{ Params: Params; Querystring: Query }>('/v1/:spaceId/tree', read, async (request, reply) => {
    rejectUnknown(request.query, TREE_PARAMS);
    const scope = await scopeOf(request.params.spaceId, request.query);
    const body = await entryTree(deps, scope, request.query);
    cacheHeaders(reply, scope);
    return body;
  });

  app.get<{ Params: Params; Querystring: Query }>('/v1/:spaceId/sitemap', read, async (request, reply) => {
    rejectUnknown(request.query, SITEMAP_PARAMS);
    const scope = await scopeOf(request.params.spaceId, request.query);
    const stream = await sitemapStream(deps, scope, request.query);
    cacheHeaders(reply, scope);
    return reply.type('application/json; charset=utf-8').send(stream);
  });

  app.get<{ Params: Params & { key: string }; Querystring: Query }>(
    '/v1/:spaceId/lists/:key',
    read,
    async (request, reply) => {
      rejectUnknown(request.query, LIST_DOC_PARAMS);
      const scope = await scopeOf(request.params.spaceId, request.query);
      const body = await optionList(deps, scope, request.params.key);
      cacheHeaders(reply, scope);
      return body;
    },
  );
}

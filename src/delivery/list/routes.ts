import type { FastifyInstance } from 'fastify';
import { cacheHeaders, cdnTag, entryTags } from '../cache-headers.js';
import type { AppServices } from '../../app/services.js';
import { deriveKey } from '../../store/secrets-repo.js';
import { deliveryDepsOf, openScope } from '../delivery-service.js';
import { rejectUnknown, single } from '../params.js';
import { LIST_PARAMS, rejectNul } from './list-params.js';
import { type ListDeps, listEntries, queryWithCursorCv } from './list-service.js';
import { LIST_DOC_PARAMS, optionList } from './option-lists.js';
import { SITEMAP_PARAMS, sitemapStream } from './sitemap-service.js';
import { entryTree, TREE_PARAMS } from './tree-service.js';

type Params = { spaceId: string };
type Query = Record<string, unknown>;

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
    const space = scope.space.id;
    // A new entry of the listed type belongs in the list; without a type, any entry.
    const type = single(request.query, 'type');
    cacheHeaders(reply, scope, space, [
      type === undefined ? cdnTag.of(space, 'entries') : cdnTag.of(space, 'type', type),
      ...entryTags(space, body.items, body.included),
    ]);
    return body;
  });

  app.get<{ Params: Params; Querystring: Query }>('/v1/:spaceId/tree', read, async (request, reply) => {
    rejectUnknown(request.query, TREE_PARAMS);
    const scope = await scopeOf(request.params.spaceId, request.query);
    const body = await entryTree(deps, scope, request.query);
    cacheHeaders(reply, scope, scope.space.id, [cdnTag.of(scope.space.id, 'entries')]);
    return body;
  });

  app.get<{ Params: Params; Querystring: Query }>('/v1/:spaceId/sitemap', read, async (request, reply) => {
    rejectUnknown(request.query, SITEMAP_PARAMS);
    const scope = await scopeOf(request.params.spaceId, request.query);
    const stream = await sitemapStream(deps, scope, request.query);
    cacheHeaders(reply, scope, scope.space.id, [cdnTag.of(scope.space.id, 'entries')]);
    return reply.type('application/json; charset=utf-8').send(stream);
  });

  app.get<{ Params: Params & { key: string }; Querystring: Query }>(
    '/v1/:spaceId/lists/:key',
    read,
    async (request, reply) => {
      rejectUnknown(request.query, LIST_DOC_PARAMS);
      const scope = await scopeOf(request.params.spaceId, request.query);
      const body = await optionList(deps, scope, request.params.key);
      cacheHeaders(reply, scope, scope.space.id, [cdnTag.of(scope.space.id, 'list', request.params.key)]);
      return body;
    },
  );
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { cacheHeaders, cdnTag, entryTags } from './cache-headers.js';
import { preflight } from '../auth/delivery-auth.js';
import type { AppServices } from '../app/services.js';
import {
  deliveryDepsOf,
  entryById,
  entryByPath,
  globalByKey,
  globalsByKeys,
  loadSpace,
  openScope,
  spaceStatus,
} from './delivery-service.js';
import { COMMON_PARAMS, rejectUnknown, single } from './params.js';
import { searchStatus } from '../search/status.js';

type Params = { spaceId: string };
type Query = Record<string, unknown>;

/** The public delivery API under /v1/<spaceId> (spec 4.2). Handlers parse, call the service, set headers. */
export async function deliveryRoutes(app: FastifyInstance, opts: { services: AppServices }): Promise<void> {
  const { services } = opts;
  const deps = deliveryDepsOf(services);
  app.options('/v1/:spaceId/*', (request, reply) => preflight(request, reply));

  // Public reads: the delivery pipeline (auth, limits, cache) runs for routes marked `delivery: 'read'`.
  await app.register(async (scoped) => {
    scoped.addHook('onRoute', (route) => {
      route.config = { ...route.config, delivery: 'read' };
    });

    // Not kept in the response cache: the search index's progress changes within one cv (issue 13).
    const live = { config: { cache: false } };
    scoped.get<{ Params: Params; Querystring: Query }>(
      '/v1/:spaceId/status',
      live,
      async (request, reply) => {
        rejectUnknown(request.query, []);
        const space = await loadSpace(deps, request.params.spaceId);
        reply.header('cache-control', 'no-cache');
        const search = await searchStatus(deps.store, space, services.embedder.model);
        return { ...spaceStatus(space), ...(search ? { search } : {}) };
      },
    );

    // The home page is /entries/by-path/ (the router drops the trailing slash, so the bare route serves it).
    const byPath = async (
      request: FastifyRequest<{ Params: Params & { '*'?: string }; Querystring: Query }>,
      reply: FastifyReply,
    ) => {
      rejectUnknown(request.query, COMMON_PARAMS);
      const scope = await openScope(deps, { spaceId: request.params.spaceId, query: request.query });
      const body = await entryByPath(deps, scope, `/${request.params['*'] ?? ''}`);
      cacheHeaders(reply, scope, scope.space.id, entryTags(scope.space.id, [body.entry], body.included));
      return body;
    };
    scoped.get('/v1/:spaceId/entries/by-path/*', byPath);
    scoped.get('/v1/:spaceId/entries/by-path', byPath);

    scoped.get<{ Params: Params & { id: string }; Querystring: Query }>(
      '/v1/:spaceId/entries/:id',
      async (request, reply) => {
        rejectUnknown(request.query, COMMON_PARAMS);
        const scope = await openScope(deps, { spaceId: request.params.spaceId, query: request.query });
        const body = await entryById(deps, scope, request.params.id);
        cacheHeaders(reply, scope, scope.space.id, entryTags(scope.space.id, [body.entry], body.included));
        return body;
      },
    );

    scoped.get<{ Params: Params & { key: string }; Querystring: Query }>(
      '/v1/:spaceId/globals/:key',
      async (request, reply) => {
        rejectUnknown(request.query, COMMON_PARAMS);
        const scope = await openScope(deps, { spaceId: request.params.spaceId, query: request.query });
        const body = await globalByKey(deps, scope, request.params.key);
        cacheHeaders(reply, scope, scope.space.id, [
          cdnTag.of(scope.space.id, 'global', request.params.key),
          ...entryTags(scope.space.id, [body.entry], body.included),
        ]);
        return body;
      },
    );

    scoped.get<{ Params: Params; Querystring: Query }>('/v1/:spaceId/globals', async (request, reply) => {
      rejectUnknown(request.query, [...COMMON_PARAMS, 'keys']);
      const scope = await openScope(deps, { spaceId: request.params.spaceId, query: request.query });
      const body = await globalsByKeys(deps, scope, single(request.query, 'keys'));
      const space = scope.space.id;
      cacheHeaders(reply, scope, space, [
        // Without `keys`, every global: a new one belongs in the answer.
        ...(single(request.query, 'keys') === undefined ? [cdnTag.of(space, 'globals')] : []),
        ...Object.keys(body.globals).map((key) => cdnTag.of(space, 'global', key)),
        ...entryTags(space, Object.values(body.globals), body.included),
      ]);
      return body;
    });
  });
}

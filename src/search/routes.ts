import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../app/services.js';
import { cacheHeaders, cdnTag, entryTags } from '../delivery/cache-headers.js';
import { deliveryDepsOf, openScope } from '../delivery/delivery-service.js';
import { rejectUnknown } from '../delivery/params.js';
import { SEARCH_PARAMS, type SearchDeps, searchEntries } from './search-service.js';

type Params = { spaceId: string };
type Query = Record<string, unknown>;

/** GET /v1/<spaceId>/search (spec 4.2, issue 13). */
export async function searchRoutes(app: FastifyInstance, opts: { services: AppServices }): Promise<void> {
  const deps: SearchDeps = { ...deliveryDepsOf(opts.services), embedder: opts.services.embedder };
  app.get<{ Params: Params; Querystring: Query }>(
    '/v1/:spaceId/search',
    { config: { delivery: 'read' } },
    async (request, reply) => {
      rejectUnknown(request.query, SEARCH_PARAMS);
      const scope = await openScope(deps, { spaceId: request.params.spaceId, query: request.query });
      const { body, complete } = await searchEntries(deps, scope, request.query);
      const space = scope.space.id;
      const entries = body.items.map((i) => i.entry);
      // Any publish may change what a search finds: the `entries` tag, like the tree and the sitemap.
      cacheHeaders(reply, scope, space, [
        cdnTag.of(space, 'entries'),
        ...entryTags(space, entries, body.included),
      ]);
      reply.header('x-folio-search-index', complete ? 'complete' : 'indexing');
      // Still indexing this cv: the answer will improve, so neither we nor a CDN may keep it.
      if (!complete) reply.header('cache-control', 'no-store');
      return body;
    },
  );
}

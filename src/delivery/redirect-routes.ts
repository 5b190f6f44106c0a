import type { FastifyInstance } from 'fastify';
import { deliveryDepsOf, openScope } from './delivery-service.js';
import { rejectUnknown } from './params.js';
import { cacheHeaders, cdnTag } from './cache-headers.js';
import type { AppServices } from '../app/services.js';
import { redirectsFor } from '../redirects/resolve-redirects.js';
import { deliveryJson, LOCALE_CV_QUERY, NOT_MODIFIED, SPACE_PARAMS } from './schemas.js';
import { deliveryRead, queryParams } from '../lib/api-schema.js';
import { deliveredRedirects } from '../redirects/schemas.js';

const redirectsSchema = deliveryRead({
  summary: 'Every redirect of a locale, targets resolved',
  description:
    "Shared redirects and the locale's own (its own wins for a path), ordered by path; redirects to unpublished pages and from paths a published page occupies are left out.",
  params: SPACE_PARAMS,
  querystring: queryParams(LOCALE_CV_QUERY),
  response: {
    200: deliveryJson('The redirects.', deliveredRedirects),
    304: NOT_MODIFIED,
  },
});

type Params = { spaceId: string };
type Query = Record<string, unknown>;

/**
 * `GET /redirects?locale=` (spec 4.2): every redirect for the locale, shared ones and its own, targets
 * resolved, as `{ redirects, cv }`. Redirects are published content: `cv` pins them like everything else.
 */
export async function redirectRoutes(app: FastifyInstance, opts: { services: AppServices }): Promise<void> {
  const deps = deliveryDepsOf(opts.services);
  app.get<{ Params: Params; Querystring: Query }>(
    '/v1/:spaceId/redirects',
    { config: { delivery: 'read' }, schema: redirectsSchema },
    async (request, reply) => {
      rejectUnknown(request.query, ['locale', 'cv']);
      const scope = await openScope(deps, { spaceId: request.params.spaceId, query: request.query });
      const cv = scope.view.cv;
      const redirects = await redirectsFor(deps.store, scope.space.id, scope.params.locale, cv);
      cacheHeaders(reply, scope, scope.space.id, { tags: [cdnTag.of(scope.space.id, 'redirects')] });
      return { redirects, cv };
    },
  );
}

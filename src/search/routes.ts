import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../app/services.js';
import { cacheHeaders, cdnTag, entryTags, shownForms, withTags } from '../delivery/cache-headers.js';
import { deliveryDepsOf, openScope } from '../delivery/delivery-service.js';
import { rejectUnknown } from '../delivery/params.js';
import { QueryQueue } from './query-queue.js';
import { SEARCH_PARAMS, type SearchDeps, searchEntries } from './search-service.js';
import {
  COMMON_QUERY,
  DELIVERY_HEADERS,
  deliveredEntry,
  included,
  NOT_MODIFIED,
  SPACE_PARAMS,
} from '../delivery/schemas.js';
import { deliveryRead, json, KEY_PATTERN, object, Q, queryParams, S } from '../lib/api-schema.js';

type Params = { spaceId: string };
type Query = Record<string, unknown>;

/** For the OpenAPI document (docs/api.md "GET /search"); the route checks its parameters itself. */
const searchSchema = deliveryRead({
  summary: 'Published entries ranked by meaning',
  description:
    "Spaces with AI switched on (else 404 `not_found`). The query's vector against every published entry's, fused with the full-text rank of `/entries?search=`. `draft` and `release` are 400 (a public token gets 403 first); an embedding provider failing or too slow, or too many queries waiting for it (`SEARCH_QUEUE_MAX`), is 503 `unavailable` (then with `Retry-After`).",
  tags: ['delivery', 'search'],
  params: SPACE_PARAMS,
  querystring: queryParams({
    q: { ...Q.pattern('\\S', 'The text, 1 to 500 characters after trimming (required).'), minLength: 1 },
    locale: 'Searches the text the locale delivers; default: the default locale.',
    type: Q.pattern(KEY_PATTERN, 'Only entries of this page or collection type (another: 400).'),
    limit: Q.int(1, 20, '1 to 20 (default 10).'),
    cv: COMMON_QUERY.cv,
    include: COMMON_QUERY.include,
    fields: COMMON_QUERY.fields,
  }),
  response: {
    200: json('The best matches, best first.', {
      ...object({
        items: S.arrayOf(
          object({
            entry: S.describe(deliveredEntry, 'Shaped as an `/entries` item.'),
            score: S.describe(S.number, 'The fused score, higher is better (within one answer).'),
            highlight: S.describe(S.string, "Up to 200 characters of the entry's text around the match."),
          }),
        ),
        included,
        cv: S.cv,
      }),
      headers: {
        ...DELIVERY_HEADERS,
        'x-folio-search-index': {
          type: 'string',
          description:
            '`complete`, or `indexing` (then `Cache-Control: no-store`) while the index is behind the cv.',
        },
      },
    }),
    304: NOT_MODIFIED,
  },
});

/** GET /v1/<spaceId>/search (spec 4.2). */
export async function searchRoutes(app: FastifyInstance, opts: { services: AppServices }): Promise<void> {
  const deps: SearchDeps = {
    ...deliveryDepsOf(opts.services),
    embedder: opts.services.embedder,
    indexMaxBytes: opts.services.config.searchIndexMaxMb * 1024 * 1024,
    queue: new QueryQueue(opts.services.config.searchQueueMax),
  };
  app.get<{ Params: Params; Querystring: Query }>(
    '/v1/:spaceId/search',
    { config: { delivery: 'read' }, schema: searchSchema },
    async (request, reply) => {
      rejectUnknown(request.query, SEARCH_PARAMS);
      const scope = await openScope(deps, { spaceId: request.params.spaceId, query: request.query });
      const { body, complete } = await searchEntries(deps, scope, request.query);
      const space = scope.space.id;
      const entries = body.items.map((i) => i.entry);
      // Any publish may change what a search finds: the `entries` tag, like the tree and the sitemap.
      cacheHeaders(reply, scope, space, {
        tags: withTags(entryTags(space, entries, body.included), cdnTag.of(space, 'entries')),
        forms: shownForms(body.included),
      });
      reply.header('x-folio-search-index', complete ? 'complete' : 'indexing');
      // Still indexing this cv: the answer will improve, so neither we nor a CDN may keep it.
      if (!complete) reply.header('cache-control', 'no-store');
      return body;
    },
  );
}

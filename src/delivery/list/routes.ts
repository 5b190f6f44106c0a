import type { FastifyInstance } from 'fastify';
import { cacheHeaders, cdnTag, entryTags, shownForms, withTags } from '../cache-headers.js';
import type { AppServices } from '../../app/services.js';
import { deriveKey } from '../../store/secrets-repo.js';
import { deliveryDepsOf, openScope } from '../delivery-service.js';
import { rejectUnknown, single } from '../params.js';
import { LIST_PARAMS, rejectNul } from './list-params.js';
import { type ListDeps, listBodyBytes, listEntries, queryWithCursorCv } from './list-service.js';
import { RenderedEntries } from '../rendered-entries.js';
import { RowsIndex } from './rows/rows-index.js';
import { LIST_DOC_PARAMS, optionList } from './option-lists.js';
import { SITEMAP_PARAMS, sitemapStream } from './sitemap-service.js';
import { entryTree, TREE_PARAMS } from './tree-service.js';
import {
  COMMON_QUERY,
  DELIVERY_HEADERS,
  deliveryJson,
  entriesListBody,
  NOT_MODIFIED,
  optionListBody,
  SPACE_PARAMS,
  sitemapBody,
  treeBody,
  VIEW_QUERY,
} from '../schemas.js';
import {
  deliveryRead,
  KEY_PATTERN,
  media,
  pathParams,
  Q,
  queryParams,
  SPACE_ID,
} from '../../lib/api-schema.js';

type Params = { spaceId: string };
type Query = Record<string, unknown>;

/** GET /entries, /tree, /sitemap and /lists/<key> under /v1/<spaceId> (spec 4.2, 4.3). */
export async function listRoutes(app: FastifyInstance, opts: { services: AppServices }): Promise<void> {
  const { services } = opts;
  const renderBytes = services.config.renderCacheMb * 1024 * 1024;
  const deps: ListDeps = {
    ...deliveryDepsOf(services),
    cursorKey: deriveKey(services.masterKey, 'cursor'),
    rendered: renderBytes > 0 ? new RenderedEntries(renderBytes) : null,
    rowsIndex:
      services.config.listIndexMb > 0
        ? new RowsIndex(services.store, services.config.listIndexMb * 1024 * 1024)
        : null,
  };
  const { rowsIndex } = deps;
  if (rowsIndex !== null) app.folioEdge.metrics.listIndex(() => rowsIndex.stats());
  app.addHook('onClose', async () => rowsIndex?.close());
  const config = { delivery: 'read' as const };
  const scopeOf = (spaceId: string, query: Query) => {
    rejectNul(query);
    return openScope(deps, { spaceId, query });
  };

  const entries = deliveryRead({
    summary: 'List entries: filters, search, sort, cursor',
    description:
      'Pages and collection items (never globals or folders), rendered like `entry` of by-path. Filters are `filter[<member>][<op>]=value` (`filter[<member>]=v` is `eq`), at most 20: members `fields.<key>`, `id`, `name`, `parentId`, `position`, `publishedAt`, `firstPublishedAt`, `tags`; ops `eq`, `ne`, `in`, `nin`, `contains`, `gt`, `gte`, `lt`, `lte`, `exists` (docs/api.md "GET /entries"). A bad parameter is 400 `invalid_query` naming it as sent.',
    params: SPACE_PARAMS,
    querystring: queryParams({
      ...COMMON_QUERY,
      type: Q.pattern(KEY_PATTERN, 'One page or collection type key (another: 400).'),
      under:
        'A folder path in the locale (`/blog`): entries below it at every depth, its start page included.',
      tags: 'Comma-separated tags (at most 20), all on the entry.',
      search: 'Full text (its first 200 characters): every word must occur; ranked without `sort`.',
      sort: 'Up to 5 comma-separated keys of `publishedAt`, `firstPublishedAt`, `name`, `path`, `position`, `fields.<key>`; `-` descends. Default `-publishedAt`.',
      limit: Q.int(1, 100, 'Page size, 1 to 100 (default 25).'),
      cursor: '`nextCursor` of the previous page, unchanged, with the same other parameters.',
    }),
    response: { 200: deliveryJson('A page of entries.', entriesListBody), 304: NOT_MODIFIED },
  });
  app.get<{ Params: Params; Querystring: Query }>(
    '/v1/:spaceId/entries',
    { config, schema: entries },
    async (request, reply) => {
      const filters = Object.keys(request.query).filter((k) => k.startsWith('filter'));
      rejectUnknown(request.query, [...LIST_PARAMS, ...filters]);
      rejectNul(request.query);
      const query = queryWithCursorCv(deps, request.query);
      const scope = await scopeOf(request.params.spaceId, query);
      const body = await listEntries(deps, scope, query);
      const space = scope.space.id;
      // A new entry of the listed type belongs in the list; without a type, any entry.
      const type = single(request.query, 'type');
      cacheHeaders(reply, scope, space, {
        tags: withTags(
          entryTags(space, body.items, body.included),
          type === undefined ? cdnTag.of(space, 'entries') : cdnTag.of(space, 'type', type),
        ),
        forms: shownForms(body.included),
      });
      return reply.type('application/json; charset=utf-8').send(listBodyBytes(body));
    },
  );

  const tree = deliveryRead({
    summary: 'The navigation tree',
    description:
      'Pages, page-collection items and folders by position (never globals or non-page items), at most 10,000 nodes (else 400 naming `depth`).',
    params: SPACE_PARAMS,
    querystring: queryParams({
      ...VIEW_QUERY,
      under: 'A folder path: the tree below it (400 when not a folder).',
      depth: Q.int(1, 10, 'Levels, 1 to 10 (default 3).'),
    }),
    response: { 200: deliveryJson('The tree.', treeBody), 304: NOT_MODIFIED },
  });
  app.get<{ Params: Params; Querystring: Query }>(
    '/v1/:spaceId/tree',
    { config, schema: tree },
    async (request, reply) => {
      rejectUnknown(request.query, TREE_PARAMS);
      const scope = await scopeOf(request.params.spaceId, request.query);
      const body = await entryTree(deps, scope, request.query);
      // The default tree of a locale is named by `/sync` (and a publish's keys) when it changes; another
      // `under` or `depth` goes with any page.
      const whole =
        single(request.query, 'under') === undefined && single(request.query, 'depth') === undefined;
      const space = scope.space.id;
      cacheHeaders(reply, scope, space, {
        tags: [whole ? cdnTag.of(space, 'tree', scope.params.locale) : cdnTag.of(space, 'entries')],
      });
      return body;
    },
  );

  const sitemap = deliveryRead({
    summary: 'The sitemap: indexable pages with their alternates',
    description:
      'Every published page and page-collection item with a path in the locale, except `noindex` ones, in path order. Streamed in batches of 500 rows (not kept in the response cache).',
    params: SPACE_PARAMS,
    querystring: queryParams({ ...VIEW_QUERY, types: 'Comma-separated page types (others are 400).' }),
    response: {
      200: {
        ...media('The sitemap, streamed as one JSON document.', { 'application/json': sitemapBody }),
        headers: DELIVERY_HEADERS,
      },
    },
  });
  app.get<{ Params: Params; Querystring: Query }>(
    '/v1/:spaceId/sitemap',
    { config, schema: sitemap },
    async (request, reply) => {
      rejectUnknown(request.query, SITEMAP_PARAMS);
      const scope = await scopeOf(request.params.spaceId, request.query);
      const stream = await sitemapStream(deps, scope, request.query);
      // As the tree: the whole sitemap of a locale by its own tag, one of some `types` with any page.
      const whole = single(request.query, 'types') === undefined;
      const space = scope.space.id;
      cacheHeaders(reply, scope, space, {
        tags: [whole ? cdnTag.of(space, 'sitemap', scope.params.locale) : cdnTag.of(space, 'entries')],
      });
      return reply.type('application/json; charset=utf-8').send(stream);
    },
  );

  const optionListDoc = deliveryRead({
    summary: 'An option list with its labels in the locale',
    description:
      'Labels fall back along the locale chain; an option with no label is labelled with its value.',
    params: pathParams({ spaceId: SPACE_ID, key: "The option list's key." }),
    querystring: queryParams(VIEW_QUERY),
    response: { 200: deliveryJson('The option list.', optionListBody), 304: NOT_MODIFIED },
  });
  app.get<{ Params: Params & { key: string }; Querystring: Query }>(
    '/v1/:spaceId/lists/:key',
    { config, schema: optionListDoc },
    async (request, reply) => {
      rejectUnknown(request.query, LIST_DOC_PARAMS);
      const scope = await scopeOf(request.params.spaceId, request.query);
      const body = await optionList(deps, scope, request.params.key);
      cacheHeaders(reply, scope, scope.space.id, {
        tags: [cdnTag.of(scope.space.id, 'list', request.params.key)],
      });
      return body;
    },
  );
}

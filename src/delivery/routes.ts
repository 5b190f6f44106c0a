import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { cacheHeaders, cdnTag, entryTags, shownForms, withTags } from './cache-headers.js';
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
import { contentModel, contentModelBody } from './content-model.js';
import { COMMON_PARAMS, rejectUnknown, single } from './params.js';
import {
  COMMON_QUERY,
  commonQuery,
  deliveryJson,
  entryBody,
  globalsBody,
  NOT_FOUND_WITH_REDIRECT,
  NOT_MODIFIED,
  SPACE_PARAMS,
  statusBody,
} from './schemas.js';
import { searchStatus } from './search-status.js';
import { deliveryRead, KEY_LIST_PATTERN, pathParams, Q, queryParams, SPACE_ID } from '../lib/api-schema.js';

type Params = { spaceId: string };
type Query = Record<string, unknown>;

/** The public delivery API under /v1/<spaceId> (spec 4.2). Handlers parse, call the service, set headers. */
export async function deliveryRoutes(app: FastifyInstance, opts: { services: AppServices }): Promise<void> {
  const { services } = opts;
  const deps = deliveryDepsOf(services);
  // CORS preflights (docs/api.md "Authentication"): not an operation of the API, left out of the document.
  app.options('/v1/:spaceId/*', { schema: { hide: true } }, (request, reply) => preflight(request, reply));

  // Public reads: the delivery pipeline (auth, limits, cache) runs for routes marked `delivery: 'read'`.
  await app.register(async (scoped) => {
    scoped.addHook('onRoute', (route) => {
      route.config = { ...route.config, delivery: 'read' };
    });

    // Not kept in the response cache: the search index's progress changes within one cv.
    const live = { config: { cache: false } };
    const status = deliveryRead({
      summary: 'The space: its cv, locales and search index',
      description:
        "No parameters. Never kept in the response cache (`Cache-Control: no-cache`): the index's progress changes within one cv.",
      params: SPACE_PARAMS,
      response: { 200: deliveryJson("The space's status.", statusBody) },
    });
    scoped.get<{ Params: Params; Querystring: Query }>(
      '/v1/:spaceId/status',
      { ...live, schema: status },
      async (request, reply) => {
        rejectUnknown(request.query, []);
        const space = await loadSpace(deps, request.params.spaceId);
        reply.header('cache-control', 'no-cache');
        const search = await searchStatus(deps.store, space, services.embedder.model);
        return { ...spaceStatus(space), ...(search ? { search } : {}) };
      },
    );

    // The content model: what `folio-types` generates TypeScript from. Types are part of the log, so
    // the answer is per cv like every read; types change only when the model is imported again.
    scoped.get<{ Params: Params; Querystring: Query }>(
      '/v1/:spaceId/types',
      {
        schema: deliveryRead({
          summary: 'The content model: content, global, folder and block types with their fields',
          description:
            'Types as the view sees them (a pinned cv, a draft or a release with a preview token), sorted by key. Option labels are given in every locale.',
          params: SPACE_PARAMS,
          querystring: queryParams({
            cv: COMMON_QUERY.cv,
            draft: COMMON_QUERY.draft,
            release: COMMON_QUERY.release,
          }),
          response: { 200: deliveryJson('The content model.', contentModelBody), 304: NOT_MODIFIED },
        }),
      },
      async (request, reply) => {
        rejectUnknown(request.query, ['cv', 'draft', 'release']);
        const scope = await openScope(deps, { spaceId: request.params.spaceId, query: request.query });
        cacheHeaders(reply, scope, scope.space.id, { tags: [cdnTag.of(scope.space.id, 'types')] });
        return contentModel(scope);
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
      cacheHeaders(reply, scope, scope.space.id, {
        tags: entryTags(scope.space.id, [body.entry], body.included),
        forms: shownForms(body.included),
      });
      return body;
    };
    const byPathDoc = (summary: string, params: object) =>
      deliveryRead({
        summary,
        description:
          'Paths carry no locale prefix (`?locale=`); matching ignores letter case and a trailing slash. Globals, folders and non-page collections are never found by path.',
        params,
        querystring: commonQuery,
        response: {
          200: deliveryJson('The page with what it includes.', entryBody),
          304: NOT_MODIFIED,
          404: NOT_FOUND_WITH_REDIRECT,
        },
      });
    scoped.get(
      '/v1/:spaceId/entries/by-path/*',
      {
        schema: byPathDoc(
          'A page by its path',
          pathParams({
            spaceId: SPACE_ID,
            '*': "The page's path in the locale without its leading slash (`blog/hello-world`); it may hold slashes.",
          }),
        ),
      },
      byPath,
    );
    scoped.get('/v1/:spaceId/entries/by-path', { schema: byPathDoc('The home page', SPACE_PARAMS) }, byPath);

    scoped.get<{ Params: Params & { id: string }; Querystring: Query }>(
      '/v1/:spaceId/entries/:id',
      {
        schema: deliveryRead({
          summary: 'An entry by id',
          params: pathParams({ spaceId: SPACE_ID, id: 'The entry id (`ent_…`).' }),
          querystring: commonQuery,
          response: { 200: deliveryJson('The entry with what it includes.', entryBody), 304: NOT_MODIFIED },
        }),
      },
      async (request, reply) => {
        rejectUnknown(request.query, COMMON_PARAMS);
        const scope = await openScope(deps, { spaceId: request.params.spaceId, query: request.query });
        const body = await entryById(deps, scope, request.params.id);
        cacheHeaders(reply, scope, scope.space.id, {
          tags: entryTags(scope.space.id, [body.entry], body.included),
          forms: shownForms(body.included),
        });
        return body;
      },
    );

    scoped.get<{ Params: Params & { key: string }; Querystring: Query }>(
      '/v1/:spaceId/globals/:key',
      {
        schema: deliveryRead({
          summary: 'A global by key',
          description: 'The published entry of a global type (its `path` is `@<key>`).',
          params: pathParams({ spaceId: SPACE_ID, key: "The global type's key." }),
          querystring: commonQuery,
          response: { 200: deliveryJson('The global with what it includes.', entryBody), 304: NOT_MODIFIED },
        }),
      },
      async (request, reply) => {
        rejectUnknown(request.query, COMMON_PARAMS);
        const scope = await openScope(deps, { spaceId: request.params.spaceId, query: request.query });
        const body = await globalByKey(deps, scope, request.params.key);
        cacheHeaders(reply, scope, scope.space.id, {
          tags: withTags(
            entryTags(scope.space.id, [body.entry], body.included),
            cdnTag.of(scope.space.id, 'global', request.params.key),
          ),
          forms: shownForms(body.included),
        });
        return body;
      },
    );

    const globals = deliveryRead({
      summary: 'Several globals',
      params: SPACE_PARAMS,
      querystring: queryParams({
        ...COMMON_QUERY,
        keys: Q.pattern(
          KEY_LIST_PATTERN,
          'Comma-separated global keys, at most 20, each with a published entry (else 404 naming it); without it every published global.',
        ),
      }),
      response: { 200: deliveryJson('The globals by key.', globalsBody), 304: NOT_MODIFIED },
    });
    scoped.get<{ Params: Params; Querystring: Query }>(
      '/v1/:spaceId/globals',
      { schema: globals },
      async (request, reply) => {
        rejectUnknown(request.query, [...COMMON_PARAMS, 'keys']);
        const scope = await openScope(deps, { spaceId: request.params.spaceId, query: request.query });
        const body = await globalsByKeys(deps, scope, single(request.query, 'keys'));
        const space = scope.space.id;
        cacheHeaders(reply, scope, space, {
          tags: withTags(
            entryTags(space, Object.values(body.globals), body.included),
            // Without `keys`, every global: a new one belongs in the answer.
            ...(single(request.query, 'keys') === undefined ? [cdnTag.of(space, 'globals')] : []),
            ...Object.keys(body.globals).map((key) => cdnTag.of(space, 'global', key)),
          ),
          forms: shownForms(body.included),
        });
        return body;
      },
    );
  });
}

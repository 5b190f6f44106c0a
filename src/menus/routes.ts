import type { FastifyInstance } from 'fastify';
import { deliveryDepsOf, openScope } from '../delivery/delivery-service.js';
import { rejectUnknown, single } from '../delivery/params.js';
import { cacheHeaders, cdnTag } from '../delivery/cache-headers.js';
import type { AppServices } from '../app/services.js';
import { menuByKey, menusByKeys } from './menus-service.js';
import type { DeliveredMenu, DeliveredMenuItem } from './render-menu.js';
import { deliveryJson, NOT_MODIFIED, SPACE_PARAMS, VIEW_QUERY } from '../delivery/schemas.js';
import { deliveryRead, KEY_LIST_PATTERN, pathParams, Q, queryParams, SPACE_ID } from '../lib/api-schema.js';
import { menuBody, menusBody } from './schemas.js';

type Params = { spaceId: string };
type Query = Record<string, unknown>;

/** Menus have no `include` or `fields`; drafts and releases preview them against draft pages. */
const MENU_PARAMS = ['locale', 'cv', 'draft', 'release'];

/** `GET /menus/<key>` and `GET /menus?keys=` (spec 2.5, 4.2): public reads through the delivery pipeline. */
/** A menu's tag and the entries it links to (their paths are in it). */
function menuTags(space: string, menus: readonly DeliveredMenu[]): string[] {
  const tags: string[] = [];
  const walk = (items: readonly DeliveredMenuItem[]) => {
    for (const item of items) {
      if (item.entryId !== null) tags.push(cdnTag.of(space, 'entry', item.entryId));
      walk(item.children);
    }
  };
  for (const menu of menus) {
    tags.push(cdnTag.of(space, 'menu', menu.key));
    walk(menu.items);
  }
  return tags;
}

export async function menuRoutes(app: FastifyInstance, opts: { services: AppServices }): Promise<void> {
  const deps = deliveryDepsOf(opts.services);
  const config = { delivery: 'read' as const };
  const items =
    'Items link to pages published in the view (others are left out with their children), URLs, addresses and files; `href` in the requested locale.';

  const one = deliveryRead({
    summary: 'A menu with its links in the locale',
    description: items,
    params: pathParams({ spaceId: SPACE_ID, key: "The menu's key." }),
    querystring: queryParams(VIEW_QUERY),
    response: { 200: deliveryJson('The menu.', menuBody), 304: NOT_MODIFIED },
  });
  app.get<{ Params: Params & { key: string }; Querystring: Query }>(
    '/v1/:spaceId/menus/:key',
    { config, schema: one },
    async (request, reply) => {
      rejectUnknown(request.query, MENU_PARAMS);
      const scope = await openScope(deps, { spaceId: request.params.spaceId, query: request.query });
      const body = await menuByKey(deps, scope, request.params.key);
      const menus = body.menu === undefined ? [] : [body.menu];
      cacheHeaders(reply, scope, scope.space.id, { tags: menuTags(scope.space.id, menus) });
      return body;
    },
  );

  const several = deliveryRead({
    summary: 'Several menus',
    description: items,
    params: SPACE_PARAMS,
    querystring: queryParams({
      ...VIEW_QUERY,
      keys: Q.pattern(
        KEY_LIST_PATTERN,
        'Comma-separated menu keys, at most 50, each must exist (else 404); all menus when omitted.',
      ),
    }),
    response: { 200: deliveryJson('The menus by key.', menusBody), 304: NOT_MODIFIED },
  });
  app.get<{ Params: Params; Querystring: Query }>(
    '/v1/:spaceId/menus',
    { config, schema: several },
    async (request, reply) => {
      rejectUnknown(request.query, [...MENU_PARAMS, 'keys']);
      const { keys: _keys, ...common } = request.query;
      const scope = await openScope(deps, { spaceId: request.params.spaceId, query: common });
      const body = await menusByKeys(deps, scope, single(request.query, 'keys'));
      const all = single(request.query, 'keys') === undefined ? [cdnTag.of(scope.space.id, 'menus')] : [];
      cacheHeaders(reply, scope, scope.space.id, {
        tags: [...all, ...menuTags(scope.space.id, Object.values(body.menus))],
      });
      return body;
    },
  );
}

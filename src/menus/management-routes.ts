import type { FastifyInstance } from 'fastify';
import { saveMenuSchema } from '../lib/management-schemas.js';
import type { AppServices } from '../app/services.js';
import { deleteMenu, getAuthoredMenu, listAuthoredMenus, saveMenu } from './menu-ops.js';
import { json, managementOperation, object, S } from '../lib/api-schema.js';
import { deleted, SPACE, withSpace, WRITE_ERRORS } from '../lib/management-responses.js';
import { authoredMenu } from './schemas.js';

const MENU = withSpace({ key: "The menu's key." });
const PUBLISHES = 'A publish (one cv, `menu.updated`).';

const schemas = {
  list: managementOperation({
    summary: 'Menus as authored',
    params: SPACE,
    response: { 200: json('The menus.', object({ menus: S.arrayOf(authoredMenu) })) },
  }),
  one: managementOperation({
    summary: 'A menu as authored',
    params: MENU,
    response: { 200: json('The menu.', object({ menu: authoredMenu })) },
  }),
  save: managementOperation(
    {
      summary: 'Create or replace a menu',
      description: `The bundle's shape; items without \`id\` get one; up to three levels. ${PUBLISHES}`,
      params: MENU,
      body: saveMenuSchema,
      response: { 200: json('Saved and published.', object({ menu: authoredMenu, cv: S.cv })) },
    },
    ...WRITE_ERRORS,
  ),
  remove: managementOperation({
    summary: 'Delete a menu',
    description: `${PUBLISHES} Pinned older cvs keep it.`,
    params: MENU,
    response: { 200: json('Deleted.', deleted('key', true)) },
  }),
};

type P = { spaceId: string };

/** Menus as authored (spec 2.5): `PUT` creates or replaces and publishes (one cv, `menu.updated`). */
export async function menuManagementRoutes(
  app: FastifyInstance,
  opts: { services: AppServices },
): Promise<void> {
  const { store } = opts.services;
  app.get<{ Params: P }>('/menus', { schema: schemas.list }, async (req) => ({
    menus: await listAuthoredMenus(store, req.params.spaceId),
  }));
  app.get<{ Params: P & { key: string } }>('/menus/:key', { schema: schemas.one }, async (req) => ({
    menu: await getAuthoredMenu(store, req.params.spaceId, req.params.key),
  }));
  app.put<{ Params: P & { key: string }; Body: { name: string; items: unknown[] } }>(
    '/menus/:key',
    { schema: schemas.save },
    async (req) => saveMenu(store, req.params.spaceId, req.params.key, req.body),
  );
  app.delete<{ Params: P & { key: string } }>('/menus/:key', { schema: schemas.remove }, async (req) => ({
    key: req.params.key,
    deleted: true,
    ...(await deleteMenu(store, req.params.spaceId, req.params.key)),
  }));
}

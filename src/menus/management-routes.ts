import type { FastifyInstance } from 'fastify';
import { saveMenuSchema } from '../management/schemas.js';
import type { AppServices } from '../app/services.js';
import { deleteMenu, getAuthoredMenu, listAuthoredMenus, saveMenu } from './menu-ops.js';

type P = { spaceId: string };

/** Menus as authored (spec 2.5): `PUT` creates or replaces and publishes (one cv, `menu.updated`). */
export async function menuManagementRoutes(
  app: FastifyInstance,
  opts: { services: AppServices },
): Promise<void> {
  const { store } = opts.services;
  app.get<{ Params: P }>('/menus', async (req) => ({
    menus: await listAuthoredMenus(store, req.params.spaceId),
  }));
  app.get<{ Params: P & { key: string } }>('/menus/:key', async (req) => ({
    menu: await getAuthoredMenu(store, req.params.spaceId, req.params.key),
  }));
  app.put<{ Params: P & { key: string }; Body: { name: string; items: unknown[] } }>(
    '/menus/:key',
    { schema: { body: saveMenuSchema } },
    async (req) => saveMenu(store, req.params.spaceId, req.params.key, req.body),
  );
  app.delete<{ Params: P & { key: string } }>('/menus/:key', async (req) => ({
    key: req.params.key,
    deleted: true,
    ...(await deleteMenu(store, req.params.spaceId, req.params.key)),
  }));
}

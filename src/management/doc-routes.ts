import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../app/services.js';
import { deleteList, getList, type ListDoc, listLists, saveList } from './list-ops.js';
import {
  createRelease,
  deleteRelease,
  getRelease,
  listReleases,
  publishRelease,
  type ReleaseDoc,
  replaceRelease,
} from './release-ops.js';
import { createReleaseSchema, replaceReleaseSchema, saveListSchema } from './schemas.js';

type P = { spaceId: string };

/** Option lists (saving publishes) and releases (previews until published at once). */
export async function docRoutes(app: FastifyInstance, opts: { services: AppServices }): Promise<void> {
  const { store } = opts.services;

  app.get<{ Params: P }>('/lists', async (req) => ({ lists: await listLists(store, req.params.spaceId) }));
  app.get<{ Params: P & { key: string } }>('/lists/:key', async (req) => ({
    list: await getList(store, req.params.spaceId, req.params.key),
  }));
  app.put<{ Params: P & { key: string }; Body: { name?: string; options: ListDoc['options'] } }>(
    '/lists/:key',
    { schema: { body: saveListSchema } },
    async (req) => saveList(store, req.params.spaceId, req.params.key, req.body),
  );
  app.delete<{ Params: P & { key: string } }>('/lists/:key', async (req) => ({
    key: req.params.key,
    deleted: true,
    ...(await deleteList(store, req.params.spaceId, req.params.key)),
  }));

  type ReleaseBody = { id?: string; name: string; entries?: ReleaseDoc['entries'] };
  app.get<{ Params: P }>('/releases', async (req) => ({
    releases: await listReleases(store, req.params.spaceId),
  }));
  app.post<{ Params: P; Body: ReleaseBody }>(
    '/releases',
    { schema: { body: createReleaseSchema } },
    async (req, reply) => {
      reply.status(201);
      return { release: await createRelease(store, req.params.spaceId, req.body) };
    },
  );
  app.get<{ Params: P & { id: string } }>('/releases/:id', async (req) => ({
    release: await getRelease(store, req.params.spaceId, req.params.id),
  }));
  app.put<{ Params: P & { id: string }; Body: { name: string; entries: ReleaseDoc['entries'] } }>(
    '/releases/:id',
    { schema: { body: replaceReleaseSchema } },
    async (req) => ({ release: await replaceRelease(store, req.params.spaceId, req.params.id, req.body) }),
  );
  app.delete<{ Params: P & { id: string } }>('/releases/:id', async (req) => {
    await deleteRelease(store, req.params.spaceId, req.params.id);
    return { id: req.params.id, deleted: true };
  });
  app.post<{ Params: P & { id: string } }>('/releases/:id/publish', async (req) => ({
    id: req.params.id,
    published: true,
    ...(await publishRelease(store, req.params.spaceId, req.params.id)),
  }));
}

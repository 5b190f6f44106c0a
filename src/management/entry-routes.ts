import type { FastifyInstance } from 'fastify';
import type { FieldValues } from '../content/model.js';
import type { AppServices } from '../app/services.js';
import {
  type CreateEntryBody,
  createEntry,
  getEntryView,
  listEntryViews,
  publishEntry,
  unpublishEntry,
  updateEntry,
} from './entry-ops.js';
import { deleteEntry, moveEntry, renameEntry } from './entry-structure.js';
import { createEntrySchema, moveEntrySchema, renameEntrySchema, updateEntrySchema } from './schemas.js';

type P = { spaceId: string };
type PId = P & { id: string };

/** Entries through the management API (docs/api.md): drafts, publishing, the tree. Handlers stay thin. */
export async function entryRoutes(app: FastifyInstance, opts: { services: AppServices }): Promise<void> {
  const { store } = opts.services;

  app.get<{ Params: P; Querystring: { type?: string; parent?: string } }>('/entries', async (req) => ({
    entries: await listEntryViews(store, req.params.spaceId, {
      ...(typeof req.query.type === 'string' ? { type: req.query.type } : {}),
      ...(typeof req.query.parent === 'string' ? { parent: req.query.parent } : {}),
    }),
  }));

  app.post<{ Params: P; Body: CreateEntryBody }>(
    '/entries',
    { schema: { body: createEntrySchema } },
    async (req, reply) => {
      reply.status(201);
      return { entry: await createEntry(store, req.params.spaceId, req.body) };
    },
  );

  app.get<{ Params: PId }>('/entries/:id', async (req) => ({
    entry: await getEntryView(store, req.params.spaceId, req.params.id),
  }));

  app.patch<{ Params: PId; Body: { name?: string; tags?: string[]; fields?: FieldValues } }>(
    '/entries/:id',
    { schema: { body: updateEntrySchema } },
    async (req) => ({ entry: await updateEntry(store, req.params.spaceId, req.params.id, req.body) }),
  );

  app.post<{ Params: PId }>('/entries/:id/publish', async (req) =>
    publishEntry(store, req.params.spaceId, req.params.id),
  );

  app.post<{ Params: PId }>('/entries/:id/unpublish', async (req) =>
    unpublishEntry(store, req.params.spaceId, req.params.id),
  );

  app.post<{ Params: PId; Body: { parent?: string | null; position?: number } }>(
    '/entries/:id/move',
    { schema: { body: moveEntrySchema } },
    async (req) => moveEntry(store, req.params.spaceId, req.params.id, req.body),
  );

  app.post<{ Params: PId; Body: { slug?: string; slugs?: Record<string, string | null> } }>(
    '/entries/:id/rename',
    { schema: { body: renameEntrySchema } },
    async (req) => renameEntry(store, req.params.spaceId, req.params.id, req.body),
  );

  app.delete<{ Params: PId }>('/entries/:id', async (req) => ({
    id: req.params.id,
    deleted: true,
    ...(await deleteEntry(store, req.params.spaceId, req.params.id)),
  }));
}

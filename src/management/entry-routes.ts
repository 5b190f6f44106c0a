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
import {
  createEntrySchema,
  moveEntrySchema,
  renameEntrySchema,
  updateEntrySchema,
} from '../lib/management-schemas.js';
import { json, managementOperation, object, queryParams, S } from '../lib/api-schema.js';
import {
  deleted,
  entryBody,
  managedEntry,
  publishedEntryBody,
  SPACE,
  withSpace,
  WRITE_ERRORS,
} from '../lib/management-responses.js';

type P = { spaceId: string };
type PId = P & { id: string };

const ENTRY = withSpace({ id: 'The entry id (`ent_…`).' });
const TREE =
  'Changes the tree at once; when the entry or anything below it is published it is a publish (new paths, automatic redirects from the old ones; 409 when two published pages would share a path), else authoring only (`cv: null`).';

/** Entries through the management API (docs/api.md): drafts, publishing, the tree. Handlers stay thin. */
export async function entryRoutes(app: FastifyInstance, opts: { services: AppServices }): Promise<void> {
  const { store } = opts.services;

  const list = managementOperation({
    summary: 'Entries as authored',
    params: SPACE,
    querystring: queryParams({
      type: 'Only entries of this type.',
      parent: 'Only children of this entry (`null`: the root).',
    }),
    response: { 200: json('The entries.', object({ entries: S.arrayOf(managedEntry) })) },
  });
  app.get<{ Params: P; Querystring: { type?: string; parent?: string } }>(
    '/entries',
    { schema: list },
    async (req) => ({
      entries: await listEntryViews(store, req.params.spaceId, {
        ...(typeof req.query.type === 'string' ? { type: req.query.type } : {}),
        ...(typeof req.query.parent === 'string' ? { parent: req.query.parent } : {}),
      }),
    }),
  );

  app.post<{ Params: P; Body: CreateEntryBody }>(
    '/entries',
    {
      schema: managementOperation(
        {
          summary: 'Create an entry (a draft)',
          description: '409 `conflict` for an existing id or a second entry of a global type.',
          params: SPACE,
          body: createEntrySchema,
          response: { 201: json('The new draft.', entryBody) },
        },
        ...WRITE_ERRORS,
      ),
    },
    async (req, reply) => {
      reply.status(201);
      return { entry: await createEntry(store, req.params.spaceId, req.body) };
    },
  );

  const one = managementOperation({
    summary: 'An entry as authored',
    params: ENTRY,
    response: { 200: json('The entry.', entryBody) },
  });
  app.get<{ Params: PId }>('/entries/:id', { schema: one }, async (req) => ({
    entry: await getEntryView(store, req.params.spaceId, req.params.id),
  }));

  app.patch<{ Params: PId; Body: { name?: string; tags?: string[]; fields?: FieldValues } }>(
    '/entries/:id',
    {
      schema: managementOperation(
        {
          summary: "Change an entry's draft",
          description:
            "`fields` replace the draft's fields whole; names and tags are delivered with the next publish.",
          params: ENTRY,
          body: updateEntrySchema,
          response: { 200: json('The entry.', entryBody) },
        },
        ...WRITE_ERRORS,
      ),
    },
    async (req) => ({ entry: await updateEntry(store, req.params.spaceId, req.params.id, req.body) }),
  );

  const publish = managementOperation(
    {
      summary: 'Publish an entry',
      description: 'Makes the draft the published fields: one cv bump.',
      params: ENTRY,
      response: { 200: json('The entry and the new cv.', publishedEntryBody) },
    },
    'validation_failed',
    'conflict',
  );
  app.post<{ Params: PId }>('/entries/:id/publish', { schema: publish }, async (req) =>
    publishEntry(store, req.params.spaceId, req.params.id),
  );

  const unpublish = managementOperation({
    summary: 'Unpublish an entry',
    description:
      'Takes it out of delivery and keeps its fields as the draft; `cv: null` if it was not published.',
    params: ENTRY,
    response: { 200: json('The entry and the new cv.', publishedEntryBody) },
  });
  app.post<{ Params: PId }>('/entries/:id/unpublish', { schema: unpublish }, async (req) =>
    unpublishEntry(store, req.params.spaceId, req.params.id),
  );

  app.post<{ Params: PId; Body: { parent?: string | null; position?: number } }>(
    '/entries/:id/move',
    {
      schema: managementOperation(
        {
          summary: 'Move an entry in the tree',
          description: `A parent is a folder or page, never the entry itself or one below it. ${TREE}`,
          params: ENTRY,
          body: moveEntrySchema,
          response: { 200: json('The entry and the new cv.', publishedEntryBody) },
        },
        ...WRITE_ERRORS,
      ),
    },
    async (req) => moveEntry(store, req.params.spaceId, req.params.id, req.body),
  );

  app.post<{ Params: PId; Body: { slug?: string; slugs?: Record<string, string | null> } }>(
    '/entries/:id/rename',
    {
      schema: managementOperation(
        {
          summary: "Change an entry's slugs",
          description: `\`slugs: { <locale>: null }\` falls back again. ${TREE}`,
          params: ENTRY,
          body: renameEntrySchema,
          response: { 200: json('The entry and the new cv.', publishedEntryBody) },
        },
        ...WRITE_ERRORS,
      ),
    },
    async (req) => renameEntry(store, req.params.spaceId, req.params.id, req.body),
  );

  const remove = managementOperation(
    {
      summary: 'Delete an entry',
      description:
        'Refuses entries with children (409) and entries a release links to or references (409 naming the release). A delivered entry is deleted in a publish: redirects to it answer 410, it leaves every menu, releases lose it.',
      params: ENTRY,
      response: { 200: json('Deleted.', deleted('id', true)) },
    },
    'conflict',
  );
  app.delete<{ Params: PId }>('/entries/:id', { schema: remove }, async (req) => ({
    id: req.params.id,
    deleted: true,
    ...(await deleteEntry(store, req.params.spaceId, req.params.id)),
  }));
}

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
import { createReleaseSchema, replaceReleaseSchema, saveListSchema } from '../lib/management-schemas.js';
import { json, managementOperation, object, S } from '../lib/api-schema.js';
import { deleted, listDoc, release, SPACE, withSpace, WRITE_ERRORS } from '../lib/management-responses.js';

const LIST = withSpace({ key: "The option list's key." });
const RELEASE = withSpace({ id: 'The release id (`rel_…`).' });

const lists = {
  list: managementOperation({
    summary: 'Option lists as authored',
    params: SPACE,
    response: { 200: json('The lists.', object({ lists: S.arrayOf(listDoc) })) },
  }),
  one: managementOperation({
    summary: 'An option list as authored',
    params: LIST,
    response: { 200: json('The list.', object({ list: listDoc })) },
  }),
  save: managementOperation(
    {
      summary: 'Create or replace an option list',
      description: 'Saving publishes (one cv).',
      params: LIST,
      body: saveListSchema,
      response: { 200: json('Saved and published.', object({ list: listDoc, cv: S.cv })) },
    },
    ...WRITE_ERRORS,
  ),
  remove: managementOperation(
    {
      summary: 'Delete an option list',
      description: '409 while a field uses it.',
      params: LIST,
      response: { 200: json('Deleted.', deleted('key', true)) },
    },
    'conflict',
  ),
};

const releases = {
  list: managementOperation({
    summary: 'Releases',
    params: SPACE,
    response: { 200: json('The releases.', object({ releases: S.arrayOf(release) })) },
  }),
  create: managementOperation(
    {
      summary: 'Create a release',
      description: 'A preview (`release=rel_…`) until it is published.',
      params: SPACE,
      body: createReleaseSchema,
      response: { 201: json('The release.', object({ release })) },
    },
    ...WRITE_ERRORS,
  ),
  one: managementOperation({
    summary: 'A release',
    params: RELEASE,
    response: { 200: json('The release.', object({ release })) },
  }),
  replace: managementOperation(
    {
      summary: 'Replace a release',
      params: RELEASE,
      body: replaceReleaseSchema,
      response: { 200: json('The release.', object({ release })) },
    },
    ...WRITE_ERRORS,
  ),
  remove: managementOperation({
    summary: 'Delete a release',
    params: RELEASE,
    response: { 200: json('Deleted.', deleted('id', false)) },
  }),
  publish: managementOperation(
    {
      summary: 'Publish a release',
      description: "Publishes all its entries' fields at one cv and removes it.",
      params: RELEASE,
      response: {
        200: json(
          'Published.',
          object({ id: S.string, published: { type: 'boolean', const: true }, cv: S.cv }),
        ),
      },
    },
    'validation_failed',
    'conflict',
  ),
};

type P = { spaceId: string };

/** Option lists (saving publishes) and releases (previews until published at once). */
export async function docRoutes(app: FastifyInstance, opts: { services: AppServices }): Promise<void> {
  const { store } = opts.services;

  app.get<{ Params: P }>('/lists', { schema: lists.list }, async (req) => ({
    lists: await listLists(store, req.params.spaceId),
  }));
  app.get<{ Params: P & { key: string } }>('/lists/:key', { schema: lists.one }, async (req) => ({
    list: await getList(store, req.params.spaceId, req.params.key),
  }));
  app.put<{ Params: P & { key: string }; Body: { name?: string; options: ListDoc['options'] } }>(
    '/lists/:key',
    { schema: lists.save },
    async (req) => saveList(store, req.params.spaceId, req.params.key, req.body),
  );
  app.delete<{ Params: P & { key: string } }>('/lists/:key', { schema: lists.remove }, async (req) => ({
    key: req.params.key,
    deleted: true,
    ...(await deleteList(store, req.params.spaceId, req.params.key)),
  }));

  type ReleaseBody = { id?: string; name: string; entries?: ReleaseDoc['entries'] };
  app.get<{ Params: P }>('/releases', { schema: releases.list }, async (req) => ({
    releases: await listReleases(store, req.params.spaceId),
  }));
  app.post<{ Params: P; Body: ReleaseBody }>('/releases', { schema: releases.create }, async (req, reply) => {
    reply.status(201);
    return { release: await createRelease(store, req.params.spaceId, req.body) };
  });
  app.get<{ Params: P & { id: string } }>('/releases/:id', { schema: releases.one }, async (req) => ({
    release: await getRelease(store, req.params.spaceId, req.params.id),
  }));
  app.put<{ Params: P & { id: string }; Body: { name: string; entries: ReleaseDoc['entries'] } }>(
    '/releases/:id',
    { schema: releases.replace },
    async (req) => ({ release: await replaceRelease(store, req.params.spaceId, req.params.id, req.body) }),
  );
  app.delete<{ Params: P & { id: string } }>('/releases/:id', { schema: releases.remove }, async (req) => {
    await deleteRelease(store, req.params.spaceId, req.params.id);
    return { id: req.params.id, deleted: true };
  });
  app.post<{ Params: P & { id: string } }>(
    '/releases/:id/publish',
    { schema: releases.publish },
    async (req) => ({
      id: req.params.id,
      published: true,
      ...(await publishRelease(store, req.params.spaceId, req.params.id)),
    }),
  );
}

import type { FastifyInstance } from 'fastify';
import { managementAuth } from '../auth/management-auth.js';
import { rejectUnknown, single } from '../delivery/params.js';
import type { AppServices } from '../server/app.js';
import { invalidQuery, notFound } from '../server/errors.js';
import { getSpace } from '../store/spaces-repo.js';
import { getAuthoredForm, listAuthoredForms } from './forms-repo.js';
import { deleteForm, hasFormOrSubmissions, saveForm } from './management.js';
import { type Folder, listSubmissions } from './submissions-repo.js';

type Params = { spaceId: string };
type KeyParams = Params & { key: string };
type Query = Record<string, unknown>;

/** Form definitions with many translations outgrow the 64 KB of delivery bodies. */
const DEFINITION_BODY_LIMIT = 1024 * 1024;

function parseCursor(raw: string | undefined): { createdAt: string; id: string } | null {
  if (raw === undefined) return null;
  const [createdAt, id, ...rest] = Buffer.from(raw, 'base64url').toString('utf8').split('|');
  if (!createdAt || !id || rest.length > 0) throw invalidQuery('Parameter "cursor" is not valid.', 'cursor');
  return { createdAt, id };
}

function parseLimit(raw: string | undefined): number {
  if (raw === undefined) return 50;
  if (!/^\d{1,3}$/.test(raw) || Number(raw) < 1 || Number(raw) > 200)
    throw invalidQuery('Parameter "limit" must be 1 to 200.', 'limit');
  return Number(raw);
}

/**
 * The forms part of the management API (spec 4.5, shapes "not shown": docs/api.md), behind a management token:
 * create, replace, read and delete definitions, and list what a form stored (the inbox proper is a later issue).
 */
export async function formManagementRoutes(
  app: FastifyInstance,
  opts: { services: AppServices },
): Promise<void> {
  const { store, tokens } = opts.services;
  if (!app.hasRequestDecorator('managementToken')) app.decorateRequest('managementToken', null);
  app.addHook('preHandler', managementAuth(tokens));

  const cvOf = async (spaceId: string): Promise<number> => {
    const space = await getSpace(store, spaceId);
    if (!space) throw notFound(`Space "${spaceId}" not found.`);
    return space.cv;
  };

  app.get<{ Params: Params }>('/v1/spaces/:spaceId/forms', async (request) => {
    const cv = await cvOf(request.params.spaceId);
    return { forms: await listAuthoredForms(store, request.params.spaceId), cv };
  });

  app.post<{ Params: Params }>(
    '/v1/spaces/:spaceId/forms',
    { bodyLimit: DEFINITION_BODY_LIMIT },
    async (request, reply) => {
      const saved = await saveForm(store, request.params.spaceId, request.body, { kind: 'create' });
      return reply.status(201).send({ form: saved.form, cv: saved.cv });
    },
  );

  app.get<{ Params: KeyParams }>('/v1/spaces/:spaceId/forms/:key', async (request) => {
    const cv = await cvOf(request.params.spaceId);
    const form = await getAuthoredForm(store, request.params.spaceId, request.params.key);
    if (!form) throw notFound(`Form "${request.params.key}" not found.`);
    return { form, cv };
  });

  app.put<{ Params: KeyParams }>(
    '/v1/spaces/:spaceId/forms/:key',
    { bodyLimit: DEFINITION_BODY_LIMIT },
    async (request, reply) => {
      const { spaceId, key } = request.params;
      const saved = await saveForm(store, spaceId, request.body, { kind: 'replace', key });
      return reply.status(saved.created ? 201 : 200).send({ form: saved.form, cv: saved.cv });
    },
  );

  app.delete<{ Params: KeyParams }>('/v1/spaces/:spaceId/forms/:key', async (request) => {
    return deleteForm(store, request.params.spaceId, request.params.key);
  });

  app.get<{ Params: KeyParams; Querystring: Query }>(
    '/v1/spaces/:spaceId/forms/:key/submissions',
    async (request) => {
      const { spaceId, key } = request.params;
      rejectUnknown(request.query, ['folder', 'limit', 'cursor']);
      const folder = single(request.query, 'folder') ?? 'inbox';
      if (folder !== 'inbox' && folder !== 'spam')
        throw invalidQuery('Parameter "folder" must be inbox or spam.', 'folder');
      await cvOf(spaceId);
      // A deleted form's submissions are listed until their retention ends (spec 3.2).
      if (!(await hasFormOrSubmissions(store, spaceId, key))) throw notFound(`Form "${key}" not found.`);
      const page = await listSubmissions(store, spaceId, key, {
        folder: folder as Folder,
        limit: parseLimit(single(request.query, 'limit')),
        after: parseCursor(single(request.query, 'cursor')),
      });
      return {
        items: page.items.map(({ spaceId: _space, uniqueKey: _unique, ...item }) => item),
        nextCursor: page.nextCursor === null ? null : Buffer.from(page.nextCursor).toString('base64url'),
      };
    },
  );
}

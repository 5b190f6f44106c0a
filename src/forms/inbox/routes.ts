import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireScopes } from '../../auth/scopes.js';
import { single } from '../../delivery/params.js';
import type { AppServices } from '../../app/services.js';
import { parseBulk, parseChange, parseNote } from './bodies.js';
import { runBulk } from './bulk.js';
import { parseCursor, parseLimit } from './cursor.js';
import { parseInboxFilter } from './filter.js';
import type { FormScope } from './inbox-repo.js';
import {
  type Caller,
  addNote,
  changeSubmission,
  deleteOne,
  listInbox,
  readSubmission,
  removeNote,
  requireForm,
} from './inbox.js';

type Params = { spaceId: string; key: string };
type IdParams = Params & { id: string };
type NoteParams = IdParams & { noteId: string };

/** A bulk call may name 1,000 ids of up to 67 characters each. */
const BULK_BODY_LIMIT = 128 * 1024;

/**
 * The forms inbox under `/v1/spaces/<spaceId>/forms/<key>/submissions` (issue 11; spec 4.5: "only roles with the
 * `forms.read` permission see submissions"). Registered inside the forms management plugin, whose hook has
 * authenticated the management token; every route here needs `forms.read`, deleting needs `forms.write` too.
 */
export async function inboxRoutes(app: FastifyInstance, opts: { services: AppServices }): Promise<void> {
  const { store, blobs } = opts.services;
  const clock = opts.services.clock ?? (() => new Date());
  app.addHook('preHandler', async (request) => requireScopes(request, 'forms.read'));
  // Submissions are personal data: never stored by a cache on the way (errors get the same from the error handler).
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });

  // requireScopes refused a request without a token; the fallback only satisfies the type.
  const caller = (request: FastifyRequest): Caller => ({
    actor: request.managementToken?.id ?? 'unknown',
    now: clock(),
  });
  const scope = (p: Params): FormScope => ({ spaceId: p.spaceId, formKey: p.key });
  const base = '/v1/spaces/:spaceId/forms/:key/submissions';
  const deps = { store, blobs };

  app.get<{ Params: Params; Querystring: Record<string, unknown> }>(base, async (request) => {
    const { limit: _limit, cursor: _cursor, ...filters } = request.query;
    const filter = parseInboxFilter(filters);
    return listInbox(store, scope(request.params), filter, {
      limit: parseLimit(single(request.query, 'limit')),
      after: parseCursor(single(request.query, 'cursor')),
    });
  });

  app.post<{ Params: Params }>(`${base}/bulk`, { bodyLimit: BULK_BODY_LIMIT }, async (request) => {
    const input = parseBulk(request.body);
    if (input.action.kind === 'delete') requireScopes(request, 'forms.read', 'forms.write');
    await requireForm(store, scope(request.params));
    return runBulk(deps, scope(request.params), input, caller(request));
  });

  app.get<{ Params: IdParams }>(`${base}/:id`, async (request) => ({
    submission: await readSubmission(store, scope(request.params), request.params.id),
  }));

  app.patch<{ Params: IdParams }>(`${base}/:id`, async (request) => {
    const change = parseChange(request.body);
    return {
      submission: await changeSubmission(
        store,
        scope(request.params),
        request.params.id,
        change,
        caller(request),
      ),
    };
  });

  app.delete<{ Params: IdParams }>(`${base}/:id`, async (request) => {
    requireScopes(request, 'forms.read', 'forms.write');
    return deleteOne(deps, scope(request.params), request.params.id, caller(request));
  });

  app.post<{ Params: IdParams }>(`${base}/:id/notes`, async (request, reply) => {
    const input = parseNote(request.body);
    const note = await addNote(store, scope(request.params), request.params.id, input, caller(request));
    return reply.status(201).send({ note });
  });

  app.delete<{ Params: NoteParams }>(`${base}/:id/notes/:noteId`, async (request) =>
    removeNote(store, scope(request.params), request.params.id, request.params.noteId, caller(request)),
  );
}

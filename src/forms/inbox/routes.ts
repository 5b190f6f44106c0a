import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ScopeRule } from '../../auth/route-scopes.js';
import { requireScopes } from '../../auth/scopes.js';
import { single } from '../../delivery/params.js';
import type { AppServices } from '../../app/services.js';
import { parseBulk, parseChange, parseNote } from './bodies.js';
import { runBulk } from './bulk.js';
import { parseCursor, parseLimit, parseSort } from './cursor.js';
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
  setRead,
} from './inbox.js';
import { BODY_ERRORS, json, object, Q, queryParams } from '../../lib/api-schema.js';
import {
  bulkBody,
  bulkResult,
  changeBody,
  deletedNote,
  deletedSubmission,
  FIELD_FILTERS,
  INBOX_FILTERS,
  INBOX_PARAMS,
  inboxOperation,
  inboxPage,
  note,
  readMark,
  NOTE_PARAMS,
  noteBody,
  SUBMISSION_PARAMS,
  submissionBody,
} from './schemas.js';

type Params = { spaceId: string; key: string };
type IdParams = Params & { id: string };
type NoteParams = IdParams & { noteId: string };

/** A bulk call may name 1,000 ids of up to 67 characters each. */
const BULK_BODY_LIMIT = 128 * 1024;

/** Every route here needs `forms.read`; deleting needs `forms.write` too (docs/api.md "Scopes by route"). */
const READ = { scopes: { all: ['forms.read'] } satisfies ScopeRule };
const BULK = {
  scopes: { all: ['forms.read'], also: [{ scopes: ['forms.write'], when: 'to delete' }] } satisfies ScopeRule,
};
const DELETE = { scopes: { all: ['forms.read', 'forms.write'] } satisfies ScopeRule };

/**
 * The forms inbox under `/v1/spaces/<spaceId>/forms/<key>/submissions` (spec 4.5: "only roles with the
 * `forms.read` permission see submissions"). Registered inside the forms management plugin, whose hooks
 * authenticate the management token and check each route's scopes before the body is read.
 */
export async function inboxRoutes(app: FastifyInstance, opts: { services: AppServices }): Promise<void> {
  const { store, blobs } = opts.services;
  const clock = opts.services.clock ?? (() => new Date());
  // Submissions are personal data: never stored by a cache on the way (errors get the same from the error handler).
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });

  // The scope check refused a request without a token; the fallback only satisfies the type.
  const caller = (request: FastifyRequest): Caller => ({
    actor: request.managementToken?.id ?? 'unknown',
    person: request.managementToken?.person ?? null,
    now: clock(),
  });
  const scope = (p: Params): FormScope => ({ spaceId: p.spaceId, formKey: p.key });
  const base = '/v1/spaces/:spaceId/forms/:key/submissions';
  const deps = { store, blobs, mailDir: opts.services.config.mail.outboxDir };

  const list = inboxOperation(
    {
      summary: 'List submissions, newest or oldest first, with the total that matches',
      description: `Filters apply together; unknown, repeated or bad parameters are 400 \`invalid_query\` naming them. ${FIELD_FILTERS} \`total\` is exact (counters and index ranges) unless the filter searches (\`q\`), filters by a text answer or by several answers: those count matching rows up to 1,000 and past that answer \`total: 1000, totalExact: false\`. \`unread\` is the caller's unread submissions in the form's inbox, whatever the filter.`,
      params: INBOX_PARAMS,
      querystring: queryParams({
        ...INBOX_FILTERS,
        sort: Q.oneOf(
          ['-createdAt', 'createdAt'],
          '`-createdAt` (newest first, default) or `createdAt` (oldest first).',
        ),
        limit: Q.int(1, 200, '1 to 200 (default 50).'),
        cursor: '`nextCursor` of the previous page, with the same filters.',
      }),
      response: { 200: json('A page of submissions.', inboxPage) },
    },
    'invalid_query',
  );
  app.get<{ Params: Params; Querystring: Record<string, unknown> }>(
    base,
    { config: READ, schema: list },
    async (request) => {
      const { limit: _limit, cursor: _cursor, sort: _sort, ...filters } = request.query;
      const filter = parseInboxFilter(filters);
      const order = parseSort(single(request.query, 'sort'));
      return listInbox(
        store,
        scope(request.params),
        filter,
        {
          limit: parseLimit(single(request.query, 'limit')),
          after: parseCursor(single(request.query, 'cursor'), order),
          order,
        },
        caller(request),
      );
    },
  );

  const bulk = inboxOperation(
    {
      summary: 'Change, move or delete many submissions',
      description:
        "One transaction: status, assignment (a person's id, or null), spam moves (`spam`, `not_spam`: `skipped` counts those a full form cannot take back), delete (needs `forms.write` too), the caller's read marks (`read`, `unread`). A filter covers every match up to 10,000 (more: 400 with `details.max`).",
      params: INBOX_PARAMS,
      body: bulkBody,
      response: { 200: json('How many changed.', bulkResult) },
    },
    ...BODY_ERRORS,
    'form_full',
  );
  app.post<{ Params: Params }>(
    `${base}/bulk`,
    { config: BULK, bodyLimit: BULK_BODY_LIMIT, schema: bulk },
    async (request) => {
      const input = parseBulk(request.body);
      if (input.action.kind === 'delete') requireScopes(request, 'forms.read', 'forms.write');
      await requireForm(store, scope(request.params));
      return runBulk(deps, scope(request.params), input, caller(request));
    },
  );

  const read = inboxOperation({
    summary: 'A submission with its notes',
    params: SUBMISSION_PARAMS,
    response: { 200: json('The submission.', submissionBody) },
  });
  app.get<{ Params: IdParams }>(`${base}/:id`, { config: READ, schema: read }, async (request) => ({
    submission: await readSubmission(store, scope(request.params), request.params.id, caller(request).actor),
  }));

  const markSchema = (read: boolean) =>
    inboxOperation({
      summary: read ? 'Mark a submission read for the caller' : 'Mark a submission unread for the caller',
      description:
        "Read marks are per person (the calling token's): another person's marks and the submission's status do not change. Not recorded in the activity log.",
      params: SUBMISSION_PARAMS,
      response: { 200: json('The mark.', readMark) },
    });
  app.put<{ Params: IdParams }>(
    `${base}/:id/read`,
    { config: READ, schema: markSchema(true) },
    async (request) => setRead(store, scope(request.params), request.params.id, caller(request), true),
  );
  app.delete<{ Params: IdParams }>(
    `${base}/:id/read`,
    { config: READ, schema: markSchema(false) },
    async (request) => setRead(store, scope(request.params), request.params.id, caller(request), false),
  );

  const change = inboxOperation(
    {
      summary: "Change a submission's status or assignee",
      params: SUBMISSION_PARAMS,
      body: changeBody,
      response: { 200: json('The submission as GET answers it.', submissionBody) },
    },
    ...BODY_ERRORS,
  );
  app.patch<{ Params: IdParams }>(`${base}/:id`, { config: READ, schema: change }, async (request) => {
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

  const remove = inboxOperation({
    summary: 'Delete a submission',
    description:
      'Needs `forms.write` too. With its notes, files and notification records; capacity is given back.',
    params: SUBMISSION_PARAMS,
    response: { 200: json('Deleted.', deletedSubmission) },
  });
  app.delete<{ Params: IdParams }>(`${base}/:id`, { config: DELETE, schema: remove }, async (request) =>
    deleteOne(deps, scope(request.params), request.params.id, caller(request)),
  );

  const addNoteSchema = inboxOperation(
    {
      summary: 'Add a note to a submission',
      params: SUBMISSION_PARAMS,
      body: noteBody,
      response: { 201: json('The note.', object({ note })) },
    },
    ...BODY_ERRORS,
  );
  app.post<{ Params: IdParams }>(
    `${base}/:id/notes`,
    { config: READ, schema: addNoteSchema },
    async (request, reply) => {
      const input = parseNote(request.body);
      const note = await addNote(store, scope(request.params), request.params.id, input, caller(request));
      return reply.status(201).send({ note });
    },
  );

  const removeNoteSchema = inboxOperation({
    summary: 'Delete a note',
    params: NOTE_PARAMS,
    response: { 200: json('Deleted.', deletedNote) },
  });
  app.delete<{ Params: NoteParams }>(
    `${base}/:id/notes/:noteId`,
    { config: READ, schema: removeNoteSchema },
    async (request) =>
      removeNote(store, scope(request.params), request.params.id, request.params.noteId, caller(request)),
  );
}

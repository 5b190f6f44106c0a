import type { FastifyInstance, FastifyRequest } from 'fastify';
import { managementAuth } from '../../auth/management-auth.js';
import { declareScopes, routeScopes, type ScopeRule } from '../../auth/route-scopes.js';
import { hasScope } from '../../auth/scopes.js';
import type { AppServices } from '../../app/services.js';
import { notFound, unauthorized } from '../../errors/errors.js';
import { getSpace } from '../../store/spaces-repo.js';
import type { TokenRow } from '../../store/tokens-repo.js';
import { getAuthoredForm, listAuthoredForms } from './forms-repo.js';
import { inboxRoutes } from '../inbox/routes.js';
import { deleteForm, saveForm, withoutSecrets } from './management.js';
import type { FormDefinition } from '../rules/index.js';
import {
  BODY_ERRORS,
  type ErrorCodes,
  json,
  managementOperation,
  object,
  pathParams,
  type RouteDoc,
  S,
  SPACE_ID,
} from '../../lib/api-schema.js';
import { authoredForm, definitionBody, savedForm } from './schemas.js';

type Params = { spaceId: string };
type KeyParams = Params & { key: string };

const SPACE = pathParams({ spaceId: SPACE_ID });
const FORM = pathParams({ spaceId: SPACE_ID, key: "The form's key." });
const forms = (doc: RouteDoc, ...codes: ErrorCodes) =>
  managementOperation({ tags: ['management', 'forms'], ...doc }, ...codes);
const READ =
  'Needs `forms.write` or `forms.read` (without `forms.write`, `settings.turnstileSecret` and `settings.chatWebhookUrl` are left out).';
const WRITE =
  'Needs `forms.write`, and `forms.read` too to set or change `notify`, `notifyRules`, `chatWebhookUrl` or `confirmationEmail` (routing answers is reading them: 403 with `details.routing`). A publish: `cv` goes up. An invalid definition is 422 `validation_failed` with every problem in `details.fields` by JSON path.';

/** What each route needs (docs/api.md "Scopes by route"). Definitions are read by inbox screens too (labels). */
const SCOPES = {
  read: { anyOf: ['forms.write', 'forms.read'] },
  save: {
    all: ['forms.write'],
    also: [
      {
        scopes: ['forms.read'],
        when: 'to set or change `notify`, `notifyRules`, `chatWebhookUrl` or `confirmationEmail`',
      },
    ],
  },
  remove: { all: ['forms.write'] },
} as const satisfies Record<string, ScopeRule>;

/** Form definitions with many translations outgrow the 64 KB of delivery bodies. */
const DEFINITION_BODY_LIMIT = 1024 * 1024;

/**
 * The forms part of the management API (spec 4.5, shapes "not shown": docs/api.md), behind a management token:
 * create, replace, read and delete definitions. The inbox (src/forms/inbox) is mounted here.
 */
export async function formManagementRoutes(
  app: FastifyInstance,
  opts: { services: AppServices },
): Promise<void> {
  const { store, tokens } = opts.services;
  if (!app.hasRequestDecorator('managementToken')) app.decorateRequest('managementToken', null);
  // Token and scopes are checked before the body is read (up to 1 MB here), like the rest of the management API.
  declareScopes(app);
  app.addHook('onRequest', managementAuth(tokens));
  app.addHook('onRequest', routeScopes);
  // Management answers are never cached (they show submissions and secrets).
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });

  const cvOf = async (spaceId: string): Promise<number> => {
    const space = await getSpace(store, spaceId);
    if (!space) throw notFound(`Space "${spaceId}" not found.`);
    return space.cv;
  };

  // Only writers see the secrets in a definition. Writes are recorded in the activity log.
  const readable = (request: FastifyRequest): ((form: FormDefinition) => FormDefinition) =>
    hasScope(request.managementToken, 'forms.write') ? (form) => form : withoutSecrets;
  const writer = (request: FastifyRequest): TokenRow => {
    // routeScopes refused a request without a token; this only satisfies the type.
    if (!request.managementToken) throw unauthorized('A management token is required.');
    return request.managementToken;
  };

  const list = forms({
    summary: 'Form definitions as authored',
    description: READ,
    params: SPACE,
    response: {
      200: json(
        'In authoring order, with the current cv.',
        object({ forms: S.arrayOf(authoredForm), cv: S.cv }),
      ),
    },
  });
  app.get<{ Params: Params }>(
    '/v1/spaces/:spaceId/forms',
    { config: { scopes: SCOPES.read }, schema: list },
    async (request) => {
      const view = readable(request);
      const cv = await cvOf(request.params.spaceId);
      return { forms: (await listAuthoredForms(store, request.params.spaceId)).map(view), cv };
    },
  );

  app.post<{ Params: Params }>(
    '/v1/spaces/:spaceId/forms',
    {
      config: { scopes: SCOPES.save },
      bodyLimit: DEFINITION_BODY_LIMIT,
      schema: forms(
        {
          summary: 'Create a form',
          description: `${WRITE} 409 \`conflict\` when the key exists. Bodies up to 1 MB.`,
          params: SPACE,
          body: definitionBody,
          response: { 201: json('Created and published.', savedForm) },
        },
        ...BODY_ERRORS,
        'validation_failed',
        'conflict',
      ),
    },
    async (request, reply) => {
      const caller = writer(request);
      const saved = await saveForm(store, request.params.spaceId, request.body, { kind: 'create' }, caller);
      return reply.status(201).send({ form: saved.form, cv: saved.cv });
    },
  );

  const one = forms({
    summary: 'A form definition as authored',
    description: READ,
    params: FORM,
    response: { 200: json('The definition with the current cv.', savedForm) },
  });
  app.get<{ Params: KeyParams }>(
    '/v1/spaces/:spaceId/forms/:key',
    { config: { scopes: SCOPES.read }, schema: one },
    async (request) => {
      const view = readable(request);
      const cv = await cvOf(request.params.spaceId);
      const form = await getAuthoredForm(store, request.params.spaceId, request.params.key);
      if (!form) throw notFound(`Form "${request.params.key}" not found.`);
      return { form: view(form), cv };
    },
  );

  app.put<{ Params: KeyParams }>(
    '/v1/spaces/:spaceId/forms/:key',
    {
      config: { scopes: SCOPES.save },
      bodyLimit: DEFINITION_BODY_LIMIT,
      schema: forms(
        {
          summary: 'Create or replace a form',
          description: `${WRITE} Bodies up to 1 MB.`,
          params: FORM,
          body: definitionBody,
          response: {
            200: json('Replaced and published.', savedForm),
            201: json('Created and published.', savedForm),
          },
        },
        ...BODY_ERRORS,
        'validation_failed',
      ),
    },
    async (request, reply) => {
      const caller = writer(request);
      const { spaceId, key } = request.params;
      const saved = await saveForm(store, spaceId, request.body, { kind: 'replace', key }, caller);
      return reply.status(saved.created ? 201 : 200).send({ form: saved.form, cv: saved.cv });
    },
  );

  const remove = forms({
    summary: 'Delete a form',
    description: 'Needs `forms.write`. A publish; its submissions stay until their `deleteAfter`.',
    params: FORM,
    response: { 200: json('Deleted.', object({ cv: S.cv })) },
  });
  app.delete<{ Params: KeyParams }>(
    '/v1/spaces/:spaceId/forms/:key',
    { config: { scopes: SCOPES.remove }, schema: remove },
    async (request) => deleteForm(store, request.params.spaceId, request.params.key, writer(request).id),
  );

  // The inbox (list, read, status, notes, bulk, delete) under …/forms/<key>/submissions, behind this auth.
  await app.register(inboxRoutes, opts);
}

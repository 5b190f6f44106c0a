// Reads for inbox screens: the overview of every form, a form's published version (the labels a
// submission was made to) and one submission's activity. Management routes like any other, behind a management
// token (or the inbox session that presents one) with `forms.read`.

import type { FastifyInstance } from 'fastify';
import { listSubmissionActivity } from '../../activity/submission-activity-repo.js';
import type { AppServices } from '../../app/services.js';
import { managementAuth } from '../../auth/management-auth.js';
import { declareScopes, routeScopes } from '../../auth/route-scopes.js';
import { rejectUnknown, single } from '../../delivery/params.js';
import { invalidQuery, notFound } from '../../errors/errors.js';
import { json, object, pathParams, Q, queryParams, S, SPACE_ID } from '../../lib/api-schema.js';
import { readListsAt } from '../authoring/forms-repo.js';
import { getItem } from '../inbox/inbox-repo.js';
import { inboxOperation, SUBMISSION_PARAMS } from '../inbox/schemas.js';
import { withoutSecrets } from '../authoring/management.js';
import { readPublishedForm } from '../delivery/published-forms-repo.js';
import { OVERVIEW_DAYS, type OverviewDays, readOverview } from './overview.js';
import { getSpace } from '../../store/spaces-repo.js';
import { actorNames } from '../../activity/actor-names.js';
import { listPeople } from '../../store/tokens-repo.js';

const counts = object(
  {
    new: S.integer,
    read: S.integer,
    done: S.integer,
    archived: S.integer,
    inbox: S.integer,
    spam: S.integer,
    unread: S.describe(S.integer, 'Inbox submissions the calling person has not opened.'),
  },
  undefined,
  'Inbox submissions per status, per folder, and unread by the caller.',
);
const formOverview = object({
  key: S.string,
  name: S.string,
  deleted: S.describe(S.boolean, 'A deleted form whose submissions remain until their retention ends.'),
  status: S.describe(
    { type: ['string', 'null'], enum: ['scheduled', 'open', 'closed', 'full', null] },
    'As a submission would meet it now (spec 3.1); null for a deleted form.',
  ),
  counts,
  lastSubmissionAt: S.describe(S.nullableDateTime, 'The newest inbox submission.'),
  daily: object({
    inbox: S.arrayOf(S.integer, 'Per day of `dates`.'),
    spam: S.arrayOf(S.integer, 'Per day of `dates`.'),
  }),
});
const overviewBody = object({
  timeZone: S.describe(S.string, "The space's time zone: the days are its days."),
  dates: S.arrayOf(S.string, 'The days (`YYYY-MM-DD`), oldest first, today last.'),
  forms: S.arrayOf(formOverview, 'Authored forms in authoring order, then deleted ones with submissions.'),
});
const activityItem = object({
  id: S.string,
  at: S.dateTime,
  actor: S.describe(S.string, 'The token id that acted, or `link` (a signed download link).'),
  actorName: S.describe(
    S.nullableString,
    "The acting token's person, else its name; null when it has neither or is gone.",
  ),
  action: S.string,
  details: S.anyObject,
});

function parseDays(query: Record<string, unknown>): OverviewDays {
  rejectUnknown(query, ['days']);
  const raw = single(query, 'days') ?? '30';
  const days = OVERVIEW_DAYS.find((d) => String(d) === raw);
  if (days === undefined) throw invalidQuery('Parameter "days" must be 30 or 90.', 'days');
  return days;
}

function parseCv(query: Record<string, unknown>): number | null {
  rejectUnknown(query, ['cv']);
  const raw = single(query, 'cv');
  if (raw === undefined) return null;
  if (!/^[1-9]\d{0,9}$/.test(raw)) throw invalidQuery('Parameter "cv" must be a positive integer.', 'cv');
  return Number(raw);
}

export async function formOverviewRoutes(
  app: FastifyInstance,
  opts: { services: AppServices },
): Promise<void> {
  const { store, tokens } = opts.services;
  const clock = opts.services.clock ?? (() => new Date());
  if (!app.hasRequestDecorator('managementToken')) app.decorateRequest('managementToken', null);
  app.addHook('onRequest', managementAuth(tokens));
  declareScopes(app);
  app.addHook('onRequest', routeScopes);
  // Counts and activity of submissions: never stored by a cache on the way.
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });

  app.get<{ Params: { spaceId: string }; Querystring: Record<string, unknown> }>(
    '/v1/spaces/:spaceId/forms-overview',
    {
      config: { scopes: { all: ['forms.read'] } },
      schema: inboxOperation(
        {
          summary: 'Every form with its status, counts and submissions per day',
          description:
            "Needs `forms.read`. Per form: status now, inbox counts per status, inbox and spam totals, the newest inbox submission and submissions per day (inbox, spam) of the last `days` days in the space's time zone.",
          params: pathParams({ spaceId: SPACE_ID }),
          querystring: queryParams({ days: Q.oneOf(OVERVIEW_DAYS.map(String), '`30` (default) or `90`.') }),
          response: { 200: json('The overview.', overviewBody) },
        },
        'invalid_query',
      ),
    },
    async (request) => {
      const days = parseDays(request.query);
      return readOverview(store, request.params.spaceId, days, clock(), request.managementToken?.id ?? null);
    },
  );

  app.get<{ Params: { spaceId: string; key: string }; Querystring: Record<string, unknown> }>(
    '/v1/spaces/:spaceId/forms/:key/published',
    {
      config: { scopes: { anyOf: ['forms.write', 'forms.read'] } },
      schema: inboxOperation(
        {
          summary: 'A published version of a form, with its option lists',
          description:
            "Needs `forms.read` or `forms.write`. The version visible at `cv` (a submission's `formCv`: the labels it was submitted to), or without `cv` the newest kept (a deleted form's last). `lists`: the shared option lists its fields name, as published then. Never the Turnstile secret. 404 when no version is kept.",
          params: pathParams({ spaceId: SPACE_ID, key: "The form's key." }),
          querystring: queryParams({ cv: 'A cv at which the version was visible.' }),
          response: {
            200: json(
              'The version.',
              object({
                form: S.describe(
                  S.anyObject,
                  'The definition as authored (spec 2.10–2.12), without secrets.',
                ),
                lists: S.mapOf(
                  S.arrayOf(S.anyObject),
                  'Option lists by key: `[{ value, label: { <locale>: text } }]`.',
                ),
                cv: S.describe(S.integer, 'The cv the version was published at.'),
                current: S.describe(S.boolean, "Whether it is the form's current version."),
              }),
            ),
          },
        },
        'invalid_query',
      ),
    },
    async (request) => {
      const { spaceId, key } = request.params;
      const cv = parseCv(request.query);
      const space = await getSpace(store, spaceId);
      if (!space) throw notFound(`Space "${spaceId}" not found.`);
      const version = await readPublishedForm(store, spaceId, key, cv);
      if (!version)
        throw notFound(`No published version of form "${key}" is kept${cv === null ? '' : ` at cv ${cv}`}.`);
      // The lists as they were when this version was current (its last cv, for a closed one).
      const at = cv ?? (version.cvTo === null ? space.cv : version.cvTo - 1);
      const listKeys = version.definition.fields.flatMap((f) => (f.list === undefined ? [] : [f.list]));
      return {
        form: withoutSecrets(version.definition),
        lists: await readListsAt(store, spaceId, listKeys, at),
        cv: version.cvFrom,
        current: version.cvTo === null,
      };
    },
  );

  app.get<{ Params: { spaceId: string; key: string; id: string } }>(
    '/v1/spaces/:spaceId/forms/:key/submissions/:id/activity',
    {
      config: { scopes: { all: ['forms.read'] } },
      schema: inboxOperation({
        summary: "A submission's activity",
        description:
          "Needs `forms.read`. The activity log's entries that name the submission (changes, notes, downloads), oldest first, at most 200. Bulk changes name no submission and are not among them.",
        params: SUBMISSION_PARAMS,
        response: { 200: json('Its entries.', object({ items: S.arrayOf(activityItem) })) },
      }),
    },
    async (request) => {
      const { spaceId, key, id } = request.params;
      const item = await getItem(store, { spaceId, formKey: key }, id);
      if (!item) throw notFound(`Submission "${id}" not found in this form.`);
      const items = await listSubmissionActivity(store, {
        spaceId,
        formKey: key,
        submissionId: id,
        since: item.createdAt,
        limit: 200,
      });
      const names = await actorNames(store, spaceId);
      return { items: items.map((a) => ({ ...a, actorName: names.get(a.actor) ?? null })) };
    },
  );

  app.get<{ Params: { spaceId: string } }>(
    '/v1/spaces/:spaceId/people',
    {
      config: { scopes: { all: ['forms.read'] } },
      schema: inboxOperation({
        summary: "The space's people",
        description:
          "Needs `forms.read`. Management tokens that stand for a person (set with the token, `tokens.admin`), by name: whom submissions are assigned to. A person's id is their token's.",
        params: pathParams({ spaceId: SPACE_ID }),
        response: {
          200: json(
            'The people.',
            object({ people: S.arrayOf(object({ id: S.string, name: S.string, email: S.nullableString })) }),
          ),
        },
      }),
    },
    async (request) => {
      const space = await getSpace(store, request.params.spaceId);
      if (!space) throw notFound(`Space "${request.params.spaceId}" not found.`);
      return { people: await listPeople(store.db, space.id) };
    },
  );
}

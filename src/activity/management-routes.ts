import type { FastifyInstance } from 'fastify';
import { rejectUnknown, single } from '../delivery/params.js';
import { requireSpace } from '../content/context.js';
import type { AppServices } from '../app/services.js';
import { invalidQuery } from '../errors/errors.js';
import { ACTIVITY_ACTIONS, listActivity } from './activity-repo.js';
import { actorNames } from './actor-names.js';
import { json, managementOperation, object, Q, queryParams, S } from '../lib/api-schema.js';
import { SPACE } from '../lib/management-responses.js';

const activitySchema = managementOperation(
  {
    summary: 'The activity log, newest first',
    description:
      'Needs `tokens.admin`. Form, token and webhook endpoint changes, submission exports and downloads, erasures: counts and names, never values, addresses, token values or secrets.',
    params: SPACE,
    querystring: queryParams({
      limit: Q.int(1, 200, '1 to 200 (default 50).'),
      cursor: '`nextCursor` of the previous page.',
      action: Q.oneOf(ACTIVITY_ACTIONS, `Only this action: ${ACTIVITY_ACTIONS.join(', ')}.`),
    }),
    response: {
      200: json(
        'A page of the log.',
        object({
          items: S.arrayOf(
            object({
              id: S.string,
              at: S.dateTime,
              actor: S.describe(
                S.string,
                'The acting token id (`cli` for `folio token create`, `link` for a signed download).',
              ),
              actorName: S.describe(
                S.nullableString,
                "The acting token's person, else its name; null when it has neither or is gone.",
              ),
              action: { type: 'string', enum: [...ACTIVITY_ACTIONS] },
              subject: S.describe(S.nullableString, 'The form key, token id or webhook id.'),
              details: S.anyObject,
            }),
          ),
          nextCursor: S.describe(S.nullableString, 'Pass as `cursor` for the next page; null on the last.'),
        }),
      ),
    },
  },
  'invalid_query',
);

type P = { spaceId: string };

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

/** The keyset cursor: base64url of `<at>|<id>` of the last item answered; opaque to clients. */
const encodeActivityCursor = (at: string, id: string): string =>
  Buffer.from(`${at}|${id}`, 'utf8').toString('base64url');

function parseCursor(raw: string | undefined): { at: string; id: string } | null {
  if (raw === undefined) return null;
  const [at, id, ...rest] = Buffer.from(raw, 'base64url').toString('utf8').split('|');
  if (!at || !ISO.test(at) || !id || rest.length > 0)
    throw invalidQuery('Parameter "cursor" is not valid.', 'cursor');
  return { at, id };
}

function parseLimit(raw: string | undefined): number {
  if (raw === undefined) return 50;
  if (!/^\d{1,3}$/.test(raw) || Number(raw) < 1 || Number(raw) > 200)
    throw invalidQuery('Parameter "limit" must be 1 to 200.', 'limit');
  return Number(raw);
}

function parseAction(raw: string | undefined): string | undefined {
  if (raw === undefined || (ACTIVITY_ACTIONS as readonly string[]).includes(raw)) return raw;
  throw invalidQuery(`Parameter "action" must be one of ${ACTIVITY_ACTIONS.join(', ')}.`, 'action');
}

/** The activity log, `tokens.admin` only: newest first, keyset-paged, optionally one action. */
export async function activityRoutes(app: FastifyInstance, opts: { services: AppServices }): Promise<void> {
  const { store } = opts.services;
  app.get<{ Params: P; Querystring: Record<string, unknown> }>(
    '/activity',
    { config: { scopes: { all: ['tokens.admin'] } }, schema: activitySchema },
    async (req) => {
      rejectUnknown(req.query, ['limit', 'cursor', 'action']);
      const limit = parseLimit(single(req.query, 'limit'));
      const before = parseCursor(single(req.query, 'cursor'));
      const action = parseAction(single(req.query, 'action'));
      await requireSpace(store, req.params.spaceId);
      const page = await listActivity(store, req.params.spaceId, {
        limit,
        before,
        ...(action === undefined ? {} : { action }),
      });
      const names = await actorNames(store, req.params.spaceId);
      return {
        items: page.items.map(({ spaceId: _space, ...item }) => ({
          ...item,
          actorName: names.get(item.actor) ?? null,
        })),
        nextCursor: page.next === null ? null : encodeActivityCursor(page.next.at, page.next.id),
      };
    },
  );
}

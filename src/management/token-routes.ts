import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TokenRow } from '../store/tokens-repo.js';
import type { AppServices } from '../app/services.js';
import { unauthorized } from '../errors/errors.js';
import {
  changeTokenPerson,
  createToken,
  listTokenViews,
  parseNewToken,
  parsePerson,
  revokeToken,
  type TokenOpsDeps,
} from './token-ops.js';
import { invalidBody } from '../errors/errors.js';
import {
  BODY_ERRORS,
  type ErrorCodes,
  json,
  managementOperation,
  object,
  type RouteDoc,
  S,
} from '../lib/api-schema.js';
import { SPACE, tokenView, withSpace } from '../lib/management-responses.js';

type P = { spaceId: string };
type PId = P & { tokenId: string };

// Shapes only (400 `invalid_body`); what scopes and origins mean is checked by parseNewToken.
const createTokenSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['kind'],
  properties: {
    kind: { type: 'string', enum: ['public', 'preview', 'management'] },
    name: { type: ['string', 'null'], minLength: 1, maxLength: 200 },
    origins: { type: 'array', maxItems: 50, items: { type: 'string', minLength: 1, maxLength: 300 } },
    scopes: { type: 'array', minItems: 1, maxItems: 20, items: { type: 'string', maxLength: 40 } },
    person: {
      type: ['object', 'null'],
      description:
        'Management tokens: the person it stands for (`{ name, email? }`); their id is the token id.',
    },
    serverSide: {
      type: 'boolean',
      description:
        "Public tokens without origins: made for a site's server, which may name its visitor in `Folio-Visitor-Ip` (set once, here).",
    },
  },
} as const;

const changeTokenSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['person'],
  properties: {
    person: { type: ['object', 'null'], description: "`{ name, email? }`, or null: a tool's token." },
  },
} as const;

// Besides tokens.admin, a token handles only tokens that can do no more than it (token-ops.ts, powerOf).
const admin = { scopes: { all: ['tokens.admin'] } } as const;
const handles = (what: string) =>
  ({
    scopes: {
      all: ['tokens.admin'],
      note: `and every scope of the token it ${what} (a preview token's is \`content.write\`)`,
    },
  }) as const;

const tokens = (doc: RouteDoc, ...codes: ErrorCodes) =>
  managementOperation(
    { ...doc, description: `Needs \`tokens.admin\`. ${doc.description ?? ''}`.trim() },
    ...codes,
  );

const listSchema = tokens({
  summary: "The space's tokens",
  description: 'Oldest first; never a value or a hash.',
  params: SPACE,
  response: { 200: json('The tokens.', object({ tokens: S.arrayOf(tokenView) })) },
});
const createSchema = tokens(
  {
    summary: 'Create a token',
    description:
      "`scopes` only for management tokens; a token grants only scopes it has itself (403 with `details.missingScopes`), and a preview token counts as `content.write`; without `scopes` the new token gets the creating token's own. The value is answered this once.",
    params: SPACE,
    body: createTokenSchema,
    response: {
      201: json('The token and its value (shown once).', object({ token: tokenView, value: S.string })),
    },
  },
  ...BODY_ERRORS,
);
const changeSchema = tokens(
  {
    summary: 'Set or clear the person a management token stands for',
    description:
      '`person` is `{ name (1–200 characters), email? }` or null. Like revoking, only on a token with no scope the calling token lacks (403 with `details.missingScopes`). Recorded as `token.updated` without the name or address.',
    params: withSpace({ tokenId: 'The token id.' }),
    body: changeTokenSchema,
    response: { 200: json('The token.', object({ token: tokenView })) },
  },
  ...BODY_ERRORS,
);
const revokeSchema = tokens(
  {
    summary: 'Revoke a token',
    description:
      "Deletes it; never a token with a scope the revoking token lacks (403 with `details.missingScopes`; a preview token counts as `content.write`), never the space's last management token with `tokens.admin` (409).",
    params: withSpace({ tokenId: 'The token id.' }),
    response: { 200: json('Revoked.', object({ revoked: S.describe(S.string, 'The token id.') })) },
  },
  'conflict',
);

/** The token that authenticated the request (the management plugin's auth hook ran before any handler). */
function caller(request: FastifyRequest): TokenRow {
  const token = request.managementToken;
  if (!token) throw unauthorized('A management token is required.');
  return token;
}

/** The token API, `tokens.admin` only: list, create (the value shown once), revoke. */
export async function tokenRoutes(app: FastifyInstance, opts: { services: AppServices }): Promise<void> {
  const deps: TokenOpsDeps = { store: opts.services.store, tokens: opts.services.tokens };
  app.get<{ Params: P }>('/tokens', { config: admin, schema: listSchema }, async (req) => ({
    tokens: await listTokenViews(deps, req.params.spaceId),
  }));
  app.post<{ Params: P; Body: Record<string, unknown> }>(
    '/tokens',
    { config: handles('creates'), schema: createSchema },
    async (req, reply) => {
      const created = await createToken(deps, req.params.spaceId, caller(req), parseNewToken(req.body));
      reply.status(201);
      return created;
    },
  );
  app.patch<{ Params: PId; Body: Record<string, unknown> }>(
    '/tokens/:tokenId',
    { config: handles('changes'), schema: changeSchema },
    async (req) => {
      const body = req.body;
      if (typeof body !== 'object' || body === null || !('person' in body))
        throw invalidBody('Send { person: { name, email? } | null }.', { details: { member: 'person' } });
      const person = parsePerson(body.person);
      return {
        token: await changeTokenPerson(deps, req.params.spaceId, req.params.tokenId, caller(req), person),
      };
    },
  );
  app.delete<{ Params: PId }>(
    '/tokens/:tokenId',
    { config: handles('revokes'), schema: revokeSchema },
    async (req) => revokeToken(deps, req.params.spaceId, req.params.tokenId, caller(req)),
  );
}

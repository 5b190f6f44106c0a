import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TokenRow } from '../store/tokens-repo.js';
import type { AppServices } from '../app/services.js';
import { unauthorized } from '../errors/errors.js';
import { createToken, listTokenViews, parseNewToken, revokeToken, type TokenOpsDeps } from './token-ops.js';

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
  },
} as const;

const admin = { scopes: ['tokens.admin'] } as const;

/** The token that authenticated the request (the management plugin's auth hook ran before any handler). */
function caller(request: FastifyRequest): TokenRow {
  const token = request.managementToken;
  if (!token) throw unauthorized('A management token is required.');
  return token;
}

/** The token API (issue 11), `tokens.admin` only: list, create (the value shown once), revoke. */
export async function tokenRoutes(app: FastifyInstance, opts: { services: AppServices }): Promise<void> {
  const deps: TokenOpsDeps = { store: opts.services.store, tokens: opts.services.tokens };
  app.get<{ Params: P }>('/tokens', { config: admin }, async (req) => ({
    tokens: await listTokenViews(deps, req.params.spaceId),
  }));
  app.post<{ Params: P; Body: Record<string, unknown> }>(
    '/tokens',
    { config: admin, schema: { body: createTokenSchema } },
    async (req, reply) => {
      const created = await createToken(deps, req.params.spaceId, caller(req), parseNewToken(req.body));
      reply.status(201);
      return created;
    },
  );
  app.delete<{ Params: PId }>('/tokens/:tokenId', { config: admin }, async (req) =>
    revokeToken(deps, req.params.spaceId, req.params.tokenId, caller(req).id),
  );
}

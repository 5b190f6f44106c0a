// The inbox in the browser: its page and built files at /inbox/, and the session a management token
// is exchanged for at /inbox/session. Everything the page shows it reads from the management API with the
// session cookie: no data route of its own.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppServices } from '../app/services.js';
import { scopesOf } from '../auth/scopes.js';
import { defaultLocale } from '../content/locales.js';
import { invalidBody, notFound, unauthorized, unavailable } from '../errors/errors.js';
import {
  BODY_ERRORS,
  errors,
  json,
  media,
  NO_SECURITY,
  object,
  pathParams,
  type RouteDoc,
  S,
} from '../lib/api-schema.js';
import { getSpace } from '../store/spaces-repo.js';
import type { TokenRow } from '../store/tokens-repo.js';
import { INBOX_HEADERS } from './headers.js';
import { type InboxSessions, refuseCrossSite } from './sessions.js';
import { loadUiFiles, type UiFile } from './ui-files.js';

const SESSION_SECURITY = [{ inboxSession: [] }] as const;

const sessionInfo = object(
  {
    spaceId: S.string,
    space: object({ name: S.string, timeZone: S.string, defaultLocale: S.string }),
    token: object({ id: S.string, name: S.nullableString, hint: S.string }),
    person: {
      type: ['object', 'null'],
      properties: { id: S.string, name: S.string, email: S.nullableString },
      description: "The person the token stands for (their id is the token's); null for a tool's token.",
    },
    scopes: S.describe(
      S.strings,
      "The token's scopes: what the page offers (the API checks them regardless).",
    ),
    csrfToken: S.describe(
      S.string,
      'Send it as `X-Folio-CSRF` with every unsafe request made with the session.',
    ),
    expiresAt: S.describe(
      S.dateTime,
      'When the session ends unless used (12 h idle), never past its absolute end (7 days after sign-in by default).',
    ),
  },
  undefined,
  'The signed-in session.',
);

const ui = (doc: RouteDoc, ...codes: Parameters<typeof errors>) => ({
  tags: ['inbox'],
  security: NO_SECURITY,
  ...doc,
  response: { ...errors(...codes), ...doc.response },
});

const MAX_TOKEN_LENGTH = 200;

/** `{ token }` and nothing else (STYLE.md rule 13). */
function parseSignIn(body: unknown): string {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalidBody('The body must be a JSON object { token }.');
  for (const member of Object.keys(body))
    if (member !== 'token')
      throw invalidBody(`Unknown member "${member.slice(0, 60)}".`, { details: { member } });
  const token = (body as { token?: unknown }).token;
  if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH)
    throw invalidBody('"token" must be a management token.', { details: { member: 'token' } });
  return token.trim();
}

export async function inboxRoutes(
  app: FastifyInstance,
  opts: { services: AppServices; sessions: InboxSessions },
): Promise<void> {
  const { store, tokens } = opts.services;
  const { sessions } = opts;
  const files = loadUiFiles();

  app.addHook('onSend', async (_request, reply, payload) => {
    reply.headers(INBOX_HEADERS);
    return payload;
  });

  const info = async (id: string, token: TokenRow, expiresAt: string) => {
    const space = await getSpace(store, token.spaceId);
    if (!space) throw unauthorized('The session has ended.');
    return {
      spaceId: space.id,
      space: {
        name: space.name,
        timeZone: space.settings.timeZone,
        defaultLocale: defaultLocale(space.settings),
      },
      token: { id: token.id, name: token.name, hint: token.hint },
      person: token.person === null ? null : { id: token.id, ...token.person },
      scopes: [...scopesOf(token)],
      csrfToken: sessions.csrfToken(id),
      expiresAt,
    };
  };
  const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

  app.post(
    '/inbox/session',
    {
      bodyLimit: 4096,
      // A form on another site may post here (a login CSRF): refused before the body is read.
      onRequest: async (request) => refuseCrossSite(request),
      schema: ui(
        {
          summary: 'Sign in to the inbox with a management token',
          description:
            'Body `{ token }` (a management token). Answers the session and sets its cookie (`__Host-folio_inbox` when PUBLIC_URL is https, else `folio_inbox`): HttpOnly, SameSite=Strict, Secure over HTTPS, ended after 12 h unused (requests the page marks `Folio-Background: 1` do not count as use) and 7 days after sign-in (INBOX_SESSION_MAX_AGE_HOURS). The token is not kept by the page. Cross-site posts are 403.',
          body: object({ token: S.string }),
          response: { 201: json('Signed in.', object({ session: sessionInfo })) },
        },
        ...BODY_ERRORS,
        'unauthorized',
        'forbidden',
      ),
    },
    async (request, reply) => {
      const value = parseSignIn(request.body);
      const token = await tokens.find(value);
      if (!token || token.kind !== 'management')
        throw unauthorized(
          'This token cannot open the inbox: it is unknown, revoked, or not a management token.',
        );
      // A browser signing in again leaves no session of its own behind.
      await sessions.close(request);
      const session = await sessions.open(token);
      noStore(reply).header('set-cookie', sessions.cookie(request, session.id));
      return reply.status(201).send({ session: await info(session.id, token, session.expiresAt) });
    },
  );

  app.get(
    '/inbox/session',
    {
      onRequest: async (request) => refuseCrossSite(request),
      schema: ui(
        {
          summary: 'The inbox session of this browser',
          security: [...SESSION_SECURITY],
          response: { 200: json('The session.', object({ session: sessionInfo })) },
        },
        'unauthorized',
        'forbidden',
      ),
    },
    async (request, reply) => {
      const current = await sessions.current(request);
      if (!current) throw unauthorized('Not signed in, or the session has ended.');
      noStore(reply);
      return { session: await info(current.id, current.token, current.session.expiresAt) };
    },
  );

  app.delete(
    '/inbox/session',
    {
      schema: ui(
        {
          summary: 'Sign out of the inbox',
          description:
            'Ends the session on the server and clears the cookie. Needs `X-Folio-CSRF` with a session; without one there is nothing to end: 200 with `signedOut: false` (the cookie is cleared all the same).',
          // Signing out needs no session: the answer says whether one was ended.
          security: [...SESSION_SECURITY, {}],
          response: { 200: json('Signed out.', object({ signedOut: S.boolean })) },
        },
        'forbidden',
      ),
    },
    async (request, reply) => {
      // The CSRF check of every unsafe request made with the session; no session: nothing to end.
      const token = await sessions.authenticate(request);
      const signedOut = token !== null && (await sessions.close(request));
      noStore(reply).header('set-cookie', sessions.clearedCookie(request));
      return { signedOut };
    },
  );

  const send = (request: FastifyRequest, reply: FastifyReply, file: UiFile, cache: string) => {
    reply.header('content-type', file.type).header('cache-control', cache).header('etag', file.etag);
    reply.header('vary', 'accept-encoding');
    if (request.headers['if-none-match'] === file.etag) return reply.status(304).send();
    const gzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    if (gzip) reply.header('content-encoding', 'gzip');
    return reply.send(gzip ? file.gzip : file.body);
  };

  app.get(
    '/inbox',
    {
      schema: ui(
        {
          summary: 'The inbox page',
          description:
            'The forms inbox for people (README "The inbox"): sign in with a management token. Strict CSP, never framed.',
          response: {
            200: media('The page.', { 'text/html': { type: 'string' } }),
            304: { description: 'Not modified.', type: 'null' },
          },
        },
        'unavailable',
      ),
    },
    async (request, reply) => {
      if (!files) throw unavailable('The inbox is not built: run `npm run build`.');
      return send(request, reply, files.index, 'no-cache');
    },
  );

  app.get<{ Params: { file: string } }>(
    '/inbox/assets/:file',
    {
      schema: ui(
        {
          summary: "The inbox page's script and style",
          params: pathParams({ file: 'A built file (its name carries a hash of its content).' }),
          response: {
            200: media('The file, cached for a year.', {
              'text/javascript': { type: 'string' },
              'text/css': { type: 'string' },
            }),
            304: { description: 'Not modified.', type: 'null' },
          },
        },
        'not_found',
      ),
    },
    async (request, reply) => {
      const file = files?.assets.get(request.params.file);
      if (!file) throw notFound('No such file of the inbox.');
      return send(request, reply, file, 'public, max-age=31536000, immutable');
    },
  );
}

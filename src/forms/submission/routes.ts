import { cacheHeaders } from '../../delivery/cache-headers.js';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Store } from '../../store/open-store.js';
import { rejectUnknown } from '../../delivery/params.js';
import type { AppServices } from '../../app/services.js';
import { toFolioError } from '../../errors/from-fastify.js';
import { prepareErrorReply } from '../../lib/error-reply.js';
import { rateLimited, unsupportedMediaType } from '../../errors/errors.js';
import { deriveKey } from '../../store/secrets-repo.js';
import { registerSubmissionParsers, type SubmissionBody } from './body-parsers.js';
import { formByKey } from '../delivery/deliver-service.js';
import { FormSource } from '../delivery/form-source.js';
import { type Kv, MemoryKv, PooledKv, RedisKv } from '../../kv/kv.js';
import { workerLink } from '../../cluster/worker-pool.js';
import { FormLimits } from './rate-limits.js';
import {
  errorRedirect,
  isPlainHtmlPost,
  pageBack,
  successRedirect,
  wantsFormAgain,
  wantsHtmlPage,
} from './respond.js';
import { formAgainPage } from './hosted-page.js';
import { newNonce, pageHeaders } from './page-shell.js';
import { DRAFT_CODES, keepDraft } from './drafts.js';
import { draftRoutes } from './draft-routes.js';
import { failurePage, fieldErrorsOf, pageWords, successPage } from './result-page.js';
import { type SubmitDeps, submitForm } from './submit.js';
import { TurnstileVerifier } from './turnstile.js';
import { uploadRoutes } from '../uploads/upload-routes.js';
import { ClaimWindow, type Visitor, Visitors } from '../../ratelimit/visitors.js';
import { currentSpace } from '../delivery/current-space.js';
import { deliveryJson, LOCALE_CV_QUERY, NOT_MODIFIED } from '../../delivery/schemas.js';
import { deliveryRead, media, noBody, queryParams } from '../../lib/api-schema.js';
import { FORM_PARAMS, formBody, formPost, submissionBody, submitResult } from '../authoring/schemas.js';

type Params = { spaceId: string; key: string };
type Query = Record<string, unknown>;

const formSchema = deliveryRead({
  summary: 'A form in a locale, its status evaluated now',
  description:
    'Closed, scheduled and full forms are delivered too (sites show `closedMessage`). Never delivered: secrets, notification settings, retention, capacity, `uniqueField`.',
  tags: ['delivery', 'forms'],
  params: FORM_PARAMS,
  querystring: queryParams(LOCALE_CV_QUERY),
  response: { 200: deliveryJson('The form.', formBody), 304: NOT_MODIFIED },
});

const submitSchema = formPost(
  {
    summary: 'Submit a form',
    description:
      "JSON, form data or multipart; the token in `Authorization` or, for plain HTML forms, `?token=`. Checks in order: token and origin, rate limits, the body (413 over 64 KB), the form (404), its status (409), the values' size (422 `submission_too_large`), the spam trap (kept as spam only with a valid Turnstile token on Turnstile forms), the values (422 `validation_failed`, `details.fields`), Turnstile, then storage (409 `form_full`, `already_submitted`). A form-encoded post without `Accept: application/json` may answer 303 to `_redirect` (or, failing, `_redirect_error`), or an HTML page to browsers, errors included.",
    params: FORM_PARAMS,
    body: submissionBody,
    response: {
      200: media("Accepted (or caught by the spam trap): the success message in the visitor's language.", {
        'application/json': submitResult,
        'text/html': { type: 'string', description: 'A minimal page, for browser form posts.' },
      }),
      303: noBody(
        'Plain HTML posts: to `_redirect` (success) or `_redirect_error` (failure, with `error=<code>`).',
      ),
    },
  },
  'invalid_body',
  'too_large',
  'unsupported_media_type',
  'already_submitted',
  'submission_too_large',
);

function header(request: FastifyRequest, name: 'referer' | 'user-agent'): string | null {
  const value = request.headers[name];
  return typeof value === 'string' ? value : null;
}

/**
 * Counters and single-use keys in the app's one Redis connection (the edge owns it: src/cluster/redis-link.ts,
 * whose commands fail at once when Redis is down, so limits count per instance and Turnstile fails closed), or
 * without Redis in memory, shared with the other workers of a pool (`WORKERS`) through its primary.
 */
function openKv(app: FastifyInstance): Kv {
  const link = app.folioEdge.redis;
  if (link !== null) return new RedisKv(link.client, `${link.prefix}forms:`, false);
  const workers = workerLink();
  return workers === null ? new MemoryKv() : new PooledKv(workers);
}

/**
 * The public form endpoints under /v1/<spaceId> (spec 4.4): the definition (a delivery read, cached per cv by the
 * pipeline) and submissions (authenticated by the pipeline, limited per visitor and form, never cached).
 */
export async function formRoutes(app: FastifyInstance, opts: { services: AppServices }): Promise<void> {
  const { services } = opts;
  const { config, store, masterKey } = services;
  const clock = services.clock ?? (() => new Date());
  const kv = openKv(app);
  app.addHook('onClose', async () => kv.close());
  const warn = (what: string) => (err: unknown) => app.log.warn({ err }, `forms: ${what}`);

  const forms = new FormSource(store);
  const visitors = new Visitors(masterKey, config.visitors.ipv6Prefix);
  const claims = new ClaimWindow(config.visitors.claimsPerMinute);
  const limits = new FormLimits(
    kv,
    { perVisitor: config.rateLimitVisitorPerMinute, perForm: config.rateLimitFormPerMinute },
    deriveKey(masterKey, 'form-limits'),
    warn('rate limit store unavailable, counting per instance'),
  );
  const deps: SubmitDeps = {
    store,
    forms,
    turnstile: new TurnstileVerifier({
      verifyUrl: config.turnstileVerifyUrl,
      timeoutMs: config.turnstileTimeoutMs,
      kv,
      hashKey: deriveKey(masterKey, 'turnstile'),
      onError: warn('turnstile verification failed'),
    }),
  };

  app.get<{ Params: Params; Querystring: Query }>(
    '/v1/:spaceId/forms/:key',
    { config: { delivery: 'read' }, schema: formSchema },
    async (request, reply) => {
      rejectUnknown(request.query, ['locale', 'cv']);
      const { body, pinned } = await formByKey(forms, store, {
        spaceId: request.params.spaceId,
        key: request.params.key,
        query: request.query,
        now: clock(),
      });
      const { spaceId, key } = request.params;
      // A form's status moves with the clock and its submissions: tagged by the form, ending at its next transition.
      cacheHeaders(reply, { view: { mode: 'published', cv: body.cv }, pinned }, spaceId, {
        forms: [{ key, opensAt: body.form.opensAt, closesAt: body.form.closesAt }],
      });
      return body;
    },
  );

  // Who the visitor is (src/ratelimit/visitors.ts): a server-side token's claim (Folio-Visitor-Ip) counts only on
  // a form that trusts its site, so the form is read only for a request that could claim at all. Resolved once
  // per request: the limit and Turnstile see the same visitor.
  const resolved = new WeakMap<FastifyRequest, Promise<Visitor>>();
  const visitorOf = (request: FastifyRequest): Promise<Visitor> => {
    let visitor = resolved.get(request);
    if (visitor === undefined) {
      const { spaceId, key } = request.params as Params;
      visitor =
        request.deliveryToken?.serverSide === true
          ? currentSpace(store, spaceId)
              .then((space) => (space ? forms.load(space.id, key, space.cv) : null))
              .then((form) => visitors.of(request, form?.definition.settings.trustVisitorIp === true, claims))
          : Promise.resolve(visitors.connection(request));
      resolved.set(request, visitor);
    }
    return visitor;
  };

  // spec 8: per visitor (submissions and uploads together) and, for submissions, per form; runs after the
  // pipeline's auth.
  const limitFor =
    (perForm: boolean) =>
    async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      const { spaceId, key } = request.params as Params;
      const byVisitor = await limits.visitor(spaceId, (await visitorOf(request)).key);
      const outcome = byVisitor.ok && perForm ? await limits.form(spaceId, key) : byVisitor;
      if (outcome.ok) return;
      reply.header('retry-after', String(outcome.retryAfterSeconds));
      throw rateLimited(`Too many requests; retry in ${outcome.retryAfterSeconds} s.`);
    };
  const limit = limitFor(true);

  await app.register(uploadRoutes, {
    deps: { store, blobs: services.blobs, forms, turnstile: deps.turnstile },
    limit: limitFor(false),
    visitorIp: async (request) => (await visitorOf(request)).address,
    clock,
  });

  await app.register(draftRoutes, { store, clock });

  await app.register(async (scope) => {
    registerSubmissionParsers(scope);
    scope.setErrorHandler(submissionErrorHandler({ store, forms, clock }));
    scope.post<{ Params: Params; Querystring: Query }>(
      '/v1/:spaceId/forms/:key/submissions',
      { config: { delivery: 'form' }, preHandler: limit, schema: submitSchema },
      async (request, reply) => {
        rejectUnknown(request.query, []);
        const body = request.body as SubmissionBody | undefined;
        if (!body) {
          throw unsupportedMediaType('Send JSON, application/x-www-form-urlencoded or multipart/form-data.');
        }
        const result = await submitForm(deps, {
          spaceId: request.params.spaceId,
          formKey: request.params.key,
          body: body.values,
          referer: header(request, 'referer'),
          userAgent: header(request, 'user-agent'),
          remoteIp: (await visitorOf(request)).address,
          now: clock(),
          plain: isPlainHtmlPost(request),
        });
        reply.header('cache-control', 'no-store');
        if (isPlainHtmlPost(request)) {
          const origins = request.deliveryToken?.origins ?? [];
          const target = successRedirect(body, origins);
          if (target !== null) return reply.redirect(target, 303);
          if (wantsHtmlPage(request)) {
            const { spaceId, key } = request.params;
            const words = await pageWords({ store, forms }, spaceId, key, body.values);
            const back = pageBack(body, header(request, 'referer'), origins);
            const nonce = newNonce();
            return reply
              .headers(pageHeaders(nonce, origins))
              .send(successPage(words, result.successMessage, back, nonce));
          }
        }
        return result;
      },
    );
  });
}

/**
 * Errors of a submission answer like every error (spec 7.1), except for plain HTML posts: Folio's own page with
 * the form again (errors beside fields, the typed values back) where the site cannot show one or the visitor is
 * over the rate limit; else a 303 back to the site with `?error=<code>` where the token allows it — plus
 * `fields=<key>:<code>,…` for field errors and, when the visitor's values were kept, `draft=<id>` (never a value in
 * the URL) — else a plain HTML page in the visitor's language for browser navigations.
 */
function submissionErrorHandler(deps: { store: Store; forms: FormSource; clock: () => Date }) {
  return async (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const folio = toFolioError(err);
    const body = request.body as SubmissionBody | undefined;
    const origins = request.deliveryToken?.origins ?? [];
    const { spaceId, key } = request.params as Params;
    const back = pageBack(body, header(request, 'referer'), origins);
    const retryHeader = Number(reply.getHeader('retry-after'));
    const retryAfter = Number.isFinite(retryHeader) && retryHeader > 0 ? retryHeader : null;
    const token = (request.query as Query)['token'];
    const target =
      body !== undefined && isPlainHtmlPost(request)
        ? errorRedirect(body, header(request, 'referer'), origins, folio.code)
        : null;
    if (
      body !== undefined &&
      wantsHtmlPage(request) &&
      request.deliveryToken !== null &&
      typeof token === 'string' &&
      wantsFormAgain(body, folio.code, target !== null)
    ) {
      const nonce = newNonce();
      const page = await formAgainPage(deps, {
        spaceId,
        formKey: key,
        body: body.values,
        error: folio,
        retryAfter,
        token,
        now: deps.clock(),
        nonce,
        back,
      }).catch((e: unknown) => void request.log.warn({ err: e }, 'forms: rendering the form again failed'));
      if (typeof page === 'string') {
        prepareErrorReply(request, reply, folio);
        return reply.status(folio.status).headers(pageHeaders(nonce, origins)).send(page);
      }
    }
    // Everything else answers as every route does: Fastify hands it to the root's handler (src/lib/error-reply.ts).
    if (target === null && !wantsHtmlPage(request)) throw err;
    prepareErrorReply(request, reply, folio);
    if (target !== null && body !== undefined) {
      const fields = Object.entries(fieldErrorsOf(folio)).map(([k, e]) => `${k}:${e.code}`);
      if (fields.length > 0) target.searchParams.set('fields', fields.join(','));
      const draft = DRAFT_CODES.has(folio.code)
        ? await keepDraft(deps, { spaceId, formKey: key, body: body.values, now: deps.clock() }).catch(
            (e: unknown) => void request.log.warn({ err: e }, 'forms: keeping a draft failed'),
          )
        : null;
      if (typeof draft === 'string') target.searchParams.set('draft', draft);
      return reply.redirect(target.href, 303);
    }
    const words = await pageWords(deps, spaceId, key, body?.values);
    const nonce = newNonce();
    return reply
      .status(folio.status)
      .headers(pageHeaders(nonce, origins))
      .send(failurePage(words, folio, retryAfter, back, nonce));
  };
}

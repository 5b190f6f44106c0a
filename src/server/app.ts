import type { Config } from '../config/config.js';
import { createServer } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyServerFactory, LogController } from 'fastify';
import { FrontDoor } from './fast-hit.js';
import type { AppDeps, AppServices } from '../app/services.js';
import { imageRoutes } from '../assets/image-routes.js';
import { registerScopeTable } from '../auth/route-scopes.js';
import { TokenCache } from '../auth/token-cache.js';
import { edgePlugin } from './edge-plugin.js';
import { listRoutes } from '../delivery/list/routes.js';
import { deliveryRoutes } from '../delivery/routes.js';
import { eraseRoutes } from '../forms/erase/routes.js';
import { formExportRoutes } from '../forms/export/routes.js';
import { formFileRoutes } from '../forms/inbox/file-routes.js';
import { formManagementRoutes } from '../forms/authoring/management-routes.js';
import { formOverviewRoutes } from '../forms/overview/routes.js';
import { formRoutes } from '../forms/submission/routes.js';
import { inboxPlugin } from '../inbox/plugin.js';
import { jobsPlugin } from '../wiring/jobs-plugin.js';
import { wireDomains } from '../wiring/publish.js';
import { json, NO_SECURITY, object, S } from '../lib/api-schema.js';
import { FOLIO_VERSION } from '../lib/version.js';
import { managementRoutes } from '../management/plugin.js';
import { menuRoutes } from '../menus/routes.js';
import { redirectRoutes } from '../delivery/redirect-routes.js';
import { embedderFor } from '../search/embedder.js';
import { searchRoutes } from '../search/routes.js';
import { syncRoutes } from '../sync/routes.js';
import { setEntryCacheBytes } from '../store/entry-version-cache.js';
import { loadMasterKey } from '../store/secrets-repo.js';
import { Metrics } from '../observability/metrics.js';
import { registerBodyTimeouts, timeoutOptions } from './body-timeouts.js';
import { deliveryPipeline } from './delivery-pipeline.js';
import { clientErrorHandler, expectationHandler } from './client-errors.js';
import { registerJsonBodyParser } from './json-body.js';
import { frameworkErrors, registerErrorHandlers } from './error-handler.js';
import { registerOpenApi } from './openapi.js';
import { registerRequestIdHeader, requestIdOf, serializeRequest } from './request-id.js';
import { registerWriteGuard } from './write-guard.js';

/**
 * TRUST_PROXY as Fastify takes it. A hop count becomes a function trusting the socket's peer and the next
 * `hops - 1` entries of X-Forwarded-For from the right (Fastify 5.12 trusts nothing for a bare number, since a count
 * cannot tell the proxy from a client that reached the port directly: docs/operations.md says to keep the port
 * private, or to list the proxies' addresses instead).
 */
function trustProxyOption(
  trust: Config['trustProxy'],
): false | string[] | ((address: string, hop: number) => boolean) {
  if (trust === false) return false;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return [...trust];
}

/**
 * Node's server as Fastify would make it (its lib/server.js: `http` options, timeouts), with the response cache's
 * front door listening before Fastify (src/server/fast-hit.ts).
 */
function serverWith(front: FrontDoor): FastifyServerFactory {
  return (handler, opts) => {
    const number = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);
    const server = createServer(
      typeof opts.http === 'object' && opts.http !== null ? opts.http : {},
      front.listener(handler),
    );
    server.keepAliveTimeout = number(opts.keepAliveTimeout) ?? server.keepAliveTimeout;
    server.requestTimeout = number(opts.requestTimeout) ?? server.requestTimeout;
    server.setTimeout(number(opts.connectionTimeout) ?? 0);
    const perSocket = number(opts.maxRequestsPerSocket) ?? 0;
    if (perSocket > 0) server.maxRequestsPerSocket = perSocket;
    return server;
  };
}

/** Builds the HTTP app on top of opened resources; the caller owns (and closes) the store. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  wireDomains();
  const front = new FrontDoor();
  const app = Fastify({
    serverFactory: serverWith(front),
    logger:
      deps.config.logLevel === 'silent'
        ? false
        : { level: deps.config.logLevel, serializers: { req: serializeRequest } },
    // A safe `X-Request-Id` from the caller, else a UUID: ids unique across instances, not per-process counters.
    genReqId: requestIdOf,
    trustProxy: trustProxyOption(deps.config.trustProxy),
    bodyLimit: 64 * 1024,
    // Fastify's default (0) turns Node's request timeout off; REQUEST_TIMEOUT_MS bounds it.
    requestTimeout: deps.config.requestTimeoutMs,
    http: timeoutOptions(deps.config.requestTimeoutMs),
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 2048 },
    // Errors raised before a route runs (routing, Node's HTTP parser) leave as the 7.1 envelope too.
    frameworkErrors,
    clientErrorHandler: clientErrorHandler(deps.config.requestTimeoutMs),
    // Per-request logs only at debug and trace: at info a busy instance would log every cache hit.
    logController: new LogController({
      disableRequestLogging: deps.config.logLevel !== 'debug' && deps.config.logLevel !== 'trace',
    }),
  });
  registerRequestIdHeader(app);
  registerErrorHandlers(app);
  // Writes stop once a newer Folio migrated the store under this instance (src/store/schema-guard.ts).
  registerWriteGuard(app, deps.store);
  // What shared caches are told (CDN_TAG_HEADER, CDN_MAX_AGE): read by every read's cache headers.
  app.decorate('folioCdn', deps.config.cdn);
  // Before the delivery pipeline's hook: a trickled body is timed from its start, even one refused by auth.
  registerBodyTimeouts(app, deps.config.bodyTimeoutMs);
  registerJsonBodyParser(app);
  // Management routes record what each needs here as they are added (src/auth/route-scopes.ts).
  registerScopeTable(app);
  // `Expect: 200-ok` and the like: the envelope, where Node answers a bare 417 (client-errors.ts).
  app.server.on('checkExpectation', expectationHandler);
  setEntryCacheBytes(deps.store, deps.config.entryCacheMb * 1024 * 1024);
  // Before any route: the OpenAPI document collects routes as they are added (GET /v1/openapi.json).
  await registerOpenApi(app, deps.config);
  const services: AppServices = {
    ...deps,
    tokens: new TokenCache(deps.store),
    embedder: deps.embedder ?? embedderFor(deps.config.embeddings),
    masterKey: await loadMasterKey(deps.store, deps.config.secret),
    metrics: new Metrics(),
  };
  const liveness = {
    summary: 'Liveness',
    description: 'While the process runs. Outside /v1, without a token: restrict it at the proxy.',
    tags: ['operations'],
    security: NO_SECURITY,
    response: {
      200: json(
        'The process runs; `version` is the running Folio (package.json), told apart during an upgrade.',
        object({ ok: S.boolean, version: S.string }),
      ),
    },
  };
  app.get('/healthz', { schema: liveness }, async () => ({ ok: true, version: FOLIO_VERSION }));
  app.addHook('onClose', async () => services.metrics.close());

  await app.register(deliveryPipeline, { services });
  // Rate limit and response cache stages, cv fan-out, /readyz and /metrics.
  await app.register(edgePlugin, { services, front });

  // The inbox in the browser: /inbox/, and the session cookie the management auth accepts.
  await app.register(inboxPlugin, { services });
  // Route plugins, one per domain. Public reads mark their routes `config: { delivery: 'read' }`.
  await app.register(deliveryRoutes, { services });
  await app.register(imageRoutes, { services });
  await app.register(listRoutes, { services });
  await app.register(syncRoutes, { services });
  await app.register(searchRoutes, { services });
  await app.register(formRoutes, { services });
  await app.register(formManagementRoutes, { services });
  await app.register(formFileRoutes, { services });
  await app.register(formExportRoutes, { services });
  await app.register(eraseRoutes, { services });
  await app.register(formOverviewRoutes, { services });
  await app.register(menuRoutes, { services });
  await app.register(redirectRoutes, { services });
  await app.register(managementRoutes, { services });
  // The outbox job runner in this process (webhooks now; email and chat with forms), unless FOLIO_WORKER=off.
  await app.register(jobsPlugin, { services });
  return app;
}

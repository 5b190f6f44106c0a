import Fastify, { type FastifyInstance } from 'fastify';
import { TokenCache } from '../auth/token-cache.js';
import type { BlobStore } from '../blobs/blob-store.js';
import { deliveryRoutes } from '../delivery/routes.js';
import type { Store } from '../store/open-store.js';
import type { Config } from './config.js';
import { registerErrorHandlers } from './error-handler.js';

export interface AppDeps {
  config: Config;
  store: Store;
  blobs: BlobStore;
}

/** What every route plugin gets: the opened resources and the shared token lookup. */
export interface AppServices extends AppDeps {
  tokens: TokenCache;
}

/** Builds the HTTP app on top of opened resources; the caller owns (and closes) the store. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.config.logLevel === 'silent' ? false : { level: deps.config.logLevel },
    trustProxy: deps.config.trustProxy,
    bodyLimit: 64 * 1024,
    maxParamLength: 2048,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    disableRequestLogging: deps.config.logLevel !== 'debug' && deps.config.logLevel !== 'trace',
  });
  registerErrorHandlers(app);
  const services: AppServices = { ...deps, tokens: new TokenCache(deps.store) };
  app.get('/healthz', async () => ({ ok: true }));

  // Route plugins, one per domain; each registers its own hooks in its own scope.
  await app.register(deliveryRoutes, { services });
  return app;
}

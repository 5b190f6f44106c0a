import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { TokenCache } from '../auth/token-cache.js';
import type { BlobStore } from '../blobs/blob-store.js';
import { deliveryRoutes } from '../delivery/routes.js';
import type { Store } from '../store/open-store.js';
import { loadMasterKey } from '../store/secrets-repo.js';
import type { Config } from './config.js';
import { deliveryPipeline } from './delivery-pipeline.js';
import { registerErrorHandlers } from './error-handler.js';

export interface AppDeps {
  config: Config;
  store: Store;
  blobs: BlobStore;
}

/** What every route plugin gets: the opened resources, the shared token lookup and the master key. */
export interface AppServices extends AppDeps {
  tokens: TokenCache;
  /** Derive per-purpose keys with `deriveKey(masterKey, 'cursor')` (src/store/secrets-repo.ts). */
  masterKey: Buffer;
}

/** Builds the HTTP app on top of opened resources; the caller owns (and closes) the store. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.config.logLevel === 'silent' ? false : { level: deps.config.logLevel },
    trustProxy: deps.config.trustProxy,
    bodyLimit: 64 * 1024,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 2048 },
    // Per-request logs only at debug and trace: at info a busy instance would log every cache hit.
    logController: new LogController({
      disableRequestLogging: deps.config.logLevel !== 'debug' && deps.config.logLevel !== 'trace',
    }),
  });
  registerErrorHandlers(app);
  const services: AppServices = {
    ...deps,
    tokens: new TokenCache(deps.store),
    masterKey: await loadMasterKey(deps.store, deps.config.secret),
  };
  app.get('/healthz', async () => ({ ok: true }));

  await app.register(deliveryPipeline, { services });

  // Route plugins, one per domain. Public reads mark their routes `config: { delivery: 'read' }`.
  await app.register(deliveryRoutes, { services });
  return app;
}

import AjvCompiler from '@fastify/ajv-compiler';
import type { FastifyInstance } from 'fastify';
import { managementAuth } from '../auth/management-auth.js';
import { declareScopes, routeScopes } from '../auth/route-scopes.js';
import { activityRoutes } from '../activity/management-routes.js';
import { assetRoutes } from '../assets/asset-routes.js';
import { menuManagementRoutes } from '../menus/management-routes.js';
import { redirectManagementRoutes } from '../redirects/management-routes.js';
import type { AppServices } from '../app/services.js';
import { webhookManagementRoutes } from '../webhooks/management-routes.js';
import { documentOnly } from '../lib/api-schema.js';
import { docRoutes } from './doc-routes.js';
import { entryRoutes } from './entry-routes.js';
import { tokenRoutes } from './token-routes.js';

// Bodies are checked as sent: no type coercion, no silently dropped members, no defaults filled in. Path and query
// parameters are checked by the routes (400 `invalid_query` naming the parameter): their schemas only document
// them (src/lib/api-schema.ts), as everywhere else.
const compile = AjvCompiler()(
  {},
  { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false, allErrors: false } },
);

/** Authored documents can be larger than a form submission (spec 8's 64 KB is for submissions). */
const MANAGEMENT_BODY_LIMIT = 1024 * 1024;

/**
 * The management API under /v1/spaces/<spaceId>/… (spec 4.5, 9.3): management tokens only, checked before
 * the body is read; never cached; not a delivery route (no delivery pipeline).
 */
export async function managementRoutes(app: FastifyInstance, opts: { services: AppServices }): Promise<void> {
  const { services } = opts;
  await app.register(
    async (scoped) => {
      if (!scoped.hasRequestDecorator('managementToken')) scoped.decorateRequest('managementToken', null);
      // The compiler takes the route definition (its types say a schema; its code reads `{ schema }`).
      scoped.setValidatorCompiler((route) =>
        route.httpPart === 'body'
          ? (compile as unknown as (r: typeof route) => ReturnType<typeof compile>)(route)
          : documentOnly(route),
      );
      scoped.addHook('onRoute', (route) => {
        route.bodyLimit ??= MANAGEMENT_BODY_LIMIT;
      });
      // Every route here is content management (`content.write`) unless it names its scopes (tokens, activity,
      // webhooks); declared per route, so docs/api.md's table is checked against what is enforced.
      declareScopes(scoped, { all: ['content.write'] });
      scoped.addHook('onRequest', managementAuth(services.tokens));
      scoped.addHook('onRequest', routeScopes);
      scoped.addHook('onSend', async (_request, reply, payload) => {
        reply.header('cache-control', 'no-store');
        return payload;
      });
      await scoped.register(entryRoutes, { services });
      await scoped.register(menuManagementRoutes, { services });
      await scoped.register(redirectManagementRoutes, { services });
      await scoped.register(docRoutes, { services });
      await scoped.register(webhookManagementRoutes, { services });
      await scoped.register(tokenRoutes, { services });
      await scoped.register(activityRoutes, { services });
      await scoped.register(assetRoutes, { services });
    },
    { prefix: '/v1/spaces/:spaceId' },
  );
}

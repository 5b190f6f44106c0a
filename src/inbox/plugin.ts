import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../app/services.js';
import { inboxRoutes } from './routes.js';
import { InboxSessions } from './sessions.js';

/**
 * The inbox in the browser: decorates the root with the session lookup the management auth asks when a
 * request has no `Authorization` header (src/auth/session-auth.ts), and serves /inbox/ in a scope of its own.
 */
export const inboxPlugin = fp(
  async (app: FastifyInstance, opts: { services: AppServices }) => {
    const { store, masterKey } = opts.services;
    const { config } = opts.services;
    const sessions = new InboxSessions(store, masterKey, opts.services.clock ?? (() => new Date()), {
      maxAgeMs: config.inboxSessionMaxAgeHours * 3_600_000,
      https: config.publicUrl.startsWith('https:'),
    });
    app.decorate('managementSessions', sessions);
    await app.register(inboxRoutes, { services: opts.services, sessions });
  },
  { name: 'folio-inbox' },
);

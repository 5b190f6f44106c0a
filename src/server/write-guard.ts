import type { FastifyInstance } from 'fastify';
import { unavailable } from '../errors/errors.js';
import { sendErrorReply } from '../lib/error-reply.js';
import type { Store } from '../store/open-store.js';

/** Methods that only read: still served by an instance whose store a newer Folio migrated. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Once a newer Folio migrated the store under this instance (src/store/schema-guard.ts), every write answers 503
 * `unavailable` before anything runs: a submission stored by this older code would lack what the newer code
 * derives, and a load balancer retries it on a newer instance. Reads go on; the reason was logged once.
 */
export function registerWriteGuard(app: FastifyInstance, store: Store): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (store.writesRefused === null || READS.has(request.method)) done();
    else sendErrorReply(request, reply, unavailable(undefined, { details: { retryAfter: 5 } }));
  });
}

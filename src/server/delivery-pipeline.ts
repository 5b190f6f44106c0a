import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { deliveryAuth } from '../auth/delivery-auth.js';
import type { AppServices } from '../app/services.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Marks a public delivery route under /v1/<spaceId>: `'read'` for GETs (authenticated, rate limited per
     * token, cached per cv), `'form'` for form posts (authenticated; their own limits, never cached).
     */
    delivery?: 'read' | 'form';
  }
}

/** A stage may answer synchronously (no promise on a cache hit's hot path); the pipeline awaits either. */
export type DeliveryStage = (
  request: FastifyRequest,
  reply: FastifyReply,
) => Promise<void | FastifyReply> | void | FastifyReply;

/**
 * The pipeline every public delivery request passes (DESIGN.md picture): auth → rate limit → cache. It is one
 * root-level hook so routes of every domain (entries, lists, menus, forms) get it by marking their route
 * `config: { delivery: 'read' }`. Later stages are added with `app.addDeliveryStage(stage)`, in order.
 *
 * It is an `onRequest` hook, Fastify's first (params and query are parsed by then): a cache hit is answered
 * before body parsing, the input guard and schema validation run (less CPU per hit: docs/operations.md, "Figures
 * behind the code"), and
 * a form post is authenticated and rate limited before its body is read.
 */
export const deliveryPipeline = fp(
  async (app: FastifyInstance, opts: { services: AppServices }) => {
    const stages: DeliveryStage[] = [
      deliveryAuth(opts.services.tokens, new URL(opts.services.config.publicUrl).origin),
    ];
    app.decorate('addDeliveryStage', (stage: DeliveryStage) => {
      stages.push(stage);
    });
    app.decorateRequest('deliveryToken', null);
    // A callback hook, not an async one: a request whose stages all answer synchronously (an L1 hit with its token
    // cached) creates no promise and waits for no microtask between the request and the bytes.
    app.addHook('onRequest', (request, reply, done) => {
      if (!request.routeOptions.config.delivery) return done();
      runStages(stages, 0, request, reply, done);
    });
  },
  { name: 'delivery-pipeline' },
);

/**
 * Runs the stages from `from` on, synchronously while they answer synchronously. A stage that answered (a cache hit
 * returns the reply, or has sent it) ends the request: `done` is not called, as Fastify wants of a hook that
 * replied. A thrown or rejected stage passes its error to Fastify.
 */
function runStages(
  stages: readonly DeliveryStage[],
  from: number,
  request: FastifyRequest,
  reply: FastifyReply,
  done: (err?: Error) => void,
): void {
  for (let i = from; i < stages.length; i++) {
    let result: ReturnType<DeliveryStage>;
    try {
      result = stages[i]!(request, reply);
    } catch (err) {
      return done(err instanceof Error ? err : new Error(String(err)));
    }
    if (result === reply) return;
    if (result !== undefined) {
      result.then(
        (answered) => {
          if (answered !== reply && !reply.sent) runStages(stages, i + 1, request, reply, done);
        },
        (err: unknown) => done(err instanceof Error ? err : new Error(String(err))),
      );
      return;
    }
    if (reply.sent) return;
  }
  done();
}

declare module 'fastify' {
  interface FastifyInstance {
    addDeliveryStage(stage: DeliveryStage): void;
  }
}

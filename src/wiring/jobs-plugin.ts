import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppServices } from '../app/services.js';
import type { JobRunner } from '../jobs/runner.js';
import { queueStaleSearchIndexes } from '../search/indexer.js';
import { createJobRunner } from './jobs.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The in-process job runner (null with FOLIO_WORKER=off, when `folio worker` processes run the jobs). */
    jobs: JobRunner | null;
  }
}

/**
 * Runs the outbox in the server process on the embedded default (DESIGN.md "two deployment modes"): started
 * when the app is ready, stopped before it closes (jobs in hand finish first; the rest wait in the store).
 */
export const jobsPlugin = fp(
  async (app: FastifyInstance, opts: { services: AppServices }) => {
    const { store, blobs, config, embedder } = opts.services;
    const runner = config.worker
      ? createJobRunner(
          {
            store,
            blobs,
            config,
            embedder,
            log: {
              error: (details, message) => app.log.error(details, message),
              warn: (details, message) => app.log.warn(details, message),
            },
          },
          {
            observer: opts.services.metrics,
            ...(opts.services.clock ? { clock: opts.services.clock } : {}),
          },
        )
      : null;
    app.decorate('jobs', runner);
    app.addHook('onReady', async () => {
      if (!runner) return;
      runner.start();
      // A new embedding model, or indexing a crash cut short, is caught up without waiting for a publish.
      await queueStaleSearchIndexes(store, embedder.model);
    });
    app.addHook('preClose', async () => runner?.stop());
  },
  { name: 'jobs' },
);

import type { BlobStore } from '../blobs/blob-store.js';
import { deleteActivityBefore } from '../activity/activity-repo.js';
import { sweepDerivedImages } from '../assets/derived-images.js';
import { sweepRetention } from '../forms/retention/sweeps.js';
import { deleteExpiredDrafts } from '../forms/submission/drafts-repo.js';
import type { Config } from '../config/config.js';
import { DAY_MS } from '../lib/time.js';
import type { Store } from '../store/open-store.js';
import { listJobHandlers } from '../delivery/list/list-jobs.js';
import { type Embedder, embedderFor } from '../search/embedder.js';
import { searchJobHandlers } from '../search/indexer.js';
import { notifyJobHandlers } from '../forms/notify/handlers.js';
import { webhookJobHandlers } from '../webhooks/handlers.js';
import { deleteDeliveriesBefore } from '../webhooks/webhooks-repo.js';
import { type JobHandler, JobRunner, type RunnerLog, type RunnerOptions } from '../jobs/runner.js';

export interface WorkerDeps {
  store: Store;
  /** Sweeps delete upload files with their rows, and derived images of deleted assets. */
  blobs: BlobStore;
  config: Config;
  /** Embeds for the semantic index; default: the configuration's, shared in the process. */
  embedder?: Embedder;
  log?: RunnerLog;
}

/**
 * The job handlers of every domain, by job kind. Domains add theirs here: webhooks (`event` fan-out and
 * `webhook` delivery), email and chat posts, the search index merge after an import, and semantic indexing.
 */
export function buildJobHandlers(deps: WorkerDeps): Map<string, JobHandler> {
  return new Map<string, JobHandler>([
    ...webhookJobHandlers({ store: deps.store, allowPrivate: deps.config.webhookAllowPrivate }),
    ...notifyJobHandlers({ store: deps.store, config: deps.config }),
    ...listJobHandlers({ store: deps.store }),
    ...searchJobHandlers({
      store: deps.store,
      embedder: deps.embedder ?? embedderFor(deps.config.embeddings),
    }),
  ]);
}

/** Delivery attempts are kept 30 days (enough to debug an endpoint; the table would grow without bound). */
const KEEP_DELIVERIES_MS = 30 * DAY_MS;

/** A runner with every domain's handlers (`folio serve` in-process, `folio worker`, tests with options). */
export function createJobRunner(deps: WorkerDeps, options: Partial<RunnerOptions> = {}): JobRunner {
  return new JobRunner(deps.store, {
    leaseMs: deps.config.jobLeaseSeconds * 1000,
    ...(deps.config.jobConcurrency === undefined ? {} : { concurrency: deps.config.jobConcurrency }),
    handlers: buildJobHandlers(deps),
    sweeps: [
      (now) => deleteDeliveriesBefore(deps.store, new Date(now.getTime() - KEEP_DELIVERIES_MS)),
      // spec 3.2, 3.3: expired submissions and unclaimed uploads, with their files and mail files.
      (now) => sweepRetention(deps.store, { blobs: deps.blobs, mailDir: deps.config.mail.outboxDir }, now),
      // Plain posts' drafts past their ten minutes; each new draft also clears expired ones.
      (now) => deleteExpiredDrafts(deps.store.db, now),
      // The activity log's own retention (ACTIVITY_RETENTION_DAYS, default a year).
      (now) =>
        deleteActivityBefore(
          deps.store,
          new Date(now.getTime() - deps.config.activityRetentionDays * DAY_MS),
        ),
      // The planner's statistics of the inbox's table (SQLite keeps none unless asked).
      () => deps.store.dialect.refreshStatistics(deps.store.db),
      // Derived images of deleted or replaced assets, and the byte budget.
      () =>
        sweepDerivedImages(deps.store, deps.blobs, {
          maxBytes: deps.config.images.cacheMaxBytes,
          perAsset: deps.config.images.variantsPerAsset,
        }),
    ],
    ...(deps.log ? { log: deps.log } : {}),
    ...options,
  });
}

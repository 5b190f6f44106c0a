import { enqueueJob } from '../jobs/outbox-repo.js';
import type { Queryable } from '../store/spaces-repo.js';

/**
 * Indexing on publish (issue 13): a publish in a space with AI switched on queues this job in its transaction;
 * the job runner embeds every version published since the index's cv (src/search/indexer.ts), never the request.
 */
export const SEARCH_INDEX_JOB = 'search-index';

/** Queues indexing of `spaceId` in the caller's transaction (a publish, an import). */
export async function queueSearchIndex(db: Queryable, spaceId: string): Promise<void> {
  await enqueueJob(db, { spaceId, kind: SEARCH_INDEX_JOB, payload: {} });
}

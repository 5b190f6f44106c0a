import { enqueueJob } from '../jobs/outbox-repo.js';
import type { PublishHooks } from '../content/publish-hooks.js';
import type { Store } from '../store/open-store.js';
import { type Queryable, readRawSettings } from '../store/spaces-repo.js';

/**
 * Indexing on publish: a publish in a space with AI switched on queues this job in its transaction;
 * the job runner embeds every version published since the index's cv (src/search/indexer.ts), never the request.
 */
export const SEARCH_INDEX_JOB = 'search-index';

/** Queues indexing of `spaceId` in the caller's transaction (a publish, an import). */
export async function queueSearchIndex(db: Queryable, spaceId: string): Promise<void> {
  await enqueueJob(db, { spaceId, kind: SEARCH_INDEX_JOB, payload: {} });
}

/** Publishing's hook (src/content/publish-hooks.ts): every publish in a space with AI switched on queues indexing. */
export const searchPublishHooks: PublishHooks = {
  async published(tx, store, spaceId) {
    if (await aiSwitchedOn(tx, store, spaceId)) await queueSearchIndex(tx, spaceId);
  },
};

async function aiSwitchedOn(db: Queryable, store: Store, spaceId: string): Promise<boolean> {
  const raw = await readRawSettings(db, spaceId);
  if (raw === undefined) return false;
  const settings: unknown = store.dialect.parseJson<unknown>(raw);
  return typeof settings === 'object' && settings !== null && (settings as { ai?: unknown }).ai === true;
}

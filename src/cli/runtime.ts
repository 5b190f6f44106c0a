import type { BlobStore } from '../blobs/blob-store.js';
import { openBlobStore } from '../blobs/open-blob-store.js';
import type { Config } from '../config/config.js';
import { LIST_REINDEX } from '../delivery/list/list-write-repo.js';
import { SUBMISSION_ADDRESSES_REINDEX } from '../forms/submission/addresses-repo.js';
import { INBOX_SEARCH_REINDEX } from '../forms/inbox/backfill-repo.js';
import type { ReindexStep } from '../store/reindex.js';
import { DEPS_REINDEX } from '../sync/deps-hooks.js';
import { openStore, type Store } from '../store/open-store.js';

export interface Runtime {
  config: Config;
  store: Store;
  blobs: BlobStore;
  close(): Promise<void>;
}

/**
 * The data backfills every command runs after the migrations (src/store/reindex.ts): the list tables, the
 * normalised addresses of submissions stored before those were kept (erase finds submissions by them), the
 * dependency index of versions published before it existed, and the folded search copy and chosen options of
 * submissions stored before they were kept.
 */
export const REINDEX_STEPS: readonly ReindexStep[] = [
  LIST_REINDEX,
  SUBMISSION_ADDRESSES_REINDEX,
  DEPS_REINDEX,
  INBOX_SEARCH_REINDEX,
];

/** Opens what every command shares, from the same env config (so `import` and `serve` see the same data). */
export async function openRuntime(config: Config): Promise<Runtime> {
  const store = await openStore(config.store, { keepVersions: config.keepVersions, reindex: REINDEX_STEPS });
  const blobs = openBlobStore(config.blobs);
  const close = async (): Promise<void> => {
    try {
      await store.close();
    } finally {
      await blobs.close();
    }
  };
  return { config, store, blobs, close };
}

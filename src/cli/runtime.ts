import type { BlobStore } from '../blobs/blob-store.js';
import { openBlobStore } from '../blobs/open-blob-store.js';
import type { Config } from '../config/config.js';
import { LIST_REINDEX } from '../delivery/list/list-write-repo.js';
import { openStore, type Store } from '../store/open-store.js';

export interface Runtime {
  config: Config;
  store: Store;
  blobs: BlobStore;
  close(): Promise<void>;
}

/** Opens what every command shares, from the same env config (so `import` and `serve` see the same data). */
export async function openRuntime(config: Config): Promise<Runtime> {
  const store = await openStore(config.store, { keepVersions: config.keepVersions, reindex: [LIST_REINDEX] });
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

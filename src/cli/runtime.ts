import type { BlobStore } from '../blobs/blob-store.js';
import { openBlobStore } from '../blobs/open-blob-store.js';
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Config, ConfigError } from '../config/config.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../lib/file-modes.js';
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
  const store = await openStore(config.store, {
    keepVersions: config.keepVersions,
    reindex: REINDEX_STEPS,
    // On stderr: a command's own output (a token, an export's path, sweep's counts) stays alone on stdout.
    log: (line) => console.error(line),
  });
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

/**
 * Fails at start when DATA_DIR cannot be written, on every engine: on PostgreSQL it still holds the local blobs,
 * the mail files and the demo tokens, and finding out at the first upload (a 500) is too late.
 */
export async function checkDataDir(dir: string): Promise<void> {
  const probe = join(dir, `.write-check-${randomBytes(6).toString('hex')}`);
  try {
    await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    await writeFile(probe, '', { mode: PRIVATE_FILE_MODE });
    await rm(probe, { force: true });
  } catch (err) {
    const code = typeof err === 'object' && err !== null ? Reflect.get(err, 'code') : undefined;
    throw new ConfigError(
      'DATA_DIR',
      `names ${dir}, which this process cannot write (${typeof code === 'string' ? code : (err as Error).message})`,
    );
  }
}

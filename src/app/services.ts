// What the composition root (src/server/app.ts) hands every route plugin. Types only: a domain folder imports
// this, never src/server/ (lint enforces it), so the arrows of the import graph all point away from the root.

import type { TokenCache } from '../auth/token-cache.js';
import type { BlobStore } from '../blobs/blob-store.js';
import type { Config } from '../config/config.js';
import type { Metrics } from '../observability/metrics.js';
import type { Embedder } from '../search/embedder.js';
import type { Store } from '../store/open-store.js';

/** The opened resources the app is built on; the caller owns (and closes) them. */
export interface AppDeps {
  config: Config;
  store: Store;
  blobs: BlobStore;
  /** The time source of time-dependent answers (form status, `today`); tests pin it. Default: the system clock. */
  clock?: () => Date;
  /** The semantic search model; default: the configured provider, one per process and configuration. */
  embedder?: Embedder;
}

/** What every route plugin gets: the opened resources, the shared token lookup and the master key. */
export interface AppServices extends AppDeps {
  embedder: Embedder;
  tokens: TokenCache;
  /** Derive per-purpose keys with `deriveKey(masterKey, 'cursor')` (src/store/secrets-repo.ts). */
  masterKey: Buffer;
  /** The app's Prometheus instruments (`/metrics`): the edge and the in-process job runner count into them. */
  metrics: Metrics;
}

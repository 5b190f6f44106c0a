import type { BlobsConfig } from '../config/config.js';
import { LocalDirBlobStore, type BlobStore } from './blob-store.js';
import { S3BlobStore } from './s3-blob-store.js';

/** The blob store the config names: the data directory by default, a bucket when S3_BUCKET is set. */
export function openBlobStore(config: BlobsConfig): BlobStore {
  switch (config.kind) {
    case 'local':
      return new LocalDirBlobStore(config.dir);
    case 's3':
      return new S3BlobStore(config);
  }
}

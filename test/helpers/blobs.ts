import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalDirBlobStore, type BlobStore } from '../../src/blobs/blob-store.js';
import { S3BlobStore } from '../../src/blobs/s3-blob-store.js';

export type BlobKind = 'local' | 's3';
export const BLOB_KINDS: BlobKind[] = ['local', 's3'];

export interface TestBlobs {
  blobs: BlobStore;
  kind: BlobKind;
  close(): Promise<void>;
}

/** The slice of s3rver 3.7's API used here: the package ships no type declarations. */
interface S3rverOptions {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string }[];
}
interface S3rver {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  readonly httpServer?: Server;
}
const S3rver = createRequire(import.meta.url)('s3rver') as new (options: S3rverOptions) => S3rver;

const BUCKET = 'folio-test';

/**
 * An empty blob store of the given kind: a fresh temp directory, or a real S3 server (s3rver) on loopback with a
 * fresh bucket in its own temp directory. `close()` closes the store, stops the server and removes the directory.
 */
export async function openTestBlobs(kind: BlobKind): Promise<TestBlobs> {
  const dir = mkdtempSync(join(tmpdir(), `folio-blobs-${kind}-`));
  if (kind === 'local') {
    const blobs = new LocalDirBlobStore(dir);
    return {
      blobs,
      kind,
      async close() {
        await blobs.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  // The SDK warns once per process that it will need Node 22 from 2027; that is for operators, not test output.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: BUCKET }],
  });
  let blobs: S3BlobStore;
  try {
    const { port } = await server.run();
    blobs = new S3BlobStore({
      kind: 's3',
      endpoint: `http://127.0.0.1:${port}`,
      bucket: BUCKET,
      region: 'us-east-1',
      // s3rver's built-in account.
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    blobs,
    kind,
    async close() {
      await blobs.close();
      // A test that left a response unread would keep its socket, and close() would wait for it forever.
      server.httpServer?.closeAllConnections();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

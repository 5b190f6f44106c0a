import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  S3Client,
  S3ServiceException,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable } from 'node:stream';
import type { BlobsConfig } from '../config/config.js';
import { assertBlobKey, type BlobStore } from './blob-store.js';

export type S3BlobsConfig = Extract<BlobsConfig, { kind: 's3' }>;

/** S3's smallest part size. An upload holds about PART_SIZE × (QUEUE_SIZE + 1) bytes, never the whole file. */
const PART_SIZE = 5 * 1024 * 1024;
const QUEUE_SIZE = 2;

/**
 * Blobs as private objects in one S3-compatible bucket (AWS, MinIO, s3rver, Ceph, R2). Objects get no ACL: the
 * bucket's policy (private) applies, and Folio serves the bytes itself.
 */
export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(config: S3BlobsConfig) {
    const options: S3ClientConfig = { region: config.region, forcePathStyle: config.forcePathStyle };
    if (config.endpoint !== null) options.endpoint = config.endpoint;
    // Without a key pair the SDK's default chain applies (AWS_* env, instance or task role).
    if (config.accessKeyId !== null && config.secretAccessKey !== null)
      options.credentials = { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey };
    this.client = new S3Client(options);
    this.bucket = config.bucket;
  }

  async put(
    key: string,
    data: Readable | Buffer,
    opts?: { contentType?: string },
  ): Promise<{ size: number }> {
    assertBlobKey(key);
    let size = Buffer.isBuffer(data) ? data.length : 0;
    const body = Buffer.isBuffer(data) ? data : counted(data, (n) => (size += n));
    const upload = new Upload({
      client: this.client,
      params: {
        Bucket: this.bucket,
        Key: key,
        Body: body,
        ...(opts?.contentType !== undefined && { ContentType: opts.contentType }),
      },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      // We abort ourselves: lib-storage's own abort, when it fails, replaces the source's error with its own.
      leavePartsOnError: true,
    });
    try {
      // All or nothing: data shorter than one part goes out as one PutObject only after the source has ended
      // (a complete body with its Content-Length), larger data as a multipart upload that becomes the object
      // only on CompleteMultipartUpload. A source error stops both before anything replaces the old object.
      await upload.done();
    } catch (err) {
      if (!Buffer.isBuffer(body)) {
        // Upload stops reading on an S3 error; release the source as a failed pipeline would.
        body.destroy();
        if (!Buffer.isBuffer(data)) data.destroy();
      }
      await this.abortParts(key, upload.uploadId);
      throw err;
    }
    return { size };
  }

  /** Drops the parts of an unfinished multipart upload; they are never visible under the key either way. */
  private async abortParts(key: string, uploadId: string | undefined): Promise<void> {
    if (uploadId === undefined) return;
    try {
      await this.client.send(
        new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }),
      );
    } catch {
      // Best effort, and never in place of the caller's error: s3rver does not implement the call (405), and the
      // bucket's AbortIncompleteMultipartUpload lifecycle rule (docs/operations.md) collects what is left.
    }
  }

  async get(key: string): Promise<{ stream: Readable; size: number } | null> {
    assertBlobKey(key);
    let out;
    try {
      out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (err) {
      if (isMissingKey(err)) return null;
      throw err;
    }
    const { Body, ContentLength } = out;
    // In Node the SDK answers with an IncomingMessage; anything else is a runtime we do not support.
    if (!(Body instanceof Readable) || typeof ContentLength !== 'number') {
      if (Body instanceof Readable) Body.destroy();
      throw new Error(`S3 GetObject for "${key}" returned no Node stream or no Content-Length`);
    }
    return { stream: Body, size: ContentLength };
  }

  async delete(key: string): Promise<void> {
    assertBlobKey(key);
    // S3 answers 204 for a missing key too, which is what sweeps that run again after a crash need.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}

/** NoSuchKey, or a bare 404 from a server that sends no code; a missing bucket stays an error (misconfiguration). */
function isMissingKey(err: unknown): boolean {
  if (err instanceof NoSuchKey) return true;
  return (
    err instanceof S3ServiceException && err.$metadata.httpStatusCode === 404 && err.name !== 'NoSuchBucket'
  );
}

/** The source's bytes, counted on the way. Byte mode, so read-ahead is bounded in bytes, not in chunks. */
function counted(source: Readable, onBytes: (n: number) => void): Readable {
  return Readable.from(countBytes(source, onBytes), { objectMode: false });
}

/** A source error comes out of the loop as the same object, so `put` rejects with the caller's error. */
async function* countBytes(source: Readable, onBytes: (n: number) => void): AsyncGenerator<Buffer> {
  // Readable iterates as `any`; widened to unknown and checked, since an object-mode source could yield anything.
  for await (const chunk of source as AsyncIterable<unknown>) {
    const bytes = Buffer.isBuffer(chunk)
      ? chunk
      : chunk instanceof Uint8Array
        ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
        : typeof chunk === 'string'
          ? Buffer.from(chunk)
          : null;
    if (bytes === null) throw new TypeError('blob data must be a stream of bytes');
    onBytes(bytes.length);
    yield bytes;
  }
}

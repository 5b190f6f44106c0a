import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../lib/file-modes.js';
import { randomBase62 } from '../lib/ids.js';

/**
 * Private file storage (asset files, form uploads, derived images): the data directory on the embedded default,
 * an S3-compatible bucket when scaled out (src/blobs/s3-blob-store.ts). Keys are relative, slash-separated, and
 * checked by `assertBlobKey`. Bytes stream in and out; no implementation holds a whole file in memory.
 */
export interface BlobStore {
  /**
   * Stores the bytes under `key`, replacing what was there, and resolves with the number of bytes written.
   * All or nothing: when `data` errors (a size limit cut it off, the client went away) the promise rejects with
   * that error and nothing is left under `key`, not even a part.
   */
  put(key: string, data: Readable | Buffer, opts?: { contentType?: string }): Promise<{ size: number }>;
  /** A stream of the bytes, or null when there is no such blob. */
  get(key: string): Promise<{ stream: Readable; size: number } | null>;
  /** Deletes the blob; deleting a missing one is not an error (sweeps run again after a crash). */
  delete(key: string): Promise<void>;
  /** Releases connections; the store is not used afterwards. */
  close(): Promise<void>;
}

const KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

/** Keys are relative paths of safe segments: no `..`, no absolute paths, nothing a directory could escape by. */
export function assertBlobKey(key: string): void {
  // Segments stay under the 255 bytes a file name may have, with room for the local store's temp suffix.
  if (
    key.length > 512 ||
    !KEY.test(key) ||
    key.split('/').some((s) => s === '.' || s === '..' || s.length > 200)
  )
    throw new Error(`invalid blob key "${key}"`);
}

/** Blobs as files under one directory; keys are checked so no key can leave it (no traversal). */
export class LocalDirBlobStore implements BlobStore {
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  private pathOf(key: string): string {
    assertBlobKey(key);
    const full = resolve(join(this.root, key));
    if (!full.startsWith(this.root + sep)) throw new Error(`invalid blob key "${key}"`);
    return full;
  }

  async put(key: string, data: Readable | Buffer): Promise<{ size: number }> {
    const file = this.pathOf(key);
    await mkdir(dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
    // Write then rename: a reader never sees half a file, and a failed write leaves only a temp file we remove.
    const tmp = `${file}.${randomBase62(8)}.tmp`;
    const out = createWriteStream(tmp, { mode: PRIVATE_FILE_MODE });
    try {
      await pipeline(Buffer.isBuffer(data) ? Readable.from([data]) : data, out);
      await rename(tmp, file);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    return { size: out.bytesWritten };
  }

  async get(key: string): Promise<{ stream: Readable; size: number } | null> {
    const file = this.pathOf(key);
    try {
      const s = await stat(file);
      if (!s.isFile()) return null;
      return { stream: createReadStream(file), size: s.size };
    } catch {
      return null;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async close(): Promise<void> {}
}

/** A blob key segment from arbitrary text (file names): safe characters only. */
export function safeSegment(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '');
  return cleaned.slice(0, 120) || 'file';
}

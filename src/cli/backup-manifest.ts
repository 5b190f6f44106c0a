// The manifest of a `folio backup` directory (docs/operations.md "Backup and restore"): what was copied, from which
// Folio and schema, and enough to check a restore (file hashes, each space's cv, the master key's fingerprint).

import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PRIVATE_FILE_MODE } from '../lib/file-modes.js';

export const MANIFEST_FILE = 'manifest.json';
export const BACKUP_FORMAT = 'folio-backup/1';

export interface BackupFile {
  /** Relative to the backup directory, slash-separated. */
  path: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  format: typeof BACKUP_FORMAT;
  /** The Folio that wrote it (package.json version) and the newest migration its store had. */
  folio: string;
  schema: string | null;
  createdAt: string;
  engine: 'sqlite' | 'postgres';
  /** Each space's cv: pinned `?cv=` URLs answer after a restore exactly when these come back. */
  spaces: { id: string; cv: number }[];
  /**
   * Where the master key (crop signatures, mail links, cursors) comes from: the store (restored with it) or
   * FOLIO_SECRET (the operator keeps it). The fingerprint is a hash of a key derived from it, never the key.
   */
  secret: { source: 'store' | 'FOLIO_SECRET'; fingerprint: string };
  /** `local`: under `blobs/` here. `s3`: the bucket is not copied (the operator's tool copies it). */
  blobs: { kind: 'local' } | { kind: 's3'; bucket: string };
  files: BackupFile[];
}

/**
 * Streams `from` into a new file `to` (0600, never over an existing file), hashing on the way: the manifest's
 * hash is of the bytes written, and a restore checks the same way.
 */
export async function copyHashed(from: string, to: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  await pipeline(
    createReadStream(from),
    tap,
    createWriteStream(to, { mode: PRIVATE_FILE_MODE, flags: 'wx' }),
  );
  return { size, sha256: hash.digest('hex') };
}

/** The sha256 and size of a file, streamed. */
export async function hashFile(file: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file)) {
    const bytes = chunk instanceof Buffer ? chunk : Buffer.from(String(chunk));
    hash.update(bytes);
    size += bytes.length;
  }
  return { size, sha256: hash.digest('hex') };
}

const SAFE_PATH = /^(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
const HEX64 = /^[0-9a-f]{64}$/;

type Obj = Readonly<Record<string, unknown>>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks a manifest read from disk and rebuilds it; a problem is one sentence naming what is wrong. */
export function parseManifest(
  input: unknown,
): { ok: true; manifest: Manifest } | { ok: false; problem: string } {
  const fail = (problem: string) => ({ ok: false as const, problem });
  if (!isObj(input) || input['format'] !== BACKUP_FORMAT) return fail(`format is not "${BACKUP_FORMAT}"`);
  const { folio, schema, createdAt, engine, spaces, secret, blobs, files } = input;
  if (typeof folio !== 'string' || typeof createdAt !== 'string')
    return fail('folio and createdAt must be text');
  if (schema !== null && typeof schema !== 'string') return fail('schema must be text or null');
  if (engine !== 'sqlite' && engine !== 'postgres') return fail('engine must be sqlite or postgres');
  if (!Array.isArray(spaces)) return fail('spaces must be a list');
  const parsedSpaces: Manifest['spaces'] = [];
  for (const s of spaces) {
    if (!isObj(s) || typeof s['id'] !== 'string' || !Number.isSafeInteger(s['cv']))
      return fail('each space needs an id and a whole cv');
    parsedSpaces.push({ id: s['id'], cv: Number(s['cv']) });
  }
  if (
    !isObj(secret) ||
    (secret['source'] !== 'store' && secret['source'] !== 'FOLIO_SECRET') ||
    typeof secret['fingerprint'] !== 'string'
  )
    return fail('secret must name its source and fingerprint');
  let parsedBlobs: Manifest['blobs'];
  if (isObj(blobs) && blobs['kind'] === 'local') parsedBlobs = { kind: 'local' };
  else if (isObj(blobs) && blobs['kind'] === 's3' && typeof blobs['bucket'] === 'string')
    parsedBlobs = { kind: 's3', bucket: blobs['bucket'] };
  else return fail('blobs must be local or s3 with a bucket');
  if (!Array.isArray(files)) return fail('files must be a list');
  const parsedFiles: BackupFile[] = [];
  for (const f of files) {
    if (!isObj(f)) return fail('each file must be an object');
    const { path, size, sha256 } = f;
    // A manifest names files under its own directory only: no absolute paths, no `..`.
    if (typeof path !== 'string' || !SAFE_PATH.test(path) || path.split('/').includes('..'))
      return fail(`file path ${JSON.stringify(path)} is not a safe relative path`);
    if (!Number.isSafeInteger(size) || Number(size) < 0) return fail(`${path}: size must be a whole number`);
    if (typeof sha256 !== 'string' || !HEX64.test(sha256))
      return fail(`${path}: sha256 must be 64 hex digits`);
    parsedFiles.push({ path, size: Number(size), sha256 });
  }
  return {
    ok: true,
    manifest: {
      format: BACKUP_FORMAT,
      folio,
      schema,
      createdAt,
      engine,
      spaces: parsedSpaces,
      secret: { source: secret['source'], fingerprint: secret['fingerprint'] },
      blobs: parsedBlobs,
      files: parsedFiles,
    },
  };
}

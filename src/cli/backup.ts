// `folio backup <dir>` and `folio restore <dir>` (docs/operations.md "Backup and restore"). A backup is the store,
// the blobs and a manifest: on SQLite an online copy through SQLite's backup API, on PostgreSQL a `pg_dump` the
// operator takes first (this command hashes it beside the blobs). Everything written is 0600 in 0700 directories:
// a backup holds visitors' answers and the installation's secrets.

import type { Dirent } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { type Config, loadConfig } from '../config/config.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../lib/file-modes.js';
import { deriveKey, loadMasterKey } from '../store/secrets-repo.js';
import { readAllCvs } from '../store/spaces-repo.js';
import { newestMigration } from '../store/migration-state-repo.js';
import { outboxCounts } from '../jobs/jobs-repo.js';
import type { Store } from '../store/open-store.js';
import {
  BACKUP_FORMAT,
  type BackupFile,
  copyHashed,
  hashFile,
  type Manifest,
  MANIFEST_FILE,
  parseManifest,
} from './backup-manifest.js';
import { openRuntime } from './runtime.js';

const DB_FILE = 'folio.sqlite';
/** Where the PostgreSQL procedure puts its dump, so the manifest hashes it and a restore checks it. */
const PG_DUMP_FILE = 'folio.pgdump';
const BLOBS_DIR = 'blobs';
/** A blob being written (src/blobs/blob-store.ts writes a temp file and renames it): not a blob yet. */
const BLOB_TEMP = /\.[A-Za-z0-9]{8}\.tmp$/;
const DOCS = 'docs/operations.md "Backup and restore"';

/** `folio backup <dir>`: into a new or empty directory (a dump of the procedure may wait there). */
export async function backupCommand(args: string[]): Promise<number> {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  const [target, ...extra] = positionals;
  if (target === undefined || extra.length > 0) {
    console.error('Usage: folio backup <dir>');
    return 2;
  }
  const dir = resolve(target);
  const config = loadConfig();
  const existing = await entriesOf(dir);
  const clash = existing.filter((name) => name !== PG_DUMP_FILE);
  if (clash.length > 0) {
    console.error(`${dir} is not empty (${clash.slice(0, 3).join(', ')}): back up into a new directory.`);
    return 1;
  }
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  await chmod(dir, PRIVATE_DIR_MODE);
  const rt = await openRuntime(config);
  try {
    const files: BackupFile[] = [];
    const engine = config.store.engine;
    // The store first, then the blobs: a blob is written before the row naming it and deleted after, so every
    // blob the copied store names is still there when the blobs are copied (later uploads come along unused).
    if (rt.store.backup !== null) {
      const file = join(dir, DB_FILE);
      await writeFile(file, '', { mode: PRIVATE_FILE_MODE, flag: 'wx' });
      await rt.store.backup(file);
      await chmod(file, PRIVATE_FILE_MODE);
      files.push({ path: DB_FILE, ...(await hashFile(file)) });
    } else if (existing.includes(PG_DUMP_FILE)) {
      await chmod(join(dir, PG_DUMP_FILE), PRIVATE_FILE_MODE);
      files.push({ path: PG_DUMP_FILE, ...(await hashFile(join(dir, PG_DUMP_FILE))) });
    }
    if (config.blobs.kind === 'local') {
      await mkdir(join(dir, BLOBS_DIR), { mode: PRIVATE_DIR_MODE });
      for (const rel of await listFiles(config.blobs.dir)) {
        const to = join(dir, BLOBS_DIR, rel);
        await mkdir(dirname(to), { recursive: true, mode: PRIVATE_DIR_MODE });
        try {
          const copied = await copyHashed(join(config.blobs.dir, rel), to);
          files.push({ path: `${BLOBS_DIR}/${rel.split(sep).join('/')}`, ...copied });
        } catch (err) {
          // Deleted since it was listed (a sweep): the store copied before no longer names it either.
          if (!isMissing(err)) throw err;
          await rm(to, { force: true });
        }
      }
    }
    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      folio: await folioVersion(),
      schema: await newestMigration(rt.store),
      createdAt: new Date().toISOString(),
      engine,
      spaces: [...(await readAllCvs(rt.store))].map(([id, cv]) => ({ id, cv })),
      secret: await secretOf(rt.store, config),
      blobs: config.blobs.kind === 'local' ? { kind: 'local' } : { kind: 's3', bucket: config.blobs.bucket },
      files,
    };
    await writeFile(join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, {
      mode: PRIVATE_FILE_MODE,
      flag: 'wx',
    });
    const bytes = files.reduce((n, f) => n + f.size, 0);
    console.log(`Backed up to ${dir}: ${files.length} files, ${bytes} bytes (${engine}).`);
    for (const line of backupNotes(manifest, existing.includes(PG_DUMP_FILE))) console.log(line);
    return 0;
  } finally {
    await rt.close();
  }
}

/** What the backup does not hold and the operator must keep beside it. */
function backupNotes(m: Manifest, dumped: boolean): string[] {
  const notes: string[] = [];
  if (m.engine === 'postgres' && !dumped)
    notes.push(
      `The database is not in this backup: take it with pg_dump into ${PG_DUMP_FILE} before running this (${DOCS}).`,
    );
  if (m.blobs.kind === 's3')
    notes.push(`Files are in the bucket ${m.blobs.bucket}, not copied here: copy the bucket with your tool.`);
  if (m.secret.source === 'FOLIO_SECRET')
    notes.push('Keep FOLIO_SECRET with the backup: crop signatures and mail links need the same value.');
  return notes;
}

/** `folio restore <dir> [--force]`: into a stopped installation whose store (and blobs) are empty. */
export async function restoreCommand(args: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: { force: { type: 'boolean' } },
  });
  const [source, ...extra] = positionals;
  if (source === undefined || extra.length > 0) {
    console.error('Usage: folio restore <dir> [--force]');
    return 2;
  }
  const dir = resolve(source);
  let input: unknown;
  try {
    input = JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8'));
  } catch (err) {
    console.error(
      `Cannot read ${join(dir, MANIFEST_FILE)}: ${err instanceof Error ? err.message : String(err)}`,
    );
    return 1;
  }
  const parsed = parseManifest(input);
  if (!parsed.ok) {
    console.error(`${join(dir, MANIFEST_FILE)} is not a Folio backup manifest: ${parsed.problem}.`);
    return 1;
  }
  const m = parsed.manifest;
  for (const f of m.files) {
    const got = await hashFile(join(dir, f.path)).catch(() => null);
    if (got === null || got.sha256 !== f.sha256 || got.size !== f.size) {
      console.error(
        `${f.path} is missing or differs from the manifest: the backup is damaged, nothing restored.`,
      );
      return 1;
    }
  }
  const config = loadConfig();
  if (config.store.engine !== m.engine) {
    console.error(
      `This backup is of a ${m.engine} store and this Folio uses ${config.store.engine} (${DOCS}).`,
    );
    return 1;
  }
  const blobsDir = config.blobs.kind === 'local' ? config.blobs.dir : null;
  if (m.blobs.kind === 'local' && blobsDir === null) {
    console.error(
      `This backup's files are under ${BLOBS_DIR}/ and this Folio uses a bucket: copy them there.`,
    );
    return 1;
  }
  const occupied = [
    ...(config.store.engine === 'sqlite' && (await sizeOf(config.store.file)) > 0 ? [config.store.file] : []),
    ...(blobsDir !== null && m.blobs.kind === 'local' && (await entriesOf(blobsDir)).length > 0
      ? [blobsDir]
      : []),
  ];
  if (occupied.length > 0 && values.force !== true) {
    console.error(`${occupied.join(' and ')} already hold data: stop Folio and add --force to replace it.`);
    return 1;
  }
  if (config.store.engine === 'sqlite') {
    const file = config.store.file;
    for (const f of [file, `${file}-wal`, `${file}-shm`]) await rm(f, { force: true });
    await mkdir(dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
    await copyHashed(join(dir, DB_FILE), file);
  }
  if (blobsDir !== null && m.blobs.kind === 'local') {
    await rm(blobsDir, { recursive: true, force: true });
    await mkdir(blobsDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    for (const f of m.files.filter((f) => f.path.startsWith(`${BLOBS_DIR}/`))) {
      const to = join(blobsDir, ...f.path.slice(BLOBS_DIR.length + 1).split('/'));
      await mkdir(dirname(to), { recursive: true, mode: PRIVATE_DIR_MODE });
      await copyHashed(join(dir, f.path), to);
    }
  }
  return reportRestored(config, m);
}

/** Opens the restored store (migrating a backup of an older Folio) and says what came back and what differs. */
async function reportRestored(config: Config, m: Manifest): Promise<number> {
  const rt = await openRuntime(config);
  try {
    const cvs = await readAllCvs(rt.store);
    const spaces = m.spaces.map((s) => `${s.id} cv ${cvs.get(s.id) ?? 'missing'}`).join(', ');
    console.log(`Restored the backup of ${m.createdAt} (${m.engine}): ${spaces || 'no spaces'}.`);
    let code = 0;
    const differing = m.spaces.filter((s) => cvs.get(s.id) !== s.cv);
    if (differing.length > 0) {
      // On PostgreSQL the dump was restored by pg_restore beforehand: a different cv is a different dump.
      console.error(
        `Warning: the store does not match the manifest (${differing.map((s) => `${s.id} cv ${s.cv}`).join(', ')}): restore the dump of this backup (${DOCS}).`,
      );
      code = 1;
    }
    const secret = await secretOf(rt.store, config);
    if (secret.fingerprint !== m.secret.fingerprint)
      console.error(
        m.secret.source === 'FOLIO_SECRET'
          ? 'Warning: FOLIO_SECRET differs from the one at backup time: crop signatures and mail links will not match.'
          : 'Warning: the master key differs from the backup: set FOLIO_SECRET only if it was set at backup time.',
      );
    const pending = (await outboxCounts(rt.store))
      .filter((g) => g.status === 'pending')
      .reduce((n, g) => n + g.count, 0);
    console.log(
      `${pending} outbox jobs were pending at backup time and run when Folio starts; sent ones stay sent.`,
    );
    return code;
  } finally {
    await rt.close();
  }
}

/** The master key's source and a fingerprint that tells two keys apart without revealing either. */
async function secretOf(store: Store, config: Config): Promise<Manifest['secret']> {
  const master = await loadMasterKey(store, config.secret);
  return {
    source: config.secret === null ? 'store' : 'FOLIO_SECRET',
    fingerprint: deriveKey(master, 'backup-fingerprint').toString('hex').slice(0, 16),
  };
}

/** package.json's version, found above this module (src/cli/ in development, dist/src/cli/ when built). */
async function folioVersion(): Promise<string> {
  for (let d = import.meta.dirname; d !== dirname(d); d = dirname(d)) {
    const text = await readFile(join(d, 'package.json'), 'utf8').catch(() => null);
    if (text === null) continue;
    const pkg: unknown = JSON.parse(text);
    if (typeof pkg === 'object' && pkg !== null && 'version' in pkg && typeof pkg.version === 'string')
      return pkg.version;
  }
  return 'unknown';
}

/** Names in a directory; none when it does not exist. */
async function entriesOf(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (err) {
    if (isMissing(err)) return [];
    throw err;
  }
}

async function sizeOf(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch (err) {
    if (isMissing(err)) return 0;
    throw err;
  }
}

/** Every file under `root`, relative to it, in a stable order; temp files of blobs being written are left out. */
async function listFiles(root: string): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(root, { recursive: true, withFileTypes: true });
  } catch (err) {
    if (isMissing(err)) return [];
    throw err;
  }
  const out: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile() || BLOB_TEMP.test(entry.name)) continue;
    out.push(relative(root, join(entry.parentPath, entry.name)));
  }
  return out.sort();
}

function isMissing(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && err.code === 'ENOENT';
}

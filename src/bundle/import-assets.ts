import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { checkAssetFile } from '../assets/asset-check.js';
import type { ProbedFile } from '../assets/probe.js';
import { sniffPath } from '../files/sniff.js';
import { type BlobStore, safeSegment } from '../blobs/blob-store.js';
import type { AssetDoc } from '../content/model.js';
import { randomBase62 } from '../lib/ids.js';
import type { AssetRow } from '../store/authoring-repo.js';
import { BundleError } from './bundle-error.js';
import type { CheckedAsset } from './format.js';
import type { Problem } from '../lib/problems.js';

/** An asset whose file was found inside the bundle folder and probed; nothing written yet. */
export interface ProbedAsset {
  asset: CheckedAsset;
  /** The file's real path (symlinks resolved). */
  path: string;
  probed: ProbedFile;
}

/**
 * Finds, checks and probes every asset file before anything is written: a bundle with a missing file (or a
 * refused one, or a decompression bomb) fails with every such problem named, and the blob store never saw any of
 * its files.
 */
export async function probeAssets(assets: readonly CheckedAsset[], baseDir: string): Promise<ProbedAsset[]> {
  const root = await realpath(baseDir);
  const out: ProbedAsset[] = [];
  const problems: Problem[] = [];
  for (const [i, asset] of assets.entries()) {
    const at = `assets[${i}].file`;
    let path: string;
    let size: number;
    try {
      path = await realpath(resolve(root, asset.file));
      // A symlink must not lead outside the bundle folder either.
      if (!path.startsWith(root + sep)) throw new Error('outside the bundle folder');
      const s = await stat(path);
      if (!s.isFile()) throw new Error('not a file');
      size = s.size;
    } catch (err) {
      problems.push({ path: at, message: `cannot read "${asset.file}" (${(err as Error).message})` });
      continue;
    }
    // The checks of an asset upload (scripted SVG and XML read whole, HTML, polyglots) and a
    // decompression bomb refused from its header, before anything of it reaches the blob store.
    const sniffed = await sniffPath(path, '');
    const checked = await checkAssetFile(path, { filename: asset.filename, size }, sniffed, {
      typeFromContent: false,
    });
    if (checked.ok) out.push({ asset, path, probed: checked.file });
    else if (checked.code === 'image_too_large')
      problems.push({ path: at, message: checked.refusal.message });
    else problems.push({ path: at, message: `"${asset.file}" is not valid: ${checked.reason}` });
  }
  if (problems.length > 0) throw new BundleError(problems);
  return out;
}

/**
 * Copies the probed files into blob storage under keys no earlier import used (a fresh segment per import), so a
 * replaced space keeps its own files until the store has committed the new ones. All or nothing: on a failure the
 * blobs written so far are deleted again.
 */
export async function writeAssetBlobs(
  blobs: BlobStore,
  spaceId: string,
  probed: readonly ProbedAsset[],
  onCopied?: (done: number) => void,
): Promise<AssetRow[]> {
  const importId = randomBase62(12);
  const rows: AssetRow[] = [];
  try {
    for (const [i, { asset, path, probed: file }] of probed.entries()) {
      const blobKey = `assets/${spaceId}/${asset.id}/${importId}/${safeSegment(asset.filename)}`;
      rows.push({ blobKey, doc: assetDoc(asset, file), createdAt: new Date().toISOString() });
      const { size } = await blobs.put(blobKey, createReadStream(path), { contentType: file.mime });
      if (size !== file.size)
        throw new BundleError([
          { path: `assets[${i}].file`, message: `"${asset.file}" changed while importing` },
        ]);
      onCopied?.(i + 1);
    }
  } catch (err) {
    await deleteBlobs(
      blobs,
      rows.map((r) => r.blobKey),
    );
    throw err;
  }
  return rows;
}

/** Deletes blobs nothing refers to (any more); one that cannot be deleted is only unreferenced. */
export async function deleteBlobs(blobs: BlobStore, keys: readonly string[]): Promise<void> {
  for (const key of keys) await blobs.delete(key).catch(() => undefined);
}

function assetDoc(asset: CheckedAsset, file: ProbedFile): AssetDoc {
  return {
    id: asset.id,
    filename: asset.filename,
    mime: file.mime,
    size: file.size,
    width: file.width,
    height: file.height,
    focal: asset.focal,
    alt: asset.alt,
    title: asset.title,
    credit: asset.credit,
    color: file.color,
    placeholder: file.placeholder,
  };
}

import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type BlobStore, safeSegment } from '../blobs/blob-store.js';
import { exportBundleDocs } from './bundle-docs.js';
import { listAssets, listDocs, listEntries, listTypes } from '../store/authoring-repo.js';
import type { Store } from '../store/open-store.js';
import { getSpace } from '../store/spaces-repo.js';
import { listTokens } from '../store/tokens-repo.js';
import {
  BUNDLE_FORMAT,
  type Bundle,
  type BundleAsset,
  type BundleEntry,
  type BundleToken,
} from './format.js';

/** Builds the bundle of a space (asset files are read separately by `exportBundleToDir`). */
export async function exportBundle(
  store: Store,
  spaceId: string,
): Promise<{ bundle: Bundle; files: Map<string, string> }> {
  const space = await getSpace(store, spaceId);
  if (!space) throw new Error(`space "${spaceId}" does not exist`);
  // Canonical orders (tokens by kind then hash, entries by id) keep exports diffable.
  const tokenRows = (await listTokens(store, spaceId)).sort((a, b) =>
    a.kind === b.kind ? (a.hash < b.hash ? -1 : 1) : a.kind < b.kind ? -1 : 1,
  );
  const tokens: BundleToken[] = tokenRows.map((t) => ({
    kind: t.kind,
    hash: `sha256:${t.hash}`,
    ...(t.name === null ? {} : { name: t.name }),
    ...(t.origins.length > 0 ? { origins: t.origins } : {}),
    ...(t.scopes === null ? {} : { scopes: [...t.scopes] }),
  }));
  const rows = (await listEntries(store, spaceId)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const entries: BundleEntry[] = rows.map((e) => {
    const published = e.publishedFields !== null && e.publishedAt !== null;
    const out: BundleEntry = {
      id: e.id,
      type: e.type,
      name: e.name,
      slug: e.slug,
      ...(Object.keys(e.slugs).length > 0 ? { slugs: e.slugs } : {}),
      parent: e.parentId,
      position: e.position,
      tags: e.tags,
      fields: (published ? e.publishedFields : e.draftFields) ?? {},
      published: published
        ? { at: e.publishedAt ?? '', firstAt: e.firstPublishedAt ?? e.publishedAt ?? '' }
        : null,
    };
    if (published && e.draftFields !== null) out.draft = { fields: e.draftFields };
    return out;
  });
  const files = new Map<string, string>();
  const assets: BundleAsset[] = (await listAssets(store, spaceId)).map(({ doc, blobKey }) => {
    const file = `assets/${doc.id}-${safeSegment(doc.filename)}`;
    files.set(file, blobKey);
    return {
      id: doc.id,
      file,
      filename: doc.filename,
      ...(Object.keys(doc.alt).length > 0 ? { alt: doc.alt } : {}),
      ...(Object.keys(doc.title).length > 0 ? { title: doc.title } : {}),
      ...(doc.credit === null ? {} : { credit: doc.credit }),
      ...(doc.focal === null ? {} : { focal: doc.focal }),
    };
  });
  const docs = async (kind: string) =>
    (await listDocs<Record<string, unknown>>(store, spaceId, kind)).map((d) => d.doc);
  const { settings } = space;
  const bundle: Bundle = {
    format: BUNDLE_FORMAT,
    space: {
      id: space.id,
      name: space.name,
      ai: settings.ai,
      timeZone: settings.timeZone,
      locales: settings.locales,
      imagePresets: settings.imagePresets,
    },
    tokens,
    types: await listTypes(store, spaceId),
    entries,
    assets,
    lists: (await docs('lists')) as unknown as Bundle['lists'],
    releases: (await docs('releases')) as unknown as Bundle['releases'],
    menus: (await docs('menus')) as unknown as Bundle['menus'],
    ...(await exportBundleDocs(store, spaceId)),
    forms: (await docs('forms')) as unknown as Bundle['forms'],
  };
  return { bundle, files };
}

/** Writes `<dir>/bundle.json` and the asset files beside it. */
export async function exportBundleToDir(
  store: Store,
  blobs: BlobStore,
  spaceId: string,
  dir: string,
): Promise<string> {
  const { bundle, files } = await exportBundle(store, spaceId);
  await mkdir(join(dir, 'assets'), { recursive: true });
  for (const [file, key] of files) {
    const blob = await blobs.get(key);
    if (!blob) throw new Error(`asset file ${key} is missing from blob storage`);
    // Streamed: an asset is never held whole in memory (blob stores stream both ways).
    await pipeline(blob.stream, createWriteStream(join(dir, file)));
  }
  const out = join(dir, 'bundle.json');
  await writeFile(out, `${JSON.stringify(bundle, null, 2)}\n`);
  return out;
}

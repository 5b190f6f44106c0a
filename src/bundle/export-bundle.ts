import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { mkdir } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import { type BlobStore, safeSegment } from '../blobs/blob-store.js';
import { exportBundleDocs } from './bundle-docs.js';
import { withoutSecrets } from '../forms/authoring/management.js';
import { type EntryRow, listAssets, listDocs, listEntriesPage, listTypes } from '../store/authoring-repo.js';
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

export interface ExportOptions {
  /**
   * Keep forms' credentials (`turnstileSecret`, `chatWebhookUrl`) and webhooks' signing secrets in the bundle.
   * Default: left out, so a bundle
   * handed around (a copy for a colleague, a repository) holds no secret; a form with Turnstile then imports only
   * once its secret is set again, which the import says by the field's name.
   */
  secrets?: boolean;
}

/** Builds the bundle of a space in memory (asset files are read separately by `exportBundleToDir`). */
export async function exportBundle(
  store: Store,
  spaceId: string,
  opts: ExportOptions = {},
): Promise<{ bundle: Bundle; files: Map<string, string> }> {
  const { bundle, files } = await bundleWithoutEntries(store, spaceId, opts);
  for await (const page of entryPages(store, spaceId)) bundle.entries.push(...page);
  return { bundle, files };
}

/** Entries in the bundle's canonical order (by id), a page at a time, so an export holds one page in memory. */
async function* entryPages(store: Store, spaceId: string): AsyncGenerator<BundleEntry[]> {
  let after: string | null = null;
  for (;;) {
    const rows = await listEntriesPage(store, spaceId, after, ENTRY_PAGE);
    if (rows.length === 0) return;
    yield rows.map(bundleEntry);
    after = rows[rows.length - 1]?.id ?? null;
  }
}

const ENTRY_PAGE = 500;

function bundleEntry(e: EntryRow): BundleEntry {
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
}

/** Everything of the bundle but its entries (`entries: []`), with the asset files to copy. */
async function bundleWithoutEntries(
  store: Store,
  spaceId: string,
  opts: ExportOptions,
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
    ...(t.serverSide ? { serverSide: true } : {}),
  }));
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
  const forms = (await docs('forms')) as unknown as Bundle['forms'];
  const { redirects, webhooks } = await exportBundleDocs(store, spaceId);
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
    entries: [],
    assets,
    lists: (await docs('lists')) as unknown as Bundle['lists'],
    releases: (await docs('releases')) as unknown as Bundle['releases'],
    menus: (await docs('menus')) as unknown as Bundle['menus'],
    redirects,
    // Without `secrets` an endpoint's signing secret stays out too; an import then generates a new one.
    webhooks: opts.secrets === true ? webhooks : webhooks.map(({ secret: _secret, ...w }) => w),
    forms: opts.secrets === true ? forms : forms.map(withoutSecrets),
  };
  return { bundle, files };
}

/**
 * Writes `<dir>/bundle.json` and the asset files beside it. The entries are streamed a page at a time, so the
 * memory an export needs does not grow with the space; the file is byte for byte what
 * `JSON.stringify(bundle, null, 2)` of `exportBundle` would write.
 */
export async function exportBundleToDir(
  store: Store,
  blobs: BlobStore,
  spaceId: string,
  dir: string,
  opts: ExportOptions = {},
): Promise<string> {
  const { bundle, files } = await bundleWithoutEntries(store, spaceId, opts);
  await mkdir(join(dir, 'assets'), { recursive: true });
  for (const [file, key] of files) {
    const blob = await blobs.get(key);
    if (!blob) throw new Error(`asset file ${key} is missing from blob storage`);
    // Streamed: an asset is never held whole in memory (blob stores stream both ways).
    await pipeline(blob.stream, createWriteStream(join(dir, file)));
  }
  const out = join(dir, 'bundle.json');
  await pipeline(Readable.from(bundleJson(store, spaceId, bundle)), createWriteStream(out));
  return out;
}

/** The pretty-printed bundle in pieces: the rest of the bundle around the entries, written as they are read. */
async function* bundleJson(store: Store, spaceId: string, rest: Bundle): AsyncGenerator<string> {
  const text = JSON.stringify(rest, null, 2);
  // Members of the top-level object are the only lines indented by exactly two spaces.
  const marker = '\n  "entries": []';
  const at = text.indexOf(marker);
  if (at < 0) throw new Error('bundle layout: no top-level entries member');
  yield text.slice(0, at) + '\n  "entries": [';
  let first = true;
  for await (const page of entryPages(store, spaceId)) {
    let chunk = '';
    for (const entry of page) {
      chunk += `${first ? '' : ','}\n    ${JSON.stringify(entry, null, 2).replaceAll('\n', '\n    ')}`;
      first = false;
    }
    yield chunk;
  }
  yield `${first ? '' : '\n  '}]${text.slice(at + marker.length)}\n`;
}

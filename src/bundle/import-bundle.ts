import { hashToken, tokenHint } from '../auth/tokens.js';
import type { BlobStore } from '../blobs/blob-store.js';
import type { FieldValues, SpaceSettings } from '../content/model.js';
import { publishedSlices, publishSpaceState, type SpaceState } from '../content/publish.js';
import { publishForm } from '../forms/authoring/forms-repo.js';
import { enqueueEvent, enqueueJob } from '../jobs/outbox-repo.js';
import { forgetSearchIndex } from '../search/embeddings-repo.js';
import { queueSearchIndex } from '../search/queue.js';
import { newId } from '../lib/ids.js';
import {
  clearSpaceContent,
  type EntryRow,
  insertAssets,
  insertEntries,
  insertTypes,
  putDocs,
} from '../store/authoring-repo.js';
import type { Store } from '../store/open-store.js';
import { SEARCH_MERGE_JOB } from '../delivery/list/list-jobs.js';
import { clearListSpace } from '../delivery/list/list-write-repo.js';
import { startSearchVectors } from '../delivery/list/search-vectors.js';
import { bumpCv } from '../store/spaces-repo.js';
import { insertToken } from '../store/tokens-repo.js';
import { assignBlockIds } from './block-ids.js';
import {
  assetBlobKeys,
  insertSpaceRow,
  renameSpaceNewTokenGeneration,
  setMinCv,
  spaceExists,
  spaceRowExists,
  tokenConflicts,
} from './import-repo.js';
import { BundleError } from './bundle-error.js';
import { importBundleDocs, normalizeMenus } from './bundle-docs.js';
import type { BundleRelease, CheckedBundle } from './format.js';
import { deleteBlobs, probeAssets, writeAssetBlobs } from './import-assets.js';
import { validateBundle } from './validate-bundle.js';

export { BundleError } from './bundle-error.js';

/**
 * How far an import got, for a progress display: each phase in order, with a count where it has one (`total` 0:
 * no count). `entries` writes the authoring rows, `publish` the published log and the list and search tables.
 */
export interface ImportProgress {
  phase: 'validate' | 'assets' | 'entries' | 'publish' | 'commit';
  done: number;
  total: number;
}

export interface ImportResult {
  spaceId: string;
  cv: number;
  counts: { entries: number; assets: number; types: number };
}

/**
 * Imports a bundle all or nothing (DESIGN.md "space bundle"): a bad bundle throws a BundleError naming the JSON
 * path of each problem, and the store and the blob storage are left as they were. Every asset file is found and
 * probed before any is copied; the copies go under fresh keys and are deleted again when the store's transaction
 * fails, so a replaced space keeps its files until the new ones are committed (then its old ones are deleted).
 */
export async function importBundle(
  store: Store,
  blobs: BlobStore,
  input: unknown,
  options: {
    baseDir: string;
    replace?: boolean;
    now?: Date;
    onProgress?: (progress: ImportProgress) => void;
  },
): Promise<ImportResult> {
  const progress = (phase: ImportProgress['phase'], done = 0, total = 0) =>
    options.onProgress?.({ phase, done, total });
  progress('validate');
  const check = validateBundle(input);
  if (!check.ok) throw new BundleError(check.problems);
  const bundle = check.bundle;
  const now = (options.now ?? new Date()).toISOString();
  const spaceId = bundle.space.id;
  if (!options.replace && (await spaceExists(store, spaceId))) throw exists(spaceId);

  const probed = await probeAssets(bundle.assets, options.baseDir);
  const entries = entryRows(bundle, now);
  const releases = releaseDocs(bundle);
  const menus = normalizeMenus(bundle.menus);
  const settings: SpaceSettings = {
    locales: bundle.space.locales,
    timeZone: bundle.space.timeZone,
    ai: bundle.space.ai,
    imagePresets: bundle.space.imagePresets,
  };

  progress('assets', 0, probed.length);
  const assets = await writeAssetBlobs(blobs, spaceId, probed, (done) =>
    progress('assets', done, probed.length),
  );
  const state: SpaceState = {
    settings,
    types: bundle.types,
    entries,
    assets: assets.map((a) => a.doc),
    lists: bundle.lists.map((l) => ({ key: l.key, doc: l })),
  };
  const slices = publishedSlices(state);
  // PostgreSQL stems the search text beside the transaction, on a connection of its own (list-repo.ts).
  const model = { types: new Map(bundle.types.map((t) => [t.key, t])), settings, spaceId };
  const vectors = startSearchVectors(store.db, store.dialect, model, slices);
  let replaced: string[];
  let cv: number;
  try {
    ({ cv, replaced } = await store.db.transaction().execute(async (tx) => {
      await store.dialect.bulkSearchLoad?.before(tx);
      const existing = await spaceRowExists(tx, spaceId);
      if (existing && !options.replace) throw exists(spaceId);
      let replaced: string[] = [];
      if (existing) {
        // The files of the space replaced: deleted once this transaction has committed.
        replaced = await assetBlobKeys(tx, spaceId);
        await clearSpaceContent(tx, spaceId);
        await clearListSpace(tx, store.dialect, spaceId);
        // A new token generation: every instance drops its cached lookups of the replaced tokens (migration 0010).
        await renameSpaceNewTokenGeneration(tx, spaceId, bundle.space.name, settings);
      } else {
        await insertSpaceRow(tx, spaceId, bundle.space.name, settings, now);
      }
      // The cv keeps rising across a replace: caches keyed by cv must never see old bytes for a new cv.
      const cv = await bumpCv(tx, spaceId);
      await setMinCv(tx, spaceId, cv);
      const tokens = bundle.tokens.map((t) => ({
        kind: t.kind,
        hash: t.value !== undefined ? hashToken(t.value) : (t.hash ?? '').replace(/^sha256:/, ''),
        hint: t.value !== undefined ? tokenHint(t.value) : `${t.kind} token`,
        name: t.name ?? null,
        origins: t.origins ?? [],
        scopes: t.scopes ?? null,
        serverSide: t.serverSide === true,
      }));
      // Token hashes are unique across spaces: another space's token is a problem of this bundle, not a crash.
      const taken = await tokenConflicts(
        tx,
        spaceId,
        tokens.map((t) => t.hash),
      );
      if (taken.length > 0)
        throw new BundleError(
          taken.map((i) => ({ path: `tokens[${i}]`, message: 'is a token of another space' })),
        );
      for (const t of tokens) await insertToken(tx, { id: newId('tok'), spaceId, createdAt: now, ...t });
      await insertTypes(tx, spaceId, bundle.types);
      for (let i = 0; i < entries.length; i += PROGRESS_SLICE) {
        await insertEntries(tx, spaceId, entries.slice(i, i + PROGRESS_SLICE));
        progress('entries', Math.min(i + PROGRESS_SLICE, entries.length), entries.length);
      }
      await insertAssets(tx, spaceId, assets);
      // Redirects and webhooks live in tables of their own (importBundleDocs below).
      const docs: [kind: string, rows: { key: string; doc: unknown }[]][] = [
        ['menus', menus.map((doc) => ({ key: doc.key, doc }))],
        ['lists', bundle.lists.map((doc) => ({ key: doc.key, doc }))],
        ['forms', bundle.forms.map((doc) => ({ key: doc.key, doc }))],
        ['releases', releases.map((doc) => ({ key: doc.id, doc }))],
      ];
      for (const [kind, rows] of docs) await putDocs(tx, spaceId, kind, rows, now);
      await publishSpaceState(tx, store.dialect, spaceId, cv, state, slices, {
        vectors,
        onProgress: (done, total) => progress('publish', done, total),
      });
      await importBundleDocs(
        tx,
        spaceId,
        cv,
        { menus, redirects: bundle.redirects, webhooks: bundle.webhooks },
        now,
      );
      // Forms are published at import like every other delivered document (spec 3.4).
      for (const form of bundle.forms) await publishForm(tx, spaceId, cv, form);
      // An import is a publish: subscribers (a CDN purge) hear of it like of any other, after the bundle's own
      // webhooks exist. Its history starts at this cv, so the event's keys name the whole space.
      await enqueueEvent(tx, spaceId, 'content.published', { cv });
      // Semantic search: builds the index, or, for a space whose AI is now off, drops its vectors.
      await forgetSearchIndex(tx, spaceId);
      await queueSearchIndex(tx, spaceId);
      // The search rows the bulk load left pending are merged by the job runner, after the import (list-jobs.ts).
      if (store.dialect.bulkSearchLoad)
        await enqueueJob(tx, { spaceId, kind: SEARCH_MERGE_JOB, payload: {} });
      progress('commit');
      return { cv, replaced };
    }));
  } catch (err) {
    vectors?.stop();
    await deleteBlobs(
      blobs,
      assets.map((a) => a.blobKey),
    );
    throw err;
  }
  await deleteBlobs(blobs, replaced);
  // An import publishes: the in-memory cv (src/cluster/) follows at once in this process.
  store.published.emit(spaceId, cv);
  return {
    spaceId,
    cv,
    counts: { entries: entries.length, assets: assets.length, types: bundle.types.length },
  };
}

/** Entries written between two progress reports. */
const PROGRESS_SLICE = 5000;

const exists = (spaceId: string) =>
  new BundleError([
    { path: 'space.id', message: `space "${spaceId}" exists; import with --replace to overwrite it` },
  ]);

/** Fields with every block given an id, so every delivered block has a stable `blk_` id (spec 2.2). */
function blockIds(bundle: CheckedBundle): (type: string, fields: FieldValues) => FieldValues {
  const types = new Map(bundle.types.map((t) => [t.key, t]));
  return (type, fields) => {
    const def = types.get(type);
    return def ? assignBlockIds(fields, def, types) : fields;
  };
}

function releaseDocs(bundle: CheckedBundle): BundleRelease[] {
  const withIds = blockIds(bundle);
  const typeOf = new Map(bundle.entries.map((e) => [e.id, e.type]));
  return bundle.releases.map((r) => ({
    ...r,
    entries: r.entries.map((e) => ({ id: e.id, fields: withIds(typeOf.get(e.id) ?? '', e.fields) })),
  }));
}

function entryRows(bundle: CheckedBundle, now: string): EntryRow[] {
  const withIds = blockIds(bundle);
  return bundle.entries.map((e) => {
    const fields = withIds(e.type, e.fields);
    const draft = e.draft ? withIds(e.type, e.draft.fields) : null;
    return {
      id: e.id,
      type: e.type,
      name: e.name,
      slug: e.slug,
      slugs: e.slugs,
      parentId: e.parent,
      position: e.position,
      tags: e.tags,
      publishedFields: e.published ? fields : null,
      draftFields: e.published ? draft : fields,
      publishedAt: e.published?.at ?? null,
      firstPublishedAt: e.published?.firstAt ?? null,
      createdAt: e.published?.firstAt ?? now,
      updatedAt: now,
    };
  });
}

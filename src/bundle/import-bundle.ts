import { readFile, realpath } from 'node:fs/promises';
import { basename, resolve, sep } from 'node:path';
import { probeFile } from '../assets/probe.js';
import { hashToken, tokenHint } from '../auth/tokens.js';
import { type BlobStore, safeSegment } from '../blobs/blob-store.js';
import type { AssetDoc, ContentTypeDef, FieldValues, SpaceSettings } from '../content/model.js';
import { publishSpaceState } from '../content/publish.js';
import { publishForm } from '../forms/forms-repo.js';
import { newId } from '../lib/ids.js';
import {
  type AssetRow,
  clearSpaceContent,
  type EntryRow,
  insertAssets,
  insertEntries,
  insertTypes,
  putDocs,
} from '../store/authoring-repo.js';
import type { Store } from '../store/open-store.js';
import { bumpCv } from '../store/spaces-repo.js';
import { insertToken } from '../store/tokens-repo.js';
import { parseScopes, type Scope } from '../auth/scopes.js';
import { importBundleDocs, normalizeMenus } from './bundle-docs.js';
import type { Bundle } from './format.js';
import type { Problem } from './problems.js';
import { validateBundle } from './validate-bundle.js';

export class BundleError extends Error {
  constructor(readonly problems: Problem[]) {
    super(`Invalid bundle:\n${problems.map((p) => `  ${p.path}: ${p.message}`).join('\n')}`);
    this.name = 'BundleError';
  }
}

export interface ImportResult {
  spaceId: string;
  cv: number;
  counts: { entries: number; assets: number; types: number };
}

/**
 * Imports a bundle in one transaction (DESIGN.md "space bundle"): a bad bundle throws a BundleError naming the
 * JSON path of each problem and the store is left unchanged. Asset files are copied to blob storage first;
 * a failed import leaves only unreferenced blobs behind, never a half-written space.
 */
export async function importBundle(
  store: Store,
  blobs: BlobStore,
  input: unknown,
  options: { baseDir: string; replace?: boolean; now?: Date },
): Promise<ImportResult> {
  const check = validateBundle(input);
  if (!check.ok) throw new BundleError(check.problems);
  const bundle = structuredClone(check.bundle);
  const now = (options.now ?? new Date()).toISOString();
  const spaceId = bundle.space.id;

  const assets = await readAssets(bundle, blobs, options.baseDir);
  for (const e of bundle.entries) {
    assignBlockIds(e.fields);
    if (e.draft) assignBlockIds(e.draft.fields);
  }
  for (const r of bundle.releases) for (const e of r.entries) assignBlockIds(e.fields);
  bundle.menus = normalizeMenus(bundle.menus);

  const settings: SpaceSettings = {
    locales: bundle.space.locales,
    timeZone: bundle.space.timeZone ?? 'UTC',
    ai: bundle.space.ai ?? false,
    imagePresets: bundle.space.imagePresets ?? {},
  };
  const entries: EntryRow[] = bundle.entries.map((e) => ({
    id: e.id,
    type: e.type,
    name: e.name,
    slug: e.slug,
    slugs: e.slugs ?? {},
    parentId: e.parent ?? null,
    position: e.position,
    tags: e.tags,
    publishedFields: e.published ? e.fields : null,
    draftFields: e.published ? (e.draft?.fields ?? null) : e.fields,
    publishedAt: e.published?.at ?? null,
    firstPublishedAt: e.published?.firstAt ?? null,
    createdAt: e.published?.firstAt ?? now,
    updatedAt: now,
  }));

  const cv = await store.db.transaction().execute(async (tx) => {
    const existing = await tx.selectFrom('spaces').select('id').where('id', '=', spaceId).executeTakeFirst();
    if (existing && !options.replace) {
      throw new BundleError([
        { path: 'space.id', message: `space "${spaceId}" exists; import with --replace to overwrite it` },
      ]);
    }
    if (existing) {
      await clearSpaceContent(tx, spaceId);
      await tx
        .updateTable('spaces')
        .set({ name: bundle.space.name, settings: JSON.stringify(settings) })
        .where('id', '=', spaceId)
        .execute();
    } else {
      await tx
        .insertInto('spaces')
        .values({
          id: spaceId,
          name: bundle.space.name,
          settings: JSON.stringify(settings),
          cv: 0,
          min_cv: 0,
          created_at: now,
        })
        .execute();
    }
    // The cv keeps rising across a replace: caches keyed by cv must never see old bytes for a new cv.
    const cv = await bumpCv(tx, spaceId);
    await tx.updateTable('spaces').set({ min_cv: cv }).where('id', '=', spaceId).execute();
    for (const t of bundle.tokens) {
      await insertToken(tx, {
        id: newId('tok'),
        spaceId,
        kind: t.kind,
        hash: t.value !== undefined ? hashToken(t.value) : (t.hash ?? '').replace(/^sha256:/, ''),
        hint: t.value !== undefined ? tokenHint(t.value) : `${t.kind} token`,
        name: t.name ?? null,
        origins: t.origins ?? [],
        createdAt: now,
        scopes: t.scopes === undefined ? null : scopesFrom(t.scopes),
      });
    }
    await insertTypes(tx, spaceId, bundle.types);
    await insertEntries(tx, spaceId, entries);
    await insertAssets(tx, spaceId, assets);
    // Redirects and webhooks live in tables of their own (importBundleDocs below).
    for (const kind of ['menus', 'lists', 'forms', 'releases'] as const) {
      const docs = (bundle[kind] as unknown as Record<string, unknown>[]).map((doc, i) => ({
        key: docKey(kind, doc, i),
        doc,
      }));
      await putDocs(tx, spaceId, kind, docs, now);
    }
    await publishSpaceState(tx, spaceId, cv, {
      settings,
      types: bundle.types as ContentTypeDef[],
      entries,
      assets: assets.map((a) => a.doc),
      lists: bundle.lists.map((l) => ({ key: l.key, doc: l })),
    });
    await importBundleDocs(tx, spaceId, cv, bundle, now);
    // Forms are published at import like every other delivered document (spec 3.4).
    for (const form of bundle.forms) await publishForm(tx, spaceId, cv, form);
    return cv;
  });
  // An import publishes: the in-memory cv (src/cluster/) follows at once in this process.
  store.published.emit(spaceId, cv);
  return {
    spaceId,
    cv,
    counts: { entries: entries.length, assets: assets.length, types: bundle.types.length },
  };
}

function docKey(kind: string, doc: Record<string, unknown>, index: number): string {
  const key = doc.key ?? doc.id;
  if (typeof key === 'string') return key;
  // Redirects and webhooks have no key of their own: their position keeps them apart and in order.
  return `${kind}-${String(index).padStart(6, '0')}`;
}

async function readAssets(bundle: Bundle, blobs: BlobStore, baseDir: string): Promise<AssetRow[]> {
  const root = await realpath(baseDir);
  const rows: AssetRow[] = [];
  const problems: Problem[] = [];
  for (const [i, a] of bundle.assets.entries()) {
    let data: Buffer;
    try {
      const file = await realpath(resolve(root, a.file));
      // A symlink must not lead outside the bundle folder either.
      if (!file.startsWith(root + sep)) throw new Error('outside the bundle folder');
      data = await readFile(file);
    } catch (err) {
      problems.push({
        path: `assets[${i}].file`,
        message: `cannot read "${a.file}" (${(err as Error).message})`,
      });
      continue;
    }
    const filename = a.filename ?? basename(a.file);
    const probe = await probeFile(data, { filename, size: data.length });
    // A decompression bomb is refused from its header, before anything of it reaches the blob store.
    if (!probe.ok) {
      problems.push({ path: `assets[${i}].file`, message: probe.refusal.message });
      continue;
    }
    const probed = probe.file;
    const blobKey = `assets/${bundle.space.id}/${a.id}/${safeSegment(filename)}`;
    await blobs.put(blobKey, data);
    const doc: AssetDoc = {
      id: a.id,
      filename,
      mime: probed.mime,
      size: probed.size,
      width: probed.width,
      height: probed.height,
      focal: a.focal ?? null,
      alt: a.alt ?? {},
      title: a.title ?? {},
      credit: a.credit ?? null,
      color: probed.color,
      placeholder: probed.placeholder,
    };
    rows.push({ blobKey, doc, createdAt: new Date().toISOString() });
  }
  if (problems.length > 0) throw new BundleError(problems);
  return rows;
}

/** Blocks without an id get one on import, so every delivered block has a stable `blk_` id (spec 2.2). */
function assignBlockIds(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) assignBlockIds(item);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const obj = value as Record<string, unknown>;
  if (
    typeof obj.type === 'string' &&
    typeof obj.fields === 'object' &&
    obj.fields !== null &&
    obj.id === undefined
  ) {
    obj.id = newId('blk');
  }
  for (const v of Object.values(obj)) assignBlockIds(v);
}

export type { FieldValues };

/** Scopes the validator accepted; anything else (it cannot happen after validation) grants nothing. */
function scopesFrom(value: unknown): Scope[] {
  const parsed = parseScopes(value);
  return parsed.ok ? parsed.scopes : [];
}

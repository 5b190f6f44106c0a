import type { Transaction } from 'kysely';
import type { EntryRow } from '../store/authoring-repo.js';
import { putDocVersion } from '../store/log-repo.js';
import type { SearchVectors } from '../delivery/list/search-vectors.js';
import type { StoreDialect } from '../store/dialect/dialect.js';
import type { Database } from '../store/schema.js';
import { publishFirstVersions } from './publish-log.js';
import type { AssetDoc, ContentTypeDef, EntrySnapshot, SpaceSettings } from './model.js';
import { computePaths, type TreeNode } from './paths.js';

export const treeNode = (e: EntryRow): TreeNode => ({
  id: e.id,
  type: e.type,
  parentId: e.parentId,
  slug: e.slug,
  slugs: e.slugs,
});

export function snapshotOf(
  e: EntryRow,
  fields: EntrySnapshot['fields'],
  paths: Record<string, string> | null,
  at: { publishedAt: string; firstPublishedAt: string },
): EntrySnapshot {
  return {
    id: e.id,
    type: e.type,
    name: e.name,
    slug: e.slug,
    slugs: e.slugs,
    parentId: e.parentId,
    position: e.position,
    tags: e.tags,
    fields,
    publishedAt: at.publishedAt,
    firstPublishedAt: at.firstPublishedAt,
    paths,
  };
}

/** What a space's single publish writes (the import's): its documents and the first version of each entry. */
export interface SpaceState {
  settings: SpaceSettings;
  types: readonly ContentTypeDef[];
  entries: readonly EntryRow[];
  assets: readonly AssetDoc[];
  lists: readonly { key: string; doc: unknown }[];
}

/** The entry versions a space's state publishes, in slices written between two progress reports. */
export function publishedSlices(state: SpaceState): { snapshot: EntrySnapshot; typeKind: string }[][] {
  const types = new Map(state.types.map((t) => [t.key, t]));
  const paths = computePaths(state.entries.map(treeNode), types, state.settings);
  const items = state.entries.flatMap((e) => {
    if (e.publishedFields === null || e.publishedAt === null) return [];
    const snapshot = snapshotOf(e, e.publishedFields, paths.get(e.id) ?? null, {
      publishedAt: e.publishedAt,
      firstPublishedAt: e.firstPublishedAt ?? e.publishedAt,
    });
    return [{ snapshot, typeKind: types.get(e.type)?.kind ?? 'page' }];
  });
  const slices = [];
  for (let i = 0; i < items.length; i += PROGRESS_SLICE) slices.push(items.slice(i, i + PROGRESS_SLICE));
  return slices;
}

const PROGRESS_SLICE = 5000;

/**
 * Writes the published state of a whole space at `cv` (the import's single publish): types, assets, lists
 * and every published entry with its paths (`publishedSlices`), in bulk. Runs inside the publish transaction,
 * on a space whose published log is empty (new, or cleared by the import). `vectors`: search vectors computed
 * beside the transaction (`startSearchVectors`), where the engine has them.
 */
export async function publishSpaceState(
  tx: Transaction<Database>,
  dialect: StoreDialect,
  spaceId: string,
  cv: number,
  state: SpaceState,
  slices: readonly (readonly { snapshot: EntrySnapshot; typeKind: string }[])[],
  options: { vectors?: SearchVectors | undefined; onProgress?: (done: number, total: number) => void } = {},
): Promise<void> {
  await putDocVersion(tx, spaceId, cv, 'types', '*', state.types);
  for (const a of state.assets) await putDocVersion(tx, spaceId, cv, 'asset', a.id, a);
  for (const l of state.lists) await putDocVersion(tx, spaceId, cv, 'list', l.key, l.doc);
  const total = slices.reduce((n, slice) => n + slice.length, 0);
  let done = 0;
  for (const slice of slices) {
    await publishFirstVersions(tx, dialect, spaceId, cv, slice, options.vectors);
    done += slice.length;
    options.onProgress?.(done, total);
  }
}

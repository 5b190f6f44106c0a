import type { Store } from '../store/open-store.js';
import { listEntries, listTypes, updateEntryState } from '../store/authoring-repo.js';
import { putEntryVersion } from '../store/log-repo.js';
import { getSpace, withPublish } from '../store/spaces-repo.js';
import type { FieldValues } from './model.js';
import { computePaths } from './paths.js';
import { snapshotOf, treeNode } from './publish.js';

/** Saves unpublished changes to an entry's fields (nothing is delivered until it is published). */
export async function saveDraft(
  store: Store,
  spaceId: string,
  entryId: string,
  fields: FieldValues,
): Promise<void> {
  await updateEntryState(store.db, spaceId, entryId, {
    draftFields: fields,
    updatedAt: new Date().toISOString(),
  });
}

/**
 * Publishes entries in one transaction with one cv bump (DESIGN.md "published log"): their drafts become the
 * published fields, and every published entry whose path changed with them (descendants of a moved or renamed
 * page or folder) gets a new version too.
 */
export async function publishEntries(
  store: Store,
  spaceId: string,
  ids: readonly string[],
  now = new Date(),
): Promise<number> {
  const space = await getSpace(store, spaceId);
  if (!space) throw new Error(`space ${spaceId} does not exist`);
  const at = now.toISOString();
  const { cv } = await withPublish(store, spaceId, async (tx, cv) => {
    const types = new Map((await listTypes(store, spaceId, tx)).map((t) => [t.key, t]));
    const rows = await listEntries(store, spaceId, tx);
    const paths = computePaths(rows.map(treeNode), types, space.settings);
    const wanted = new Set(ids);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const isBelow = (id: string): boolean => {
      const seen = new Set<string>();
      for (
        let cur = byId.get(id)?.parentId ?? null;
        cur !== null && !seen.has(cur);
        cur = byId.get(cur)?.parentId ?? null
      ) {
        if (wanted.has(cur)) return true;
        seen.add(cur);
      }
      return false;
    };
    for (const row of rows) {
      const publishing = wanted.has(row.id);
      if (!publishing && !(row.publishedFields !== null && isBelow(row.id))) continue;
      const fields = publishing
        ? (row.draftFields ?? row.publishedFields ?? {})
        : (row.publishedFields ?? {});
      const publishedAt = publishing ? at : (row.publishedAt ?? at);
      const firstPublishedAt = row.firstPublishedAt ?? publishedAt;
      const snapshot = snapshotOf(row, fields, paths.get(row.id) ?? null, { publishedAt, firstPublishedAt });
      await putEntryVersion(tx, spaceId, cv, snapshot, types.get(row.type)?.kind ?? 'page');
      if (publishing) {
        await updateEntryState(tx, spaceId, row.id, {
          publishedFields: fields,
          draftFields: null,
          publishedAt,
          firstPublishedAt,
          updatedAt: at,
        });
      }
    }
  });
  return cv;
}

import type { Transaction } from 'kysely';
import { closeListVersion, pruneListVersions, putListVersions } from '../delivery/list/list-write-repo.js';
import type { SearchVectors } from '../delivery/list/search-vectors.js';
import { enqueueEvent } from '../jobs/outbox-repo.js';
import { queueSearchIndex } from '../search/queue.js';
import type { StoreDialect } from '../store/dialect/dialect.js';
import { closeEntry, insertFirstLogVersions, pruneBefore, putEntryVersion } from '../store/log-repo.js';
import type { Store } from '../store/open-store.js';
import type { Database } from '../store/schema.js';
import { bumpCv } from '../store/spaces-repo.js';
import type { EntrySnapshot } from './model.js';

/**
 * Publishing writes two things that must move together: the published log (src/store/log-repo.ts: versions and
 * paths) and the list tables derived from it (src/delivery/list/list-write-repo.ts: entry lists, tree, sitemap,
 * full text). Domain code publishes through these functions, so no caller writes one without the other.
 */

/**
 * Runs `work` in one transaction with the space's cv incremented first (DESIGN.md "published log", step 1).
 * The UPDATE takes the space row's lock, so publishes to one space are serialised on both engines.
 */
export async function withPublish<T>(
  store: Store,
  spaceId: string,
  work: (tx: Transaction<Database>, cv: number) => Promise<T>,
): Promise<{ cv: number; result: T }> {
  const out = await store.db.transaction().execute(async (tx) => {
    const cv = await bumpCv(tx, spaceId);
    const result = await work(tx, cv);
    // Every publish, whatever it changed: webhooks get the CDN tags to purge (issue 16, src/webhooks/event-keys.ts).
    await enqueueEvent(tx, spaceId, 'content.published', { cv });
    // Semantic search (issue 13): the job runner embeds what this publish changed, never the request.
    if (await aiSwitchedOn(tx, store, spaceId)) await queueSearchIndex(tx, spaceId);
    await pruneIfDue(tx, store, spaceId, cv);
    return { cv, result };
  });
  store.published.emit(spaceId, out.cv);
  return out;
}

/** A new version of an entry at `cv` (its open one closed): the log's row and paths, and its list rows. */
export async function publishEntryVersion(
  tx: Transaction<Database>,
  dialect: StoreDialect,
  spaceId: string,
  cv: number,
  snapshot: EntrySnapshot,
  typeKind: string,
): Promise<void> {
  await putEntryVersion(tx, spaceId, cv, snapshot, typeKind);
  await closeListVersion(tx, dialect, spaceId, snapshot.id, cv);
  await putListVersions(tx, dialect, spaceId, cv, [{ snapshot, typeKind }]);
}

/** Takes an entry out of the published log at `cv` (unpublished or deleted), in the log and the list tables. */
export async function closePublishedEntry(
  tx: Transaction<Database>,
  dialect: StoreDialect,
  spaceId: string,
  entryId: string,
  cv: number,
): Promise<void> {
  await closeEntry(tx, spaceId, entryId, cv);
  await closeListVersion(tx, dialect, spaceId, entryId, cv);
}

/**
 * The first versions of many entries at `cv`, in bulk (an import into a new or cleared space: nothing to close).
 * `vectors`: search vectors computed beside the transaction (`startSearchVectors`), where the engine has them.
 */
export async function publishFirstVersions(
  tx: Transaction<Database>,
  dialect: StoreDialect,
  spaceId: string,
  cv: number,
  items: readonly { snapshot: EntrySnapshot; typeKind: string }[],
  vectors?: SearchVectors,
): Promise<void> {
  await insertFirstLogVersions(tx, spaceId, cv, items);
  await putListVersions(tx, dialect, spaceId, cv, items, vectors);
}

/** Forgets published history closed at or before `minCv` (log and list tables); `minCv` becomes the oldest cv. */
export async function prunePublished(
  tx: Transaction<Database>,
  dialect: StoreDialect,
  spaceId: string,
  minCv: number,
): Promise<void> {
  await pruneBefore(tx, spaceId, minCv);
  await pruneListVersions(tx, dialect, spaceId, minCv);
}

/**
 * Keeps `store.keepVersions` cache versions of history (DESIGN.md: old versions are pruned after a retention
 * window; older pinned cvs answer 410). Checked every few publishes, not each: a prune scans the space's closed
 * versions.
 */
async function pruneIfDue(
  tx: Transaction<Database>,
  store: Store,
  spaceId: string,
  cv: number,
): Promise<void> {
  const keep = store.keepVersions;
  if (cv % Math.min(50, keep) !== 0) return;
  const oldest = cv - keep;
  if (oldest <= 0) return;
  const row = await tx.selectFrom('spaces').select('min_cv').where('id', '=', spaceId).executeTakeFirst();
  if (row && oldest > Number(row.min_cv)) await prunePublished(tx, store.dialect, spaceId, oldest);
}

async function aiSwitchedOn(tx: Transaction<Database>, store: Store, spaceId: string): Promise<boolean> {
  const row = await tx.selectFrom('spaces').select('settings').where('id', '=', spaceId).executeTakeFirst();
  if (!row) return false;
  const settings: unknown = store.dialect.parseJson<unknown>(row.settings);
  return typeof settings === 'object' && settings !== null && (settings as { ai?: unknown }).ai === true;
}

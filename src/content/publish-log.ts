import type { Transaction } from 'kysely';
import type { SearchVectors } from '../delivery/list/search-vectors.js';
import { enqueueEvent } from '../jobs/outbox-repo.js';
import type { StoreDialect } from '../store/dialect/dialect.js';
import { closeEntry, insertFirstLogVersions, pruneBefore, putEntryVersion } from '../store/log-repo.js';
import type { Store } from '../store/open-store.js';
import type { Database } from '../store/schema.js';
import { bumpCv, readMinCv } from '../store/spaces-repo.js';
import type { EntrySnapshot } from './model.js';
import { publishHooks } from './publish-hooks.js';

/**
 * Publishing writes two things that must move together: the published log (src/store/log-repo.ts: versions and
 * paths) and what is derived from it, through the publish hooks (src/content/publish-hooks.ts: the list tables
 * of src/delivery/list/list-write-repo.ts, the semantic index's queue). Domain code publishes through these
 * functions, so no caller writes one without the other.
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
  const hooks = publishHooks();
  const out = await store.db.transaction().execute(async (tx) => {
    const cv = await bumpCv(tx, spaceId);
    const result = await work(tx, cv);
    // Every publish, whatever it changed: webhooks get the CDN tags to purge (src/webhooks/event-keys.ts).
    await enqueueEvent(tx, spaceId, 'content.published', { cv });
    // Semantic search queues its indexing job here: the runner embeds, never the request.
    for (const h of hooks) await h.published?.(tx, store, spaceId, cv);
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
  for (const h of publishHooks()) await h.entryVersion?.(tx, dialect, spaceId, cv, snapshot, typeKind);
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
  for (const h of publishHooks()) await h.entryClosed?.(tx, dialect, spaceId, entryId, cv);
}

/**
 * The first versions of many entries at `cv`, in bulk (an import into a new or cleared space: nothing to close).
 * `vectors`: search vectors computed beside the transaction (`startSearchVectors` of src/delivery/list/), where
 * the engine has them, handed to the hooks as they are.
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
  for (const h of publishHooks()) await h.firstVersions?.(tx, dialect, spaceId, cv, items, vectors);
}

/** Forgets published history closed at or before `minCv` (log and list tables); `minCv` becomes the oldest cv. */
export async function prunePublished(
  tx: Transaction<Database>,
  dialect: StoreDialect,
  spaceId: string,
  minCv: number,
): Promise<void> {
  await pruneBefore(tx, spaceId, minCv);
  for (const h of publishHooks()) await h.pruned?.(tx, dialect, spaceId, minCv);
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
  const minCv = await readMinCv(tx, spaceId);
  if (minCv !== undefined && oldest > minCv) await prunePublished(tx, store.dialect, spaceId, oldest);
}

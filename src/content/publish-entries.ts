import type { Store } from '../store/open-store.js';
import { updateEntryState } from '../store/authoring-repo.js';
import { getSpace } from '../store/spaces-repo.js';
import { withPublish } from './publish-log.js';
import type { FieldValues } from './model.js';
import { type PublishOutcome, type PublishPlan, publishInTx } from './publish-core.js';

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
 * Runs one publishing operation in one transaction with one cv bump (DESIGN.md "published log"); see
 * `publishInTx` for what a plan does (new versions, descendants whose paths changed, automatic redirects,
 * `redirect.updated` / `menu.updated` events).
 */
export async function applyPublish(
  store: Store,
  spaceId: string,
  plan: PublishPlan,
  now = new Date(),
): Promise<{ cv: number; outcome: PublishOutcome }> {
  const space = await getSpace(store, spaceId);
  if (!space) throw new Error(`space ${spaceId} does not exist`);
  const { cv, result } = await withPublish(store, spaceId, (tx, cv) =>
    publishInTx(store, tx, spaceId, cv, space.settings, plan, now.toISOString()),
  );
  return { cv, outcome: result };
}

/**
 * Publishes entries: their drafts become the published fields, and every published entry whose path changed
 * with them (descendants of a moved or renamed page or folder) gets a new version too, with automatic
 * redirects from its old paths (spec 2.6).
 */
export async function publishEntries(
  store: Store,
  spaceId: string,
  ids: readonly string[],
  now = new Date(),
): Promise<number> {
  const plan: PublishPlan = { publish: new Map(ids.map((id) => [id, 'draft' as const])) };
  return (await applyPublish(store, spaceId, plan, now)).cv;
}

/** Takes entries out of the published log; their published fields stay as the draft. */
export async function unpublishEntries(
  store: Store,
  spaceId: string,
  ids: readonly string[],
  now = new Date(),
): Promise<number> {
  return (await applyPublish(store, spaceId, { unpublish: ids }, now)).cv;
}

import type { Transaction } from 'kysely';
import { Problems } from '../lib/problems.js';
import { enqueueEvent } from '../jobs/outbox-repo.js';
import { invalid, loadRefContext, requireSpace } from '../content/context.js';
import { deleteDoc, getDoc, upsertDoc } from '../store/management-repo.js';
import { notFound } from '../errors/errors.js';
import { listDocs } from '../store/authoring-repo.js';
import { closeDoc, putDocVersion } from '../store/log-repo.js';
import type { Store } from '../store/open-store.js';
import type { Database } from '../store/schema.js';
import { withPublish } from '../content/publish-log.js';
import { checkMenu, linkedEntries, type MenuDoc, normalizeMenu, withoutEntry } from './menu-model.js';
import type { PublishHooks } from '../content/publish-hooks.js';

/** Authored menus are `docs` rows of this kind (the bundle's `menus`); published ones `doc_versions` 'menu'. */
const KIND = 'menus';

export async function listAuthoredMenus(store: Store, spaceId: string): Promise<MenuDoc[]> {
  await requireSpace(store, spaceId);
  return (await listDocs<MenuDoc>(store, spaceId, KIND)).map((d) => d.doc);
}

export async function getAuthoredMenu(store: Store, spaceId: string, key: string): Promise<MenuDoc> {
  await requireSpace(store, spaceId);
  const doc = await getDoc<MenuDoc>(store, store.db, spaceId, KIND, key);
  if (!doc) throw notFound(`Menu "${key}" not found.`);
  return doc;
}

/** Writes a menu's authored and published versions and its `menu.updated` event, in the caller's publish. */
async function publishMenu(
  tx: Transaction<Database>,
  spaceId: string,
  cv: number,
  menu: MenuDoc,
  now: string,
) {
  await upsertDoc(tx, spaceId, KIND, menu.key, menu, now);
  await putDocVersion(tx, spaceId, cv, 'menu', menu.key, menu);
  await enqueueEvent(tx, spaceId, 'menu.updated', { key: menu.key, cv });
}

/**
 * Creates or replaces a menu; saving publishes it (spec 2.5, 3.4): one cv bump, the published version and
 * the `menu.updated` event in one transaction (spec 6).
 */
export async function saveMenu(
  store: Store,
  spaceId: string,
  key: string,
  body: { name: unknown; items: unknown },
): Promise<{ menu: MenuDoc; cv: number }> {
  const space = await requireSpace(store, spaceId);
  const ctx = await loadRefContext(store, store.db, space);
  const input = { key, name: body.name, items: body.items };
  const p = new Problems();
  if (!checkMenu(input, '', ctx, p)) throw invalid('menu', p.list);
  const menu = normalizeMenu(input);
  const now = new Date().toISOString();
  const { cv } = await withPublish(store, spaceId, (tx, cv) => publishMenu(tx, spaceId, cv, menu, now));
  return { menu, cv };
}

/** Deletes a menu: it stops being delivered from the new cv on (pinned older cvs keep it). */
export async function deleteMenu(store: Store, spaceId: string, key: string): Promise<{ cv: number }> {
  await getAuthoredMenu(store, spaceId, key);
  const { cv } = await withPublish(store, spaceId, async (tx, cv) => {
    await deleteDoc(tx, spaceId, KIND, key);
    await closeDoc(tx, spaceId, 'menu', key, cv);
    await enqueueEvent(tx, spaceId, 'menu.updated', { key, cv, deleted: true });
  });
  return { cv };
}

/**
 * Inside an entry's deletion: removes the page from every menu linking to it and republishes those menus
 * (spec 2.5: deleting a page removes it from menus permanently). Returns the keys of the menus changed.
 */
export async function removeEntryFromMenus(
  store: Store,
  tx: Transaction<Database>,
  spaceId: string,
  cv: number,
  entryId: string,
): Promise<string[]> {
  const now = new Date().toISOString();
  const changed: string[] = [];
  for (const { doc } of await listDocs<MenuDoc>(store, spaceId, KIND, tx)) {
    if (!linkedEntries(doc).has(entryId)) continue;
    await publishMenu(tx, spaceId, cv, withoutEntry(doc, entryId), now);
    changed.push(doc.key);
  }
  return changed;
}

/**
 * A page published, unpublished or moved changes what menus linking to it deliver: those menus get a
 * `menu.updated` event with the new cv too, so a site refreshing menus on the event never misses it.
 */
export async function notifyMenusLinking(
  store: Store,
  tx: Transaction<Database>,
  spaceId: string,
  cv: number,
  affected: ReadonlySet<string>,
): Promise<void> {
  if (affected.size === 0) return;
  for (const { doc } of await listDocs<MenuDoc>(store, spaceId, KIND, tx)) {
    if ([...linkedEntries(doc)].some((id) => affected.has(id)))
      await enqueueEvent(tx, spaceId, 'menu.updated', { key: doc.key, cv });
  }
}

/** Publishing's hook (src/content/publish-hooks.ts): `menu.updated` for menus linking pages that changed. */
export const menuPublishHooks: PublishHooks = {
  entriesPublished: ({ store, tx, spaceId, cv, affected }) =>
    notifyMenusLinking(store, tx, spaceId, cv, affected),
};

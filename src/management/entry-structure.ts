import { isObject, Problems } from '../lib/problems.js';
import { publishInTx } from '../content/publish-core.js';
import { linkedEntries } from '../menus/menu-model.js';
import { listAuthoredMenus, removeEntryFromMenus } from '../menus/menu-ops.js';
import { openRedirectsTo } from '../redirects/redirects-repo.js';
import { conflict } from '../errors/errors.js';
import { type EntryRow, listDocs, updateEntryState } from '../store/authoring-repo.js';
import type { Store } from '../store/open-store.js';
import { withPublish } from '../content/publish-log.js';
import type { Queryable, SpaceRow } from '../store/spaces-repo.js';
import { invalid, loadRefContext } from '../content/context.js';
import { collectNeeds, emptyNeeds } from '../delivery/render-fields.js';
import { checkParent, checkSlugs, type EntryView, getEntryView, loadEntry } from './entry-ops.js';
import { countChildren, deleteEntryRow, updateEntryMeta, upsertDoc } from '../store/management-repo.js';

function hasPublishedInSubtree(rows: readonly EntryRow[], id: string): boolean {
  const below = new Set([id]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const r of rows)
      if (r.parentId !== null && below.has(r.parentId) && !below.has(r.id)) {
        below.add(r.id);
        grew = true;
      }
  }
  return rows.some((r) => below.has(r.id) && r.publishedFields !== null);
}

/**
 * Applies a change of the entry's place in the tree. When it or anything below it is published, the change
 * is a publish (spec 3.4): one cv, every published page whose path changed gets a new version and redirects
 * from its old paths (spec 2.6), all in the transaction of the change (a path conflict undoes it, 409).
 */
async function restructure(
  store: Store,
  space: SpaceRow,
  rows: readonly EntryRow[],
  id: string,
  apply: (db: Queryable, at: string) => Promise<void>,
): Promise<{ entry: EntryView; cv: number | null }> {
  const at = new Date().toISOString();
  let cv: number | null = null;
  if (!hasPublishedInSubtree(rows, id)) await apply(store.db, at);
  else
    cv = (
      await withPublish(store, space.id, async (tx, cv) => {
        await apply(tx, at);
        await publishInTx(store, tx, space.id, cv, space.settings, { restructured: [id] }, at);
      })
    ).cv;
  return { entry: await getEntryView(store, space.id, id), cv };
}

/** Moves an entry to a new parent (null: the root) and/or position among its siblings. */
export async function moveEntry(
  store: Store,
  spaceId: string,
  id: string,
  body: { parent?: string | null; position?: number },
) {
  const { space, rows, row } = await loadEntry(store, spaceId, id);
  const parent = body.parent === undefined ? row.parentId : body.parent;
  const p = new Problems();
  checkParent(rows, await loadRefContext(store, store.db, space), row, parent, p);
  if (!p.empty) throw invalid('move', p.list);
  const siblings = rows.filter((r) => r.parentId === parent && r.id !== id).map((r) => r.position);
  const position =
    body.position ??
    (parent === row.parentId ? row.position : siblings.length === 0 ? 0 : Math.max(...siblings) + 1);
  return restructure(store, space, rows, id, async (db, at) => {
    await updateEntryState(db, spaceId, id, { parentId: parent, updatedAt: at });
    await updateEntryMeta(db, spaceId, id, { position, updatedAt: at });
  });
}

/** Renames the entry's slug: `slug` in the default locale, `slugs` per locale (null: fall back again). */
export async function renameEntry(
  store: Store,
  spaceId: string,
  id: string,
  body: { slug?: string; slugs?: Record<string, string | null> },
) {
  const { space, rows, row } = await loadEntry(store, spaceId, id);
  const p = new Problems();
  checkSlugs(body.slug, body.slugs, new Set(space.settings.locales.map((l) => l.code)), p);
  if (!p.empty) throw invalid('rename', p.list);
  const slugs = { ...row.slugs };
  for (const [locale, s] of Object.entries(body.slugs ?? {})) {
    if (s === null) delete slugs[locale];
    else slugs[locale] = s;
  }
  return restructure(store, space, rows, id, (db, at) =>
    updateEntryState(db, spaceId, id, { slug: body.slug ?? row.slug, slugs, updatedAt: at }),
  );
}

interface ReleaseDoc {
  id: string;
  name: string;
  entries: { id: string; fields: unknown }[];
}

/**
 * The releases whose other entries link to or reference entry `id` (their fields, by the walk delivery renders
 * with). Deleting the entry would leave such a release unpublishable ("entry … is not in the bundle"), and nothing
 * should silently edit the links in someone's unpublished work: the delete is refused instead (409).
 */
async function releasesReferring(
  store: Store,
  db: Queryable,
  space: SpaceRow,
  releases: readonly { key: string; doc: ReleaseDoc }[],
  id: string,
): Promise<{ id: string; name: string }[]> {
  // Most releases never mention the id at all: only those whose text does are walked.
  const mentioning = releases.filter(({ doc }) =>
    doc.entries.some((e) => e.id !== id && JSON.stringify(e.fields).includes(`"${id}"`)),
  );
  if (mentioning.length === 0) return [];
  const ref = await loadRefContext(store, db, space);
  return mentioning
    .filter(({ doc }) =>
      doc.entries.some((e) => {
        const type = ref.types.get(ref.entryTypes.get(e.id) ?? '');
        if (e.id === id || type === undefined || !isObject(e.fields)) return false;
        const needs = emptyNeeds();
        collectNeeds(e.fields, type, ref.types, needs);
        return needs.links.has(id) || [...needs.refs.values()].some((ids) => ids.has(id));
      }),
    )
    .map(({ key, doc }) => ({ id: key, name: doc.name }));
}

/**
 * Deletes an entry (a page or folder with children: 409, move or delete them first; an entry another entry of a
 * release links to or references: 409 naming the release, change the release first). An entry that is itself in
 * a release leaves the release in the same transaction. When it was delivered
 * anywhere (published, in a menu, the target of a redirect) this is a publish: its versions close, redirects
 * to it answer 410 (spec 2.6 rule 4), and it is removed from menus for good (spec 2.5), all at one cv.
 */
export async function deleteEntry(store: Store, spaceId: string, id: string): Promise<{ cv: number | null }> {
  const { space, row } = await loadEntry(store, spaceId, id);
  if ((await countChildren(store.db, spaceId, id)) > 0)
    throw conflict(`Entry "${id}" has children; move or delete them first.`);
  const inMenus = (await listAuthoredMenus(store, spaceId)).some((m) => linkedEntries(m).has(id));
  const redirected = (await openRedirectsTo(store.db, spaceId, [id])).length > 0;
  const removeRow = async (db: Queryable, at: string) => {
    const releases = await listDocs<ReleaseDoc>(store, spaceId, 'releases', db);
    const holding = await releasesReferring(store, db, space, releases, id);
    if (holding.length > 0) {
      const named = holding.map((r) => `"${r.name}" (${r.id})`).join(', ');
      throw conflict(
        `Entry "${id}" is linked to or referenced in release ${named}; change or delete the release first.`,
        { details: { releases: holding.map((r) => r.id) } },
      );
    }
    await deleteEntryRow(db, spaceId, id);
    // Releases are drafts of a later publish: the entry leaves them too.
    for (const { key, doc } of releases) {
      if (!doc.entries.some((e) => e.id === id)) continue;
      await upsertDoc(
        db,
        spaceId,
        'releases',
        key,
        { ...doc, entries: doc.entries.filter((e) => e.id !== id) },
        at,
      );
    }
  };
  const at = new Date().toISOString();
  if (row.publishedFields === null && !inMenus && !redirected) {
    await store.db.transaction().execute((tx) => removeRow(tx, at));
    return { cv: null };
  }
  const { cv } = await withPublish(store, spaceId, async (tx, cv) => {
    await removeRow(tx, at);
    await removeEntryFromMenus(store, tx, spaceId, cv, id);
    await publishInTx(store, tx, spaceId, cv, space.settings, { deleted: [id] }, at);
  });
  return { cv };
}

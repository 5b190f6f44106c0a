import type { Store } from './open-store.js';
import type { Queryable } from './spaces-repo.js';

/** Authoring documents one at a time (menus, lists, releases), beside authoring-repo's bulk `putDocs`. */
export async function getDoc<T>(
  store: Store,
  db: Queryable,
  spaceId: string,
  kind: string,
  key: string,
): Promise<T | null> {
  const row = await db
    .selectFrom('docs')
    .select('doc')
    .where('space_id', '=', spaceId)
    .where('kind', '=', kind)
    .where('key', '=', key)
    .executeTakeFirst();
  return row ? store.dialect.parseJson<T>(row.doc) : null;
}

/** Inserts or replaces a document; a new one goes last. */
export async function upsertDoc(
  db: Queryable,
  spaceId: string,
  kind: string,
  key: string,
  doc: unknown,
  now: string,
): Promise<void> {
  const updated = await db
    .updateTable('docs')
    .set({ doc: JSON.stringify(doc), updated_at: now })
    .where('space_id', '=', spaceId)
    .where('kind', '=', kind)
    .where('key', '=', key)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) > 0) return;
  const max = await db
    .selectFrom('docs')
    .select((eb) => eb.fn.max('position').as('max'))
    .where('space_id', '=', spaceId)
    .where('kind', '=', kind)
    .executeTakeFirst();
  const position = max?.max === null || max?.max === undefined ? 0 : Number(max.max) + 1;
  await db
    .insertInto('docs')
    .values({ space_id: spaceId, kind, key, position, doc: JSON.stringify(doc), updated_at: now })
    .execute();
}

export async function deleteDoc(db: Queryable, spaceId: string, kind: string, key: string): Promise<boolean> {
  const r = await db
    .deleteFrom('docs')
    .where('space_id', '=', spaceId)
    .where('kind', '=', kind)
    .where('key', '=', key)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** The type of every entry of the space (what references in authored documents may name). */
export async function entryTypes(db: Queryable, spaceId: string): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('entries')
    .select(['id', 'type'])
    .where('space_id', '=', spaceId)
    .execute();
  return new Map(rows.map((r) => [r.id, r.type]));
}

export async function assetIds(db: Queryable, spaceId: string): Promise<Set<string>> {
  const rows = await db.selectFrom('assets').select('id').where('space_id', '=', spaceId).execute();
  return new Set(rows.map((r) => r.id));
}

/** How many entries have this parent (a page or folder with children is not deleted). */
export async function countChildren(db: Queryable, spaceId: string, id: string): Promise<number> {
  const row = await db
    .selectFrom('entries')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('space_id', '=', spaceId)
    .where('parent_id', '=', id)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function deleteEntryRow(db: Queryable, spaceId: string, id: string): Promise<void> {
  await db.deleteFrom('entries').where('space_id', '=', spaceId).where('id', '=', id).execute();
}

/** Authoring members of an entry that `updateEntryState` does not cover (name, tags, position). */
export async function updateEntryMeta(
  db: Queryable,
  spaceId: string,
  id: string,
  patch: { name?: string; tags?: string[]; position?: number; updatedAt: string },
): Promise<void> {
  await db
    .updateTable('entries')
    .set({
      ...(patch.name !== undefined && { name: patch.name }),
      ...(patch.tags !== undefined && { tags: JSON.stringify(patch.tags) }),
      ...(patch.position !== undefined && { position: patch.position }),
      updated_at: patch.updatedAt,
    })
    .where('space_id', '=', spaceId)
    .where('id', '=', id)
    .execute();
}

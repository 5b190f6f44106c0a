import type { AssetDoc, ContentTypeDef, FieldValues } from '../content/model.js';
import type { Selectable } from 'kysely';
import { bulkInsert } from './dialect/bulk-insert.js';
import type { Store } from './open-store.js';
import type { EntriesTable } from './schema.js';
import type { Queryable } from './spaces-repo.js';

/** An entry's authoring state. */
export interface EntryRow {
  id: string;
  type: string;
  name: string;
  slug: string;
  slugs: Record<string, string>;
  parentId: string | null;
  position: number;
  tags: string[];
  publishedFields: FieldValues | null;
  draftFields: FieldValues | null;
  publishedAt: string | null;
  firstPublishedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export async function insertEntries(
  db: Queryable,
  spaceId: string,
  entries: readonly EntryRow[],
): Promise<void> {
  await bulkInsert(
    db,
    'entries',
    ENTRY_COLUMNS,
    entries.map((e) => [
      spaceId,
      e.id,
      e.type,
      e.name,
      e.slug,
      JSON.stringify(e.slugs),
      e.parentId,
      e.position,
      JSON.stringify(e.tags),
      e.publishedFields === null ? null : JSON.stringify(e.publishedFields),
      e.draftFields === null ? null : JSON.stringify(e.draftFields),
      e.publishedAt,
      e.firstPublishedAt,
      e.createdAt,
      e.updatedAt,
    ]),
  );
}

const ENTRY_COLUMNS = [
  'space_id',
  'id',
  'type',
  'name',
  'slug',
  'slugs',
  'parent_id',
  'position',
  'tags',
  'published_fields',
  'draft_fields',
  'published_at',
  'first_published_at',
  'created_at',
  'updated_at',
];

export async function listEntries(
  store: Store,
  spaceId: string,
  db: Queryable = store.db,
): Promise<EntryRow[]> {
  const rows = await db
    .selectFrom('entries')
    .selectAll()
    .where('space_id', '=', spaceId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map((r) => entryRowOf(store, r));
}

/** Entries in id order after `afterId` (keyset pages: an export of a large space reads a page at a time). */
export async function listEntriesPage(
  store: Store,
  spaceId: string,
  afterId: string | null,
  limit: number,
): Promise<EntryRow[]> {
  const rows = await store.db
    .selectFrom('entries')
    .selectAll()
    .where('space_id', '=', spaceId)
    .$if(afterId !== null, (q) => q.where('id', '>', afterId ?? ''))
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => entryRowOf(store, r));
}

function entryRowOf(store: Store, r: Selectable<EntriesTable>): EntryRow {
  const json = store.dialect.parseJson;
  return {
    id: r.id,
    type: r.type,
    name: r.name,
    slug: r.slug,
    slugs: json<Record<string, string>>(r.slugs),
    parentId: r.parent_id,
    position: Number(r.position),
    tags: json<string[]>(r.tags),
    publishedFields: r.published_fields === null ? null : json<FieldValues>(r.published_fields),
    draftFields: r.draft_fields === null ? null : json<FieldValues>(r.draft_fields),
    publishedAt: r.published_at,
    firstPublishedAt: r.first_published_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export async function insertTypes(
  db: Queryable,
  spaceId: string,
  types: readonly ContentTypeDef[],
): Promise<void> {
  if (types.length === 0) return;
  await db
    .insertInto('content_types')
    .values(
      types.map((t, position) => ({
        space_id: spaceId,
        key: t.key,
        kind: t.kind,
        position,
        def: JSON.stringify(t),
      })),
    )
    .execute();
}

export async function listTypes(
  store: Store,
  spaceId: string,
  db: Queryable = store.db,
): Promise<ContentTypeDef[]> {
  const rows = await db
    .selectFrom('content_types')
    .select('def')
    .where('space_id', '=', spaceId)
    .orderBy('position')
    .execute();
  return rows.map((r) => store.dialect.parseJson<ContentTypeDef>(r.def));
}

export interface AssetRow {
  blobKey: string;
  doc: AssetDoc;
  createdAt: string;
}

export async function insertAssets(
  db: Queryable,
  spaceId: string,
  assets: readonly AssetRow[],
): Promise<void> {
  for (const a of assets) {
    await db
      .insertInto('assets')
      .values({
        space_id: spaceId,
        id: a.doc.id,
        blob_key: a.blobKey,
        doc: JSON.stringify(a.doc),
        created_at: a.createdAt,
      })
      .execute();
  }
}

export async function listAssets(
  store: Store,
  spaceId: string,
  db: Queryable = store.db,
): Promise<AssetRow[]> {
  const rows = await db
    .selectFrom('assets')
    .selectAll()
    .where('space_id', '=', spaceId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    blobKey: r.blob_key,
    doc: store.dialect.parseJson<AssetDoc>(r.doc),
    createdAt: r.created_at,
  }));
}

export async function getAsset(store: Store, spaceId: string, id: string): Promise<AssetRow | null> {
  const r = await store.db
    .selectFrom('assets')
    .selectAll()
    .where('space_id', '=', spaceId)
    .where('id', '=', id)
    .executeTakeFirst();
  return r
    ? { blobKey: r.blob_key, doc: store.dialect.parseJson<AssetDoc>(r.doc), createdAt: r.created_at }
    : null;
}

/** Authoring documents (menus, redirects, lists, forms, releases, webhooks) in their bundle shape. */
export async function putDocs(
  db: Queryable,
  spaceId: string,
  kind: string,
  docs: readonly { key: string; doc: unknown }[],
  now: string,
): Promise<void> {
  for (const [position, d] of docs.entries()) {
    await db
      .insertInto('docs')
      .values({ space_id: spaceId, kind, key: d.key, position, doc: JSON.stringify(d.doc), updated_at: now })
      .execute();
  }
}

export async function listDocs<T>(
  store: Store,
  spaceId: string,
  kind: string,
  db: Queryable = store.db,
): Promise<{ key: string; doc: T }[]> {
  const rows = await db
    .selectFrom('docs')
    .select(['key', 'doc'])
    .where('space_id', '=', spaceId)
    .where('kind', '=', kind)
    .orderBy('position')
    .orderBy('key')
    .execute();
  return rows.map((r) => ({ key: r.key, doc: store.dialect.parseJson<T>(r.doc) }));
}

/** Removes everything of a space but the space row itself (import --replace). */
export async function clearSpaceContent(db: Queryable, spaceId: string): Promise<void> {
  for (const table of [
    'tokens',
    'content_types',
    'entries',
    'entry_versions',
    'entry_paths',
    'assets',
    'docs',
    'doc_versions',
    'redirects',
    'webhooks',
    'webhook_deliveries',
  ] as const) {
    await db.deleteFrom(table).where('space_id', '=', spaceId).execute();
  }
  // Transitional: until src/bundle/import-bundle.ts calls `clearListSpace` itself.
}

export async function updateEntryState(
  db: Queryable,
  spaceId: string,
  id: string,
  patch: {
    publishedFields?: FieldValues | null;
    draftFields?: FieldValues | null;
    publishedAt?: string | null;
    firstPublishedAt?: string | null;
    slug?: string;
    slugs?: Record<string, string>;
    parentId?: string | null;
    updatedAt: string;
  },
): Promise<void> {
  const json = (v: FieldValues | null | undefined) =>
    v === undefined ? undefined : v === null ? null : JSON.stringify(v);
  await db
    .updateTable('entries')
    .set({
      ...(patch.publishedFields !== undefined && { published_fields: json(patch.publishedFields) ?? null }),
      ...(patch.draftFields !== undefined && { draft_fields: json(patch.draftFields) ?? null }),
      ...(patch.publishedAt !== undefined && { published_at: patch.publishedAt }),
      ...(patch.firstPublishedAt !== undefined && { first_published_at: patch.firstPublishedAt }),
      ...(patch.slug !== undefined && { slug: patch.slug }),
      ...(patch.slugs !== undefined && { slugs: JSON.stringify(patch.slugs) }),
      ...(patch.parentId !== undefined && { parent_id: patch.parentId }),
      updated_at: patch.updatedAt,
    })
    .where('space_id', '=', spaceId)
    .where('id', '=', id)
    .execute();
}

import { Problems } from '../lib/problems.js';
import { ENTRY_ID, SLUG } from '../bundle/validate-bundle.js';
import { checkFields } from '../bundle/validate-fields.js';
import { hasPaths, type FieldValues } from '../content/model.js';
import { applyPublish } from '../content/publish-entries.js';
import { newId } from '../lib/ids.js';
import { conflict, notFound } from '../errors/errors.js';
import { type EntryRow, insertEntries, listEntries, updateEntryState } from '../store/authoring-repo.js';
import type { Store } from '../store/open-store.js';
import type { SpaceRow } from '../store/spaces-repo.js';
import {
  invalid,
  loadFieldContext,
  loadRefContext,
  type RefContext,
  requireSpace,
} from '../content/context.js';
import { updateEntryMeta } from '../store/management-repo.js';

/** An entry as the management API shows it: authoring state, with the fields an editor would see. */
export function entryView(e: EntryRow) {
  return {
    id: e.id,
    type: e.type,
    name: e.name,
    slug: e.slug,
    slugs: e.slugs,
    parentId: e.parentId,
    position: e.position,
    tags: e.tags,
    // draft: never published; changed: published with unpublished changes (Contentful's statuses).
    status: e.publishedFields === null ? 'draft' : e.draftFields === null ? 'published' : 'changed',
    fields: e.draftFields ?? e.publishedFields ?? {},
    publishedFields: e.publishedFields,
    publishedAt: e.publishedAt,
    firstPublishedAt: e.firstPublishedAt,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  };
}
export type EntryView = ReturnType<typeof entryView>;

/** The space and its entries' authoring state, with one entry required to exist. */
export async function loadEntry(store: Store, spaceId: string, id: string) {
  const space = await requireSpace(store, spaceId);
  const rows = await listEntries(store, spaceId);
  const row = rows.find((r) => r.id === id);
  if (!row) throw notFound(`Entry "${id}" not found.`);
  return { space, rows, row };
}

export async function listEntryViews(
  store: Store,
  spaceId: string,
  filter: { type?: string; parent?: string },
) {
  await requireSpace(store, spaceId);
  return (await listEntries(store, spaceId))
    .filter((e) => filter.type === undefined || e.type === filter.type)
    .filter(
      (e) => filter.parent === undefined || e.parentId === (filter.parent === 'null' ? null : filter.parent),
    )
    .map(entryView);
}

export async function getEntryView(store: Store, spaceId: string, id: string): Promise<EntryView> {
  return entryView((await loadEntry(store, spaceId, id)).row);
}

/** Checks a parent: an existing folder or page, never the entry itself or below it (no cycles). */
export function checkParent(
  rows: readonly EntryRow[],
  ref: RefContext,
  entry: { id: string; type: string },
  parent: string | null,
  p: Problems,
): void {
  if (parent === null) return;
  const byId = new Map(rows.map((r) => [r.id, r]));
  const target = byId.get(parent);
  const kind = target ? ref.types.get(target.type)?.kind : undefined;
  if (!target) return p.add('.parent', `entry "${parent}" does not exist`);
  if (kind !== 'folder' && kind !== 'page') return p.add('.parent', `"${parent}" is not a folder or page`);
  if (!hasPaths(ref.types.get(entry.type)))
    return p.add('.parent', 'only pages, folders and page collections have parents');
  for (
    let cur: EntryRow | undefined = target;
    cur;
    cur = cur.parentId === null ? undefined : byId.get(cur.parentId)
  )
    if (cur.id === entry.id) return p.add('.parent', 'an entry cannot move inside itself');
}

export function checkSlugs(slug: unknown, slugs: unknown, locales: ReadonlySet<string>, p: Problems): void {
  if (slug !== undefined && (typeof slug !== 'string' || !SLUG.test(slug)))
    p.add('.slug', 'must be one path segment (or "" for a start page)');
  for (const [locale, s] of Object.entries((slugs ?? {}) as Record<string, unknown>)) {
    if (!locales.has(locale)) p.add(`.slugs.${locale}`, `"${locale}" is not a locale of the space`);
    else if (s !== null && (typeof s !== 'string' || !SLUG.test(s)))
      p.add(`.slugs.${locale}`, 'must be one path segment or null');
  }
}

async function checkEntryFields(
  store: Store,
  space: SpaceRow,
  ref: RefContext,
  e: { id: string; type: string },
  fields: unknown,
) {
  const ctx = await loadFieldContext(store, store.db, ref, space.id, e);
  const type = ref.types.get(e.type);
  if (type) checkFields(fields, type, '.fields', ctx);
  if (!ctx.problems.empty) throw invalid('entry', ctx.problems.list);
}

export interface CreateEntryBody {
  id?: string;
  type: string;
  name: string;
  slug: string;
  slugs?: Record<string, string>;
  parent?: string | null;
  position?: number;
  tags?: string[];
  fields?: FieldValues;
}

/** Creates an entry as a draft (nothing is delivered until it is published). */
export async function createEntry(store: Store, spaceId: string, body: CreateEntryBody): Promise<EntryView> {
  const space = await requireSpace(store, spaceId);
  const ref = await loadRefContext(store, store.db, space);
  const rows = await listEntries(store, spaceId);
  const id = body.id ?? newId('ent');
  const p = new Problems();
  if (!ENTRY_ID.test(id)) p.add('.id', 'must be an ent_ id');
  const type = ref.types.get(body.type);
  if (!type) p.add('.type', `"${body.type}" is not a type of the space`);
  else if (type.kind === 'block') p.add('.type', `"${body.type}" is a block type, not an entry type`);
  checkSlugs(body.slug, body.slugs, ref.locales, p);
  checkParent(rows, ref, { id, type: body.type }, body.parent ?? null, p);
  if (!p.empty) throw invalid('entry', p.list);
  if (rows.some((r) => r.id === id)) throw conflict(`Entry "${id}" already exists.`);
  if (type?.kind === 'global' && rows.some((r) => r.type === type.key))
    throw conflict(`The global "${type.key}" has its entry already.`);
  await checkEntryFields(store, space, ref, { id, type: body.type }, body.fields ?? {});
  const parentId = body.parent ?? null;
  const siblings = rows.filter((r) => r.parentId === parentId).map((r) => r.position);
  const now = new Date().toISOString();
  const row: EntryRow = {
    id,
    type: body.type,
    name: body.name,
    slug: body.slug,
    slugs: body.slugs ?? {},
    parentId,
    position: body.position ?? (siblings.length === 0 ? 0 : Math.max(...siblings) + 1),
    tags: body.tags ?? [],
    publishedFields: null,
    draftFields: body.fields ?? {},
    publishedAt: null,
    firstPublishedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  await insertEntries(store.db, spaceId, [row]);
  return entryView(row);
}

/** Saves a draft: `fields` replace the draft's fields whole; `name` and `tags` are delivered at the next publish. */
export async function updateEntry(
  store: Store,
  spaceId: string,
  id: string,
  body: { name?: string; tags?: string[]; fields?: FieldValues },
): Promise<EntryView> {
  const { space, row } = await loadEntry(store, spaceId, id);
  if (body.fields !== undefined) {
    const ref = await loadRefContext(store, store.db, space);
    await checkEntryFields(store, space, ref, row, body.fields);
  }
  const updatedAt = new Date().toISOString();
  await updateEntryMeta(store.db, spaceId, id, {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.tags !== undefined ? { tags: body.tags } : {}),
    updatedAt,
  });
  if (body.fields !== undefined)
    await updateEntryState(store.db, spaceId, id, { draftFields: body.fields, updatedAt });
  return getEntryView(store, spaceId, id);
}

/** Publishes the entry's draft (spec 3.4: one cv bump); 409 when its path is another page's. */
export async function publishEntry(store: Store, spaceId: string, id: string) {
  await loadEntry(store, spaceId, id);
  const { cv } = await applyPublish(store, spaceId, { publish: new Map([[id, 'draft' as const]]) });
  return { entry: await getEntryView(store, spaceId, id), cv };
}

/** Takes the entry out of delivery; its fields stay as the draft. Unpublished already: nothing happens. */
export async function unpublishEntry(store: Store, spaceId: string, id: string) {
  const { row } = await loadEntry(store, spaceId, id);
  if (row.publishedFields === null) return { entry: entryView(row), cv: null };
  const { cv } = await applyPublish(store, spaceId, { unpublish: [id] });
  return { entry: await getEntryView(store, spaceId, id), cv };
}

import { at, isObject } from '../lib/problems.js';
import { RELEASE_ID } from '../bundle/validate-bundle.js';
import { checkFields } from '../bundle/validate-fields.js';
import type { FieldValues } from '../content/model.js';
import { publishInTx } from '../content/publish-core.js';
import { newId } from '../lib/ids.js';
import { conflict, notFound } from '../errors/errors.js';
import { listDocs } from '../store/authoring-repo.js';
import type { Store } from '../store/open-store.js';
import { withPublish } from '../content/publish-log.js';
import { invalid, loadFieldContext, loadRefContext, requireSpace } from '../content/context.js';
import { deleteDoc, getDoc, upsertDoc } from '../store/management-repo.js';

/** A release (bundle `releases[]`): entries' fields to publish together, previewable before (spec 4.1). */
export interface ReleaseDoc {
  id: string;
  name: string;
  entries: { id: string; fields: FieldValues }[];
}

const KIND = 'releases';

export async function listReleases(store: Store, spaceId: string): Promise<ReleaseDoc[]> {
  await requireSpace(store, spaceId);
  return (await listDocs<ReleaseDoc>(store, spaceId, KIND)).map((d) => d.doc);
}

export async function getRelease(store: Store, spaceId: string, id: string): Promise<ReleaseDoc> {
  await requireSpace(store, spaceId);
  const doc = await getDoc<ReleaseDoc>(store, store.db, spaceId, KIND, id);
  if (!doc) throw notFound(`Release "${id}" not found.`);
  return doc;
}

async function check(store: Store, spaceId: string, release: ReleaseDoc): Promise<void> {
  const space = await requireSpace(store, spaceId);
  const ref = await loadRefContext(store, store.db, space);
  const ctx = await loadFieldContext(store, store.db, ref, spaceId);
  const p = ctx.problems;
  if (!RELEASE_ID.test(release.id)) p.add('.id', 'must be a rel_ id');
  const seen = new Set<string>();
  release.entries.forEach((e, i) => {
    const ep = at('.entries', i);
    const type = ref.types.get(ref.entryTypes.get(e.id) ?? '');
    if (!isObject(e) || !type) return p.add(at(ep, 'id'), 'must name an entry of the space');
    if (seen.has(e.id)) p.add(at(ep, 'id'), `entry "${e.id}" is in the release twice`);
    seen.add(e.id);
    checkFields(e.fields, type, at(ep, 'fields'), ctx);
  });
  if (!p.empty) throw invalid('release', p.list);
}

/** Creates a release (an id is generated unless given). Releases are previews: nothing is published. */
export async function createRelease(
  store: Store,
  spaceId: string,
  body: { id?: string; name: string; entries?: ReleaseDoc['entries'] },
): Promise<ReleaseDoc> {
  const release: ReleaseDoc = { id: body.id ?? newId('rel'), name: body.name, entries: body.entries ?? [] };
  await check(store, spaceId, release);
  if (await getDoc(store, store.db, spaceId, KIND, release.id))
    throw conflict(`Release "${release.id}" already exists.`);
  await upsertDoc(store.db, spaceId, KIND, release.id, release, new Date().toISOString());
  return release;
}

export async function replaceRelease(
  store: Store,
  spaceId: string,
  id: string,
  body: { name: string; entries: ReleaseDoc['entries'] },
): Promise<ReleaseDoc> {
  await getRelease(store, spaceId, id);
  const release: ReleaseDoc = { id, name: body.name, entries: body.entries };
  await check(store, spaceId, release);
  await upsertDoc(store.db, spaceId, KIND, id, release, new Date().toISOString());
  return release;
}

export async function deleteRelease(store: Store, spaceId: string, id: string): Promise<void> {
  await getRelease(store, spaceId, id);
  await deleteDoc(store.db, spaceId, KIND, id);
}

/**
 * Publishes a release at once: every entry's release fields become its published fields in one transaction
 * at one cv (with the redirects and events of any publish), and the release, now live, is removed.
 */
export async function publishRelease(store: Store, spaceId: string, id: string): Promise<{ cv: number }> {
  const release = await getRelease(store, spaceId, id);
  await check(store, spaceId, release);
  const space = await requireSpace(store, spaceId);
  const publish = new Map(release.entries.map((e) => [e.id, e.fields]));
  const now = new Date().toISOString();
  const { cv } = await withPublish(store, spaceId, async (tx, cv) => {
    await publishInTx(store, tx, spaceId, cv, space.settings, { publish }, now);
    await deleteDoc(tx, spaceId, KIND, id);
  });
  return { cv };
}

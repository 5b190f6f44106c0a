import { at, isObject, KEY, Problems } from '../lib/problems.js';
import { conflict, notFound } from '../errors/errors.js';
import { listDocs, listTypes } from '../store/authoring-repo.js';
import { closeDoc, putDocVersion } from '../store/log-repo.js';
import type { Store } from '../store/open-store.js';
import { withPublish } from '../content/publish-log.js';
import { invalid, requireSpace } from '../content/context.js';
import { deleteDoc, getDoc, upsertDoc } from '../store/management-repo.js';

/** A shared option list (spec 2.8; bundle `lists[]`): values with labels per locale. */
export interface ListDoc {
  key: string;
  name?: string;
  options: { value: string; label: Record<string, string> }[];
}

const KIND = 'lists';

export async function listLists(store: Store, spaceId: string): Promise<ListDoc[]> {
  await requireSpace(store, spaceId);
  return (await listDocs<ListDoc>(store, spaceId, KIND)).map((d) => d.doc);
}

export async function getList(store: Store, spaceId: string, key: string): Promise<ListDoc> {
  await requireSpace(store, spaceId);
  const doc = await getDoc<ListDoc>(store, store.db, spaceId, KIND, key);
  if (!doc) throw notFound(`List "${key}" not found.`);
  return doc;
}

/** Creates or replaces an option list; saving publishes it (one cv bump; delivered from the new cv on). */
export async function saveList(
  store: Store,
  spaceId: string,
  key: string,
  body: { name?: string; options: ListDoc['options'] },
): Promise<{ list: ListDoc; cv: number }> {
  const space = await requireSpace(store, spaceId);
  const locales = new Set(space.settings.locales.map((l) => l.code));
  const p = new Problems();
  if (!KEY.test(key)) p.add('.key', 'must be a key (letters, digits, _ -)');
  const values = new Set<string>();
  body.options.forEach((o, i) => {
    const op = at('.options', i);
    if (values.has(o.value)) p.add(at(op, 'value'), `duplicate value "${o.value}"`);
    values.add(o.value);
    if (!isObject(o.label)) p.add(at(op, 'label'), 'must be an object keyed by locale');
    else
      for (const [l, text] of Object.entries(o.label))
        if (!locales.has(l) || typeof text !== 'string')
          p.add(at(at(op, 'label'), l), 'must be a text in a locale of the space');
  });
  if (!p.empty) throw invalid('list', p.list);
  const list: ListDoc = {
    key,
    ...(body.name !== undefined ? { name: body.name } : {}),
    options: body.options,
  };
  const now = new Date().toISOString();
  const { cv } = await withPublish(store, spaceId, async (tx, cv) => {
    await upsertDoc(tx, spaceId, KIND, key, list, now);
    await putDocVersion(tx, spaceId, cv, 'list', key, list);
  });
  return { list, cv };
}

/** Deletes an option list no field uses (409 naming the field otherwise). */
export async function deleteList(store: Store, spaceId: string, key: string): Promise<{ cv: number }> {
  await getList(store, spaceId, key);
  for (const t of await listTypes(store, spaceId))
    for (const f of t.fields)
      if (f.list === key) throw conflict(`List "${key}" is used by ${t.key}.${f.key}.`);
  const { cv } = await withPublish(store, spaceId, async (tx, cv) => {
    await deleteDoc(tx, spaceId, KIND, key);
    await closeDoc(tx, spaceId, 'list', key, cv);
  });
  return { cv };
}

import type { Transaction } from 'kysely';
import type { ListOption } from '../definition/index.js';
import type { FormDefinition } from '../rules/index.js';
import { closeDoc, putDocVersion, readDocsAt } from '../../store/log-repo.js';
import type { Store } from '../../store/open-store.js';
import type { Database } from '../../store/schema.js';
import type { Queryable } from '../../store/spaces-repo.js';

/** Authoring documents keep the bundle's kind name; the published log has one `form` version per form. */
const AUTHORED = 'forms';
const PUBLISHED = 'form';

// ---- published definitions (what delivery and submissions read) ----------------------------------------

export async function readFormsAt(
  store: Store,
  spaceId: string,
  keys: readonly string[],
  cv: number,
): Promise<Map<string, FormDefinition>> {
  return readDocsAt<FormDefinition>(store, spaceId, PUBLISHED, keys, cv);
}

/** Shared option lists (spec 2.8) by key, as published at cv: `{ value, label: { <locale>: text } }`. */
export async function readListsAt(
  store: Store,
  spaceId: string,
  keys: readonly string[],
  cv: number,
): Promise<Record<string, ListOption[]>> {
  const docs = await readDocsAt<{ options?: ListOption[] }>(store, spaceId, 'list', keys, cv);
  const out: Record<string, ListOption[]> = Object.create(null) as Record<string, ListOption[]>;
  for (const [key, doc] of docs) out[key] = Array.isArray(doc.options) ? doc.options : [];
  return out;
}

/** Keys of every list published at cv (authoring validation: a `list` must name one). */
export async function listKeysAt(store: Store, spaceId: string, cv: number): Promise<Set<string>> {
  return new Set((await readDocsAt<unknown>(store, spaceId, 'list', 'all', cv)).keys());
}

/**
 * Stored non-spam submissions per form (spec 3.1 "full"), kept for forms with a capacity (the only ones whose
 * status depends on it); other forms count 0.
 */
export async function readFormCounts(
  store: Store,
  spaceId: string,
  keys: readonly string[],
): Promise<Map<string, number>> {
  const out = new Map<string, number>(keys.map((k) => [k, 0]));
  if (keys.length === 0) return out;
  const rows = await store.db
    .selectFrom('form_counters')
    .select(['form_key', 'count'])
    .where('space_id', '=', spaceId)
    .where('form_key', 'in', [...keys])
    .execute();
  for (const r of rows) out.set(r.form_key, Number(r.count));
  return out;
}

// ---- authoring ------------------------------------------------------------------------------------------

export async function listAuthoredForms(store: Store, spaceId: string): Promise<FormDefinition[]> {
  const rows = await store.db
    .selectFrom('docs')
    .select('doc')
    .where('space_id', '=', spaceId)
    .where('kind', '=', AUTHORED)
    .orderBy('position')
    .orderBy('key')
    .execute();
  return rows.map((r) => store.dialect.parseJson<FormDefinition>(r.doc));
}

export async function getAuthoredForm(
  store: Store,
  spaceId: string,
  key: string,
  db: Queryable = store.db,
): Promise<FormDefinition | null> {
  const row = await db
    .selectFrom('docs')
    .select('doc')
    .where('space_id', '=', spaceId)
    .where('kind', '=', AUTHORED)
    .where('key', '=', key)
    .executeTakeFirst();
  return row ? store.dialect.parseJson<FormDefinition>(row.doc) : null;
}

/** Creates or replaces the authored form; a new form goes after the existing ones. Returns whether it existed. */
export async function upsertAuthoredForm(
  tx: Transaction<Database>,
  spaceId: string,
  form: FormDefinition,
  now: string,
): Promise<boolean> {
  const existing = await tx
    .selectFrom('docs')
    .select('position')
    .where('space_id', '=', spaceId)
    .where('kind', '=', AUTHORED)
    .where('key', '=', form.key)
    .executeTakeFirst();
  if (existing) {
    await tx
      .updateTable('docs')
      .set({ doc: JSON.stringify(form), updated_at: now })
      .where('space_id', '=', spaceId)
      .where('kind', '=', AUTHORED)
      .where('key', '=', form.key)
      .execute();
    return true;
  }
  const last = await tx
    .selectFrom('docs')
    .select((eb) => eb.fn.max('position').as('max'))
    .where('space_id', '=', spaceId)
    .where('kind', '=', AUTHORED)
    .executeTakeFirst();
  const position = last?.max === null || last?.max === undefined ? 0 : Number(last.max) + 1;
  await tx
    .insertInto('docs')
    .values({
      space_id: spaceId,
      kind: AUTHORED,
      key: form.key,
      position,
      doc: JSON.stringify(form),
      updated_at: now,
    })
    .execute();
  return false;
}

/** Removes the authored form; returns whether it existed. */
export async function deleteAuthoredForm(
  tx: Transaction<Database>,
  spaceId: string,
  key: string,
): Promise<boolean> {
  const res = await tx
    .deleteFrom('docs')
    .where('space_id', '=', spaceId)
    .where('kind', '=', AUTHORED)
    .where('key', '=', key)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/**
 * Publishes a form definition at cv (spec 3.4: saving a form counts as a publish). A form with a capacity gets
 * its counter brought to the number of stored inbox submissions, so a capacity added later counts the
 * submissions already there. Runs in the publish transaction (`withPublish`, or the bundle import's).
 */
export async function publishForm(
  tx: Transaction<Database>,
  spaceId: string,
  cv: number,
  form: FormDefinition,
): Promise<void> {
  await putDocVersion(tx, spaceId, cv, PUBLISHED, form.key, form);
  if (form.settings.maxSubmissions !== null && form.settings.maxSubmissions !== undefined) {
    await syncCounter(tx, spaceId, form.key);
  }
}

/** Unpublishes a form at cv; its submissions and counter stay (they are the inbox's, not the definition's). */
export async function unpublishForm(tx: Transaction<Database>, spaceId: string, key: string, cv: number) {
  await closeDoc(tx, spaceId, PUBLISHED, key, cv);
}

/**
 * Sets a form's counter to its stored inbox submissions. The first UPDATE takes the counter row's lock (waiting
 * for submissions holding it to commit) before counting, so a concurrent submission is counted exactly once.
 */
export async function syncCounter(
  tx: Transaction<Database>,
  spaceId: string,
  formKey: string,
): Promise<void> {
  await tx
    .insertInto('form_counters')
    .values({ space_id: spaceId, form_key: formKey, count: 0 })
    .onConflict((oc) => oc.columns(['space_id', 'form_key']).doNothing())
    .execute();
  const counter = tx
    .updateTable('form_counters')
    .where('space_id', '=', spaceId)
    .where('form_key', '=', formKey);
  await counter.set((eb) => ({ count: eb.ref('count') })).execute();
  const row = await tx
    .selectFrom('submissions')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('space_id', '=', spaceId)
    .where('form_key', '=', formKey)
    .where('folder', '=', 'inbox')
    .executeTakeFirst();
  await counter.set({ count: Number(row?.n ?? 0) }).execute();
}

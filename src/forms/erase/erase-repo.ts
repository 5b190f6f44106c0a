import { sql } from 'kysely';
import type { Store } from '../../store/open-store.js';

/** A submission that might hold the address (its values' text contains it), to be checked field by field. */
export interface EraseCandidate {
  id: string;
  formKey: string;
  folder: 'inbox' | 'spam';
  uniqueKey: string | null;
  values: unknown;
}

/** `%` and `_` of a LIKE pattern, and the escape itself, taken literally. */
export const likeLiteral = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Submissions of the space (every form, deleted ones included, inbox and spam) whose values contain `address`
 * anywhere, case-insensitively, or whose uniqueField address is it: a cheap prefilter on the JSON text, in pages by
 * id. Which of them really hold it in an email field is the caller's check.
 */
export async function eraseCandidates(
  store: Store,
  spaceId: string,
  address: string,
  after: string | null,
  limit: number,
): Promise<EraseCandidate[]> {
  const text = sql`lower(${store.dialect.jsonText('values')})`;
  const pattern = `%${likeLiteral(address)}%`;
  const rows = await store.db
    .selectFrom('submissions')
    .select(['id', 'form_key', 'folder', 'unique_key', 'values'])
    .where('space_id', '=', spaceId)
    .where((eb) =>
      eb.or([
        eb('unique_key', '=', address),
        eb(sql<string>`${text}`, 'like', sql<string>`${pattern} escape '\\'`),
      ]),
    )
    .$if(after !== null, (q) => q.where('id', '>', after ?? ''))
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    formKey: r.form_key,
    folder: r.folder,
    uniqueKey: r.unique_key,
    values: store.dialect.parseJson<unknown>(r.values),
  }));
}

/**
 * The email fields every form of the space has had: in its authored definition and in every published version
 * still kept (a field renamed, retyped or removed since still names where an address was stored), deleted forms
 * included. Definitions are read defensively: anything that is not `{ key, type: 'email' }` is skipped.
 */
export async function emailFieldsByForm(store: Store, spaceId: string): Promise<Map<string, Set<string>>> {
  const authored = await store.db
    .selectFrom('docs')
    .select(['key', 'doc'])
    .where('space_id', '=', spaceId)
    .where('kind', '=', 'forms')
    .execute();
  const published = await store.db
    .selectFrom('doc_versions')
    .select(['key', 'doc'])
    .where('space_id', '=', spaceId)
    .where('kind', '=', 'form')
    .execute();
  const out = new Map<string, Set<string>>();
  for (const row of [...authored, ...published]) {
    const doc = store.dialect.parseJson<unknown>(row.doc);
    const fields = typeof doc === 'object' && doc !== null ? (doc as { fields?: unknown }).fields : undefined;
    const keys = out.get(row.key) ?? new Set<string>();
    out.set(row.key, keys);
    if (!Array.isArray(fields)) continue;
    for (const f of fields as unknown[]) {
      if (typeof f !== 'object' || f === null) continue;
      const { key, type } = f as { key?: unknown; type?: unknown };
      if (type === 'email' && typeof key === 'string') keys.add(key);
    }
  }
  return out;
}

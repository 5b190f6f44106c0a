// The reindex step `inbox-search`: submissions stored before migration 0027 get their folded search copy
// (`search_text`) and their chosen options (`submission_options`), computed with today's code (src/lib/search-fold.ts,
// ../submission/chosen-options.ts). The options follow the form's choice fields as authored now, or as last
// published for a deleted form: what the inbox offers to filter by.

import type { Transaction } from 'kysely';
import type { StoreDialect } from '../../store/dialect/dialect.js';
import type { ReindexStep } from '../../store/reindex.js';
import type { Database } from '../../store/schema.js';
import { searchTextOf } from '../../lib/search-fold.js';
import { CHOICE_TYPES } from '../submission/chosen-options.js';
import { insertChosenOptions } from '../submission/submissions-repo.js';

/** Submissions read per statement. */
const PAGE = 500;

type ChoiceFields = { key: string; type: string }[];

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The choice fields of a stored definition, read defensively (anything else is skipped). */
function choiceFieldsOf(doc: unknown): ChoiceFields {
  if (!isRecord(doc) || !Array.isArray(doc.fields)) return [];
  return (doc.fields as unknown[]).flatMap((f) =>
    isRecord(f) && typeof f.key === 'string' && typeof f.type === 'string' && CHOICE_TYPES.has(f.type)
      ? [{ key: f.key, type: f.type }]
      : [],
  );
}

/** Per space and form key: the authored definition's choice fields, else the newest published version's. */
async function choiceFieldsByForm(
  tx: Transaction<Database>,
  dialect: StoreDialect,
): Promise<Map<string, ChoiceFields>> {
  const out = new Map<string, ChoiceFields>();
  const published = await tx
    .selectFrom('doc_versions')
    .select(['space_id', 'key', 'doc'])
    .where('kind', '=', 'form')
    .orderBy('cv_from')
    .execute();
  // Oldest first: the newest version is the one left in the map.
  for (const r of published)
    out.set(`${r.space_id} ${r.key}`, choiceFieldsOf(dialect.parseJson<unknown>(r.doc)));
  const authored = await tx
    .selectFrom('docs')
    .select(['space_id', 'key', 'doc'])
    .where('kind', '=', 'forms')
    .execute();
  for (const r of authored)
    out.set(`${r.space_id} ${r.key}`, choiceFieldsOf(dialect.parseJson<unknown>(r.doc)));
  return out;
}

export const INBOX_SEARCH_REINDEX: ReindexStep = {
  step: 'inbox-search',
  version: 1,
  async run(tx, dialect) {
    const fieldsByForm = await choiceFieldsByForm(tx, dialect);
    let after = '';
    for (;;) {
      const rows = await tx
        .selectFrom('submissions')
        .select(['id', 'space_id', 'form_key', 'folder', 'status', 'values', 'created_at'])
        .where('id', '>', after)
        .where('search_text', 'is', null)
        .orderBy('id')
        .limit(PAGE)
        .execute();
      for (const r of rows) {
        const parsed = dialect.parseJson<unknown>(r.values);
        const values = isRecord(parsed) ? parsed : {};
        await tx
          .updateTable('submissions')
          .set({ search_text: searchTextOf(values) })
          .where('id', '=', r.id)
          .execute();
        await insertChosenOptions(
          tx,
          {
            id: r.id,
            spaceId: r.space_id,
            form: r.form_key,
            folder: r.folder,
            values,
            createdAt: r.created_at,
            status: r.status,
          },
          fieldsByForm.get(`${r.space_id} ${r.form_key}`) ?? [],
        );
      }
      const last = rows[rows.length - 1];
      if (!last || rows.length < PAGE) return;
      after = last.id;
    }
  },
};

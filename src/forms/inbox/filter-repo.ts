import { type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { StoreDialect } from '../../store/dialect/dialect.js';
import type { Database } from '../../store/schema.js';
import type { InboxFilter } from './filter.js';
import type { PlannedSearch } from './search-plan.js';

/**
 * Adds a filter's conditions to a select on `submissions` (the caller adds space and form). Columns are qualified,
 * so the select may join other tables. A field filter on one of `choiceKeys` (the form's choice fields) matches the
 * options the submission chose (`submission_options`, an index probe); on any other key, the stored JSON. `search`:
 * the index conditions planned for this filter (search-plan.ts), else the search tests every row of the form.
 */
export function applyInboxFilter<O>(
  qb: SelectQueryBuilder<Database, 'submissions', O>,
  filter: InboxFilter,
  dialect: StoreDialect,
  choiceKeys: ReadonlySet<string> = new Set(),
  search?: PlannedSearch,
): SelectQueryBuilder<Database, 'submissions', O> {
  let q = qb.where('submissions.folder', '=', filter.folder);
  // parseInboxFilter never gives an empty list; a caller's own empty list matches nothing (`in ()` is no SQL).
  if (filter.statuses !== null)
    q =
      filter.statuses.length === 0
        ? q.where((eb) => eb.lit(false))
        : q.where('submissions.status', 'in', [...filter.statuses]);
  if (filter.from !== null) q = q.where('submissions.created_at', '>=', filter.from);
  if (filter.to !== null) q = q.where('submissions.created_at', '<', filter.to);
  const assignee = filter.assignee;
  // Unassigned: no person, and no name given before people existed.
  if (assignee.kind === 'unassigned')
    q = q.where('submissions.assignee_id', 'is', null).where('submissions.assignee', 'is', null);
  if (assignee.kind === 'is') q = q.where('submissions.assignee_id', '=', assignee.id);
  for (const f of filter.fields) {
    if (choiceKeys.has(f.key)) q = q.where(choseOption('submissions.id', f));
    else q = q.where(dialect.jsonFieldHas('submissions.values', f.key, f.value));
  }
  for (const narrowing of search?.answers ?? []) q = q.where(narrowing);
  // Both sides folded (filter.ts folds the query): a plain substring test, the same on both engines.
  if (filter.q !== null) q = q.where(search?.text ?? dialect.submissionTextLike(filter.q));
  return q;
}

/** Whether the submission `id` names chose the option (`submission_options`: a probe of its primary key). */
export function choseOption(
  id: 'submissions.id' | 'o.submission_id',
  option: { key: string; value: string },
) {
  return sql<SqlBool>`exists (select 1 from submission_options as chosen where chosen.submission_id = ${sql.ref(id)} and chosen.field_key = ${option.key} and chosen.value = ${option.value})`;
}

import type { SelectQueryBuilder } from 'kysely';
import type { StoreDialect } from '../../store/dialect/dialect.js';
import type { Database } from '../../store/schema.js';
import type { InboxFilter } from './filter.js';

/** `\`, `%` and `_` of the search text stand for themselves in the LIKE pattern (escape character `\`). */
export function likeContains(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Adds a filter's conditions to a select on `submissions` (the caller adds space and form). Columns are qualified,
 * so the select may join other tables.
 */
export function applyInboxFilter<O>(
  qb: SelectQueryBuilder<Database, 'submissions', O>,
  filter: InboxFilter,
  dialect: StoreDialect,
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
  if (assignee.kind === 'unassigned') q = q.where('submissions.assignee', 'is', null);
  if (assignee.kind === 'is') q = q.where('submissions.assignee', '=', assignee.name);
  for (const f of filter.fields) q = q.where(dialect.jsonFieldHas('submissions.values', f.key, f.value));
  if (filter.q !== null) q = q.where(dialect.jsonValueLike('submissions.values', likeContains(filter.q)));
  return q;
}

// Pages of a list read in its order, (created_at, id) newest or oldest first, from the submissions' list index; and
// the page of a filter with more matches than the count limit, whose matches may all lie far down that order.

import { type ExpressionBuilder, sql } from 'kysely';
import type { StoreDialect } from '../../store/dialect/dialect.js';
import type { Database } from '../../store/schema.js';
import type { Queryable } from '../../store/spaces-repo.js';
import type { ListOrder, ListPosition } from './cursor.js';
import { type InboxFilter, applyInboxFilter } from './filter.js';
import { type FormScope, itemQuery } from './inbox-repo.js';
import type { PlannedSearch } from './search-plan.js';

/** Rows of the list's order searched for a page of a common filter's matches before they are all sorted instead. */
export const WALK_LIMIT = 1_000;

export interface PageRequest {
  filter: InboxFilter;
  /** The form's choice fields: a field filter on one of them is read from `submission_options`. */
  choiceKeys: ReadonlySet<string>;
  order: ListOrder;
  limit: number;
  after: ListPosition | null;
  /** The calling person (a management token id), for `read`. */
  reader: string;
  /** WALK_LIMIT unless a test sets a smaller one. */
  walkLimit?: number;
}

interface Reader {
  db: Queryable;
  dialect: StoreDialect;
}

export const direction = (order: ListOrder) => (order === 'newest' ? 'desc' : 'asc');

/**
 * After the cursor in the list's order: `created_at <=/>= a AND (created_at </> a OR id </> b)` rather than one OR,
 * so both engines seek the index.
 */
function afterPosition(order: ListOrder, after: ListPosition) {
  const cmp = order === 'newest' ? '<' : '>';
  return (eb: ExpressionBuilder<Database, 'submissions'>) =>
    eb.and([
      eb('submissions.created_at', cmp === '<' ? '<=' : '>=', after.createdAt),
      eb.or([eb('submissions.created_at', cmp, after.createdAt), eb('submissions.id', cmp, after.id)]),
    ]);
}

/** The form's submissions the filter matches, as list positions, in whatever order the engine finds them. */
export function matchPositions(store: Reader, scope: FormScope, req: PageRequest, search: PlannedSearch) {
  return applyInboxFilter(
    store.db
      .selectFrom('submissions')
      .where('submissions.space_id', '=', scope.spaceId)
      .where('submissions.form_key', '=', scope.formKey),
    req.filter,
    store.dialect,
    req.choiceKeys,
    search,
  ).select(['submissions.id as id', 'submissions.created_at as created_at']);
}

/**
 * Up to `limit + 1` rows after the cursor, read in the list's index order and tested one by one; with `edge`, only
 * rows up to that time (a bounded walk).
 */
export function pageInListOrder(
  store: Reader,
  scope: FormScope,
  req: PageRequest,
  search: PlannedSearch,
  edge?: string,
) {
  const dir = direction(req.order);
  const after = req.after;
  return applyInboxFilter(
    itemQuery(store.db, scope, req.reader),
    req.filter,
    store.dialect,
    req.choiceKeys,
    search,
  )
    .$if(after !== null, (qb) => qb.where(afterPosition(req.order, after ?? { createdAt: '', id: '' })))
    .$if(edge !== undefined, (qb) =>
      qb.where('submissions.created_at', dir === 'desc' ? '>=' : '<=', edge ?? ''),
    )
    .orderBy('submissions.created_at', dir)
    .orderBy('submissions.id', dir)
    .limit(req.limit + 1)
    .execute();
}

/**
 * The page of a filter known to match more rows than the count limit. Common matches fill a page within the list's
 * first `walkLimit` rows after the cursor, so the walk stops there (an index-only read finds where); when they do not
 * (a word common in old submissions only), every match is read in the order the engine's best index gives them and
 * the page sorted from them, rather than walking every newer row. Answers the page's ids, or null: read the rows in
 * list order (`pageInListOrder`, bounded by the walk limit when the list is longer).
 */
export async function commonMatchesPage(
  store: Reader,
  scope: FormScope,
  req: PageRequest,
  search: PlannedSearch,
): Promise<{ rows: Awaited<ReturnType<typeof pageInListOrder>> } | { ids: string[] }> {
  const dir = direction(req.order);
  const after = req.after;
  const walk = req.walkLimit ?? WALK_LIMIT;
  const edge = await store.db
    .selectFrom('submissions')
    .select('submissions.created_at')
    .where('submissions.space_id', '=', scope.spaceId)
    .where('submissions.form_key', '=', scope.formKey)
    .where('submissions.folder', '=', req.filter.folder)
    .$if(after !== null, (qb) => qb.where(afterPosition(req.order, after ?? { createdAt: '', id: '' })))
    .orderBy('submissions.created_at', dir)
    .orderBy('submissions.id', dir)
    .limit(1)
    .offset(walk)
    .executeTakeFirst();
  // Fewer rows than the walk limit after the cursor: walking them all is bounded already.
  if (edge === undefined) return { rows: await pageInListOrder(store, scope, req, search) };
  const walked = await pageInListOrder(store, scope, req, search, edge.created_at);
  if (walked.length > req.limit) return { rows: walked };
  // The LIMIT inside keeps the engine from folding the subquery into the ordered one (which would walk the list's
  // order again): it finds the matches its own way, and only they are sorted.
  const matches = matchPositions(store, scope, req, search)
    .$if(after !== null, (qb) => qb.where(afterPosition(req.order, after ?? { createdAt: '', id: '' })))
    .limit(sql<number>`2147483647`);
  const page = await store.db
    .selectFrom(matches.as('m'))
    .select('m.id')
    .orderBy('m.created_at', dir)
    .orderBy('m.id', dir)
    .limit(req.limit + 1)
    .execute();
  return { ids: page.map((r) => r.id) };
}

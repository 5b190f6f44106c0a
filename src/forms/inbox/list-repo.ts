// The inbox list's SQL: a page in either order with the total that matches, neither read by walking every submission
// of a form. The total comes from counters where the filter allows (the store's tallies per folder and status,
// migration 0022; per chosen option, folder and status, 0027), else from one index range (options within dates:
// option-range-repo.ts; a date range; a person's assignments), else, for a search or answers tested row by row, from
// the matching rows found up to TOTAL_COUNT_LIMIT. Past the limit (several options count up to it too) the total is a
// lower bound (`totalExact: false`), as search engines report "more than 10,000", so a word in nearly every
// submission costs a thousand rows, not every row, and a rarer one's page is sorted from its matches instead of found
// by walking the list's order.

import type { Store } from '../../store/open-store.js';
import type { ListPosition } from './cursor.js';
import { applyInboxFilter } from './filter.js';
import { type FormScope, itemsByIds, peopleNames } from './inbox-repo.js';
import { type InboxItem, toItem } from './items.js';
import {
  type OptionDrive,
  optionFilters,
  optionMatchCount,
  optionPageIds,
  optionRange,
  rarestFirst,
} from './option-range-repo.js';
import {
  commonMatchesPage,
  direction,
  matchPositions,
  type PageRequest,
  pageInListOrder,
} from './list-order-repo.js';
import { planInboxSearch } from './search-plan.js';

/** Where a count of rows tested one by one stops; counters and index ranges count exactly whatever the size. */
export const TOTAL_COUNT_LIMIT = 1_000;

export interface ListPage {
  items: InboxItem[];
  last: ListPosition | null;
  total: number;
  /** False when the count stopped at its limit: at least `total + 1` submissions match. */
  totalExact: boolean;
}

/** A page of the list (list-order-repo.ts's request), and where its count stops. */
export interface ListRequest extends PageRequest {
  /** Where a count of matching rows stops (TOTAL_COUNT_LIMIT unless a test sets a smaller one). */
  countLimit?: number;
}

export async function listPage(store: Store, scope: FormScope, req: ListRequest): Promise<ListPage> {
  const f = req.filter;
  const options = optionFilters(f, req.choiceKeys);
  const option = options === null ? null : await rarestFirst(store.db, scope, f.folder, options);
  const dir = direction(req.order);
  // Planned once for the page and its total (on SQLite it reads the trigram index's vocabulary).
  const search = await planInboxSearch(store, f, req.choiceKeys);
  let rows;
  let counted: { n: number; exact: boolean } | null = null;
  if (option !== null) {
    // The page's ids in order from the driving option's index range; the filter holds for each by construction.
    rows = await rowsByIds(store, scope, req, await optionPageIds(store.db, scope, f, option, req));
  } else if (f.q !== null || f.fields.length > 0) {
    // Tested row by row: the engine finds up to one past the limit of matches, in whatever order its best index
    // gives them, and stops there. Up to the limit they are every match: the total is exact and the page is sorted
    // from them here. Past it the total is a lower bound and the page is a common filter's (list-order-repo.ts).
    const limit = req.countLimit ?? TOTAL_COUNT_LIMIT;
    const found = await matchPositions(store, scope, req, search)
      .limit(limit + 1)
      .execute();
    if (found.length <= limit) {
      counted = { n: found.length, exact: true };
      const page = found
        .filter((r) => req.after === null || order(r, req.after) * (dir === 'desc' ? -1 : 1) > 0)
        .sort((a, b) => order(a, b) * (dir === 'desc' ? -1 : 1))
        .slice(0, req.limit + 1);
      rows = await rowsByIds(
        store,
        scope,
        req,
        page.map((r) => r.id),
      );
    } else {
      counted = { n: limit, exact: false };
      const page = await commonMatchesPage(store, scope, req, search);
      rows = 'rows' in page ? page.rows : await rowsByIds(store, scope, req, page.ids);
    }
  } else rows = await pageInListOrder(store, scope, req, search);
  const people = await peopleNames(store.db, scope.spaceId);
  const items = rows
    .slice(0, req.limit)
    .map((r) => toItem(r, (v) => store.dialect.parseJson<unknown>(v), people));
  const lastItem = items[items.length - 1];
  counted ??= await countMatches(store, scope, req, option);
  return {
    items,
    last: rows.length > req.limit && lastItem ? { createdAt: lastItem.createdAt, id: lastItem.id } : null,
    total: counted.n,
    totalExact: counted.exact,
  };
}

/** The rows of these ids, in list order (ids of another form are dropped). */
async function rowsByIds(store: Store, scope: FormScope, req: ListRequest, ids: string[]) {
  const dir = direction(req.order);
  return (await itemsByIds(store.db, ids, req.reader).execute())
    .filter((r) => r.space_id === scope.spaceId && r.form_key === scope.formKey)
    .sort((a, b) => order(a, b) * (dir === 'desc' ? -1 : 1));
}

/** Ascending (created_at, id), as the stored text orders them on both engines for these ASCII values. */
function order(
  a: { created_at: string; id: string },
  b: { created_at: string; id: string } | ListPosition,
): number {
  const bAt = 'createdAt' in b ? b.createdAt : b.created_at;
  if (a.created_at !== bAt) return a.created_at < bAt ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** How many of the form's submissions the filter matches (the page's total), and whether that is all of them. */
async function countMatches(
  store: Store,
  scope: FormScope,
  req: ListRequest,
  option: OptionDrive | null,
): Promise<{ n: number; exact: boolean }> {
  const exact = (n: number) => ({ n, exact: true });
  const f = req.filter;
  if (option !== null && option.merged.length + option.probed.length > 0) {
    // Several options: counted in the driving option's range, up to one past the limit.
    const limit = req.countLimit ?? TOTAL_COUNT_LIMIT;
    const n = await optionMatchCount(store.db, scope, f, option, limit + 1);
    return n > limit ? { n: limit, exact: false } : exact(n);
  }
  if (option !== null && f.from === null && f.to === null) {
    // One option in a folder, any statuses: the counters kept beside the chosen options (a handful of rows).
    const row = await store.db
      .selectFrom('submission_option_tallies')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('n'))
      .where('space_id', '=', scope.spaceId)
      .where('form_key', '=', scope.formKey)
      .where('field_key', '=', option.drive.key)
      .where('value', '=', option.drive.value)
      .where('folder', '=', f.folder)
      .$if(f.statuses !== null, (qb) =>
        qb.where('status', 'in', f.statuses !== null && f.statuses.length > 0 ? [...f.statuses] : ['']),
      )
      .executeTakeFirst();
    return exact(Number(row?.n ?? 0));
  }
  if (option !== null) {
    // With dates: the option's index range within them.
    const row = await optionRange(store.db, scope, f, option)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    return exact(Number(row?.n ?? 0));
  }
  const plain =
    f.q === null && f.from === null && f.to === null && f.assignee.kind === 'any' && f.fields.length === 0;
  if (plain) {
    // Folder and statuses only: the counters the store keeps (a handful of rows whatever the form's size).
    const row = await store.db
      .selectFrom('submission_tallies')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('n'))
      .where('space_id', '=', scope.spaceId)
      .where('form_key', '=', scope.formKey)
      .where('folder', '=', f.folder)
      .$if(f.statuses !== null, (qb) =>
        qb.where('status', 'in', f.statuses !== null && f.statuses.length > 0 ? [...f.statuses] : ['']),
      )
      .executeTakeFirst();
    return exact(Number(row?.n ?? 0));
  }
  // Dates and a person's assignments (a search and answers are counted with the page): index ranges, in full.
  const base = store.db
    .selectFrom('submissions')
    .where('submissions.space_id', '=', scope.spaceId)
    .where('submissions.form_key', '=', scope.formKey);
  const row = await applyInboxFilter(base, f, store.dialect, req.choiceKeys)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
  return exact(Number(row?.n ?? 0));
}

/**
 * The reader's unread submissions in the form's inbox folder: the folder's tally less the reader's marks there
 * (an index range of their own marks, never the form's submissions).
 */
export async function unreadCount(store: Store, scope: FormScope, reader: string): Promise<number> {
  const total = await store.db
    .selectFrom('submission_tallies')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('n'))
    .where('space_id', '=', scope.spaceId)
    .where('form_key', '=', scope.formKey)
    .where('folder', '=', 'inbox')
    .executeTakeFirst();
  const read = await store.db
    .selectFrom('submission_reads')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('reader_id', '=', reader)
    .where('space_id', '=', scope.spaceId)
    .where('form_key', '=', scope.formKey)
    .where('folder', '=', 'inbox')
    .executeTakeFirst();
  return Math.max(0, Number(total?.n ?? 0) - Number(read?.n ?? 0));
}

/** The reader's marks per form in the space's inbox folders, for the overview's unread counts. */
export async function readCountsByForm(
  store: Store,
  spaceId: string,
  reader: string,
): Promise<Map<string, number>> {
  const rows = await store.db
    .selectFrom('submission_reads')
    .select(['form_key', (eb) => eb.fn.countAll().as('n')])
    .where('reader_id', '=', reader)
    .where('space_id', '=', spaceId)
    .where('folder', '=', 'inbox')
    .groupBy('form_key')
    .execute();
  return new Map(rows.map((r) => [r.form_key, Number(r.n)]));
}

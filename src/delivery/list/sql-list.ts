import type { TypeMap } from '../../content/model.js';
import type { Store } from '../../store/open-store.js';
import {
  countList,
  countTypeRows,
  firstSearchPage,
  numberWalkSlot,
  pageList,
  type PageRow,
} from './list-query-repo.js';
import { cachedCount, rememberTotal, totalKnown } from './list-totals.js';
import type { ListAnswer, ListPlan } from './plan.js';
import { sparse, walkBeatsSort } from './rows/policy.js';
import type { NumSlot } from './slots.js';

/**
 * The SQL evaluator of published lists (statements in list-query-repo.ts): what answers every published list the
 * rows index does not (rows/rows-index.ts `answer`), and the pages the rows index leaves to SQL. Which statement
 * pages a list follows from its total, with the thresholds of rows/policy.ts.
 */

/**
 * A published list's `total` (through the total cache, list-totals.ts) and page. `selection` and `types` key the
 * cached total (see RowsIndex.answer).
 */
export async function sqlList(
  store: Store,
  plan: ListPlan,
  selection: string,
  types: TypeMap,
): Promise<ListAnswer> {
  if (plan.words !== null && plan.after === null && !totalKnown(store, plan, selection)) {
    // A search's first page counts its matches in the same statement (firstSearchPage).
    const { rows, total } = await firstSearchPage(store, plan);
    rememberTotal(store, plan, selection, types, total);
    return { total, rows };
  }
  const total = await cachedCount(store, plan, selection, types, () => countList(store, plan));
  return { total, rows: total === 0 ? [] : await sqlPage(store, plan, types, total) };
}

/**
 * One page of a list with `total` matches: `sparse` lets the most selective filter drive and sorts its matches;
 * otherwise the sorted index is walked, or a number's index when that reads fewer rows (`numberWalk`).
 */
export async function sqlPage(
  store: Store,
  plan: ListPlan,
  types: TypeMap,
  total: number,
): Promise<PageRow[]> {
  const isSparse = sparse(total);
  const walk = isSparse ? null : await numberWalk(store, plan, types, total);
  return pageList(store, plan, isSparse, walk);
}

/**
 * The number slot a dense page walks (migration 0017) instead of sorting every match, or null: a list reading
 * list_rows sorted by one number field, when walking reads fewer rows than sorting (policy.ts `walkBeatsSort`).
 * The rows of the type are counted once per cv, cached like a total.
 */
async function numberWalk(
  store: Store,
  plan: ListPlan,
  types: TypeMap,
  total: number,
): Promise<NumSlot | null> {
  const slot = numberWalkSlot(plan);
  if (slot === null) return null;
  const selection = `\0rows ${plan.type ?? ''} ${plan.locale}`;
  const typeRows = await cachedCount(store, plan, selection, types, () => countTypeRows(store, plan));
  return walkBeatsSort(total, plan.limit, typeRows) ? slot : null;
}

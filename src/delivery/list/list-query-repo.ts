import { type CompiledQuery, type RawBuilder, sql } from 'kysely';
import { prepared, preparedShape } from '../../store/dialect/pg-named-statements.js';
import { ReaderUnavailable } from '../../store/dialect/sqlite-reader.js';
import type { Store } from '../../store/open-store.js';
import { FOLDER_PATH_KEY, PATH_KEY } from './index-values.js';
import { columnRef, keyset, ref, sortParts, type Sql } from './list-sql-repo.js';
import {
  fromClause,
  needsEntries,
  pickDriver,
  rowsFrom,
  rowsLayout,
  whereClause,
} from './list-sources-repo.js';
import { inPublishOrder, MISSING, placeholder, PRESENT, readOneKeyCursor } from './order.js';
import type { ListPlan, Scalar } from './plan.js';
import { isNumSlot, type NumSlot, sortSlot } from './slots.js';

/**
 * The SQL of entry lists (spec 4.3) on the list tables of migrations 0003 and 0007, the same statements on
 * both engines (engine fragments come from the store's dialect, src/store/dialect/; where rows come from and the
 * filters they must pass, list-sources-repo.ts). Filters are EXISTS probes of `list_values`; one
 * selective filter (or the full-text match) may instead drive the query, so `total` and sparse pages scan only
 * its index range; dense pages walk `list_entries` in sort order and stop after `limit + 1` rows.
 *
 * A list of one type with an `eq`/`in` on a slotted field (src/delivery/list/slots.ts) reads `list_rows`
 * instead: that filter's index range drives, and every other slotted filter is a column test inside it.
 */

export interface PageRow {
  vid: number;
  entryId: string;
  /** The version's cv_from in the list tables (null where the source lacks it): a hint for the entry cache. */
  cvFrom: number | null;
  /** Sort values, entry id last: what the cursor carries. */
  after: Scalar[];
}

function countStatement(store: Store, plan: ListPlan): RawBuilder<{ n: number | string }> {
  const dialect = store.dialect;
  const layout = rowsLayout(plan);
  const driver = plan.words === null && layout === null ? pickDriver(plan) : null;
  const source =
    layout !== null
      ? rowsFrom(dialect, plan, layout, needsEntries(plan, []), null)
      : fromClause(
          dialect,
          plan,
          driver,
          plan.conds.some((c) => c.source.kind === 'column'),
          [],
        );
  const conds = whereClause(dialect, plan, driver, source);
  const statement = sql<{
    n: number | string;
  }>`select count(*) as n from ${source.from} where ${sql.join(conds, sql` and `)}`;
  return layout !== null ? preparedShape(statement) : statement;
}

export async function countList(store: Store, plan: ListPlan): Promise<number> {
  const rows = await listRows(store, plan, countStatement(store, plan));
  return Number(rows[0]?.n ?? 0);
}

/**
 * A list statement's rows. A full-text list's statements visit every match (to rank, sort or count them: up to
 * ~30 ms in one SQLite call at 20,000 entries), so they run apart from the event loop where the store can
 * (`readApart`: SQLite's reader thread); the others are an index range and run where they are.
 */
async function listRows(
  store: Store,
  plan: ListPlan,
  statement: RawBuilder<Record<string, unknown>>,
): Promise<Record<string, unknown>[]> {
  if (plan.words !== null && store.readApart !== null) {
    const rows = await store.readApart(statement.compile(store.db)).catch((err: unknown) => {
      // A reader that cannot run it (not the statement's failure): the connection answers, as it did before.
      if (err instanceof ReaderUnavailable) return null;
      throw err;
    });
    if (rows !== null) return rows;
  }
  return (await statement.execute(store.db)).rows;
}

/**
 * One part of a page walked in a number slot's order (migration 0017): the entries with a value, from that slot's
 * index in the sort's order, or those without it (sorted last, by entry id). The rows answer the cursor values of
 * `sortParts` (order.ts `oneKeyCursor`: missing flag, value or placeholder, entry id), so cursors do not depend on
 * how a page was read.
 */
interface NumberWalk {
  slot: NumSlot;
  part: 'values' | 'missing';
}

function pageStatement(
  store: Store,
  plan: ListPlan,
  sparse: boolean,
  withTotal = false,
  numberWalk: NumberWalk | null = null,
) {
  const dialect = store.dialect;
  const layout = rowsLayout(plan);
  const driver = sparse && plan.words === null && layout === null ? pickDriver(plan) : null;
  // list_rows_walk (space, type, locale, published_at, entry_id), or a slot index for one value of its slot
  // (migration 0016), hands rows over in publish order, so a dense page can stop after `limit + 1` of them. Any other
  // sort (a slot such as a rating) would walk the whole type to sort it: the selecting slot's index range, sorted, is
  // far less.
  const walk =
    numberWalk?.part === 'values' ? numberWalk.slot : !sparse && inPublishOrder(plan.sort) ? 'publish' : null;
  const source =
    layout !== null
      ? rowsFrom(dialect, plan, layout, needsEntries(plan, plan.sort), walk)
      : fromClause(dialect, plan, driver, true, plan.sort);
  const conds = whereClause(dialect, plan, driver, source);
  let { joins, comps } = sortParts(plan, source.vid, source.own, source.rows?.layout ?? null);
  let after = plan.after;
  let select: Sql[] = [];
  if (numberWalk !== null) {
    const value = ref(`r.${numberWalk.slot}`);
    const desc = plan.sort[0]?.desc ?? false;
    const cursor = after === null ? null : readOneKeyCursor(after);
    // The missing flag and a missing number's placeholder (order.ts) as literals, like sortParts's.
    if (numberWalk.part === 'values') {
      conds.push(sql`${value} is not null`);
      comps = [
        { expr: value, desc },
        { expr: sql`r.entry_id`, desc },
      ];
      select = [sql.raw(`${PRESENT} as k0`), sql`${value} as k1`, sql`r.entry_id as k2`];
      after = cursor === null ? null : [cursor.value, cursor.entryId];
    } else {
      conds.push(sql`${value} is null`);
      comps = [{ expr: sql`r.entry_id`, desc }];
      select = [sql.raw(`${MISSING} as k0`), sql.raw(`${placeholder(true)} as k1`), sql`r.entry_id as k2`];
      // Rows without a value follow every row with one: a cursor on a valued row starts them from the first.
      after = cursor === null || !cursor.missing ? null : [cursor.entryId];
    }
    joins = [];
  } else select = comps.map((c, i) => sql`${c.expr} as ${sql.raw(`k${i}`)}`);
  if (after !== null) conds.push(keyset(comps, after));
  // Counted over every row the WHERE clause keeps, before ORDER BY and LIMIT.
  if (withTotal) select.push(sql`count(*) over () as total_`);
  const order = comps.map((c) => sql`${c.expr} ${sql.raw(c.desc ? 'desc' : 'asc')}`);
  const entryId = columnRef('entry_id', source.own);
  // The version's cv_from, where the source has it: with the entry id it names the published version, so a page
  // takes the parsed documents from the entry cache without asking which versions it sees.
  const cvFrom = source.own === 'r' ? sql`r.cv_from` : source.entries ? sql`e.cv_from` : sql`null`;
  const statement = sql<Record<string, unknown>>`select ${source.vid} as vid, ${entryId} as entry_id,
    ${cvFrom} as cv_from_, ${sql.join(select)} from ${source.from} ${sql.join(joins, sql` `)}
    where ${sql.join(conds, sql` and `)} order by ${sql.join(order)} limit ${plan.limit + 1}`;
  // list_rows statements have one plan whatever the values (the SQL says which index drives): prepared on
  // PostgreSQL, planned once per connection (src/store/dialect/pg-named-statements.ts).
  return {
    statement: layout !== null ? preparedShape(statement) : statement,
    width: numberWalk === null ? comps.length : 3,
  };
}

/**
 * One page: `limit + 1` rows from the cursor on. `sparse` (a small `total`) lets the most selective filter
 * drive and sorts its matches; otherwise the sorted index is walked and filters are probed row by row. Which one,
 * and `numberSlot`: sql-list.ts decides, with the thresholds of rows/policy.ts.
 */
export async function pageList(
  store: Store,
  plan: ListPlan,
  sparse: boolean,
  numberSlot: NumSlot | null = null,
): Promise<PageRow[]> {
  if (numberSlot === null) {
    const { statement, width } = pageStatement(store, plan, sparse);
    return pageRows(await listRows(store, plan, statement), width);
  }
  // Entries with the value come first in both directions, then those without it (order.ts: missing last).
  const out: PageRow[] = [];
  if (plan.after === null || !readOneKeyCursor(plan.after).missing) {
    const { statement } = pageStatement(store, plan, false, false, { slot: numberSlot, part: 'values' });
    out.push(...pageRows((await statement.execute(store.db)).rows, 3));
  }
  if (out.length <= plan.limit) {
    const { statement } = pageStatement(store, plan, false, false, { slot: numberSlot, part: 'missing' });
    out.push(...pageRows((await statement.execute(store.db)).rows, 3));
  }
  return out.slice(0, plan.limit + 1);
}

/**
 * The number slot a dense page of `plan` could walk in order (migration 0017): a list read from list_rows sorted by
 * one number field held in a slot. Whether walking beats sorting depends on how many rows match (the caller's).
 */
export function numberWalkSlot(plan: ListPlan): NumSlot | null {
  const layout = rowsLayout(plan);
  const key = plan.sort[0];
  if (layout === null || plan.sort.length !== 1 || key === undefined) return null;
  const slot = sortSlot(key.source, layout);
  return slot !== null && isNumSlot(slot) ? slot : null;
}

/** Rows of `type` in the list rows of `plan`'s locale at its cv: how many a number walk may pass over. */
export async function countTypeRows(store: Store, plan: ListPlan): Promise<number> {
  const layout = rowsLayout(plan);
  if (layout === null) return 0;
  // The rows' own conditions (space, type, locale, cv), none of the filters.
  const { from, where } = rowsFrom(store.dialect, plan, layout, false, null);
  const { rows } = await prepared(
    sql<{ n: number | string }>`select count(*) as n from ${from} where ${sql.join(where, sql` and `)}`,
  ).execute(store.db);
  return Number(rows[0]?.n ?? 0);
}

/**
 * The first page of a full-text list with its `total`, in one statement: the matches come unordered from the
 * full-text index, so the page visits every one of them anyway (to rank or sort), and a window count over them
 * saves the separate count, which was a second pass over the matches.
 */
export async function firstSearchPage(
  store: Store,
  plan: ListPlan,
): Promise<{ rows: PageRow[]; total: number }> {
  if (plan.words === null || plan.after !== null)
    throw new Error('firstSearchPage: a first page of a search');
  const { statement, width } = pageStatement(store, plan, false, true);
  const rows = await listRows(store, plan, statement);
  return { rows: pageRows(rows, width), total: Number(rows[0]?.total_ ?? 0) };
}

function pageRows(rows: readonly Record<string, unknown>[], width: number): PageRow[] {
  return rows.map((r) => ({
    vid: Number(r.vid),
    entryId: String(r.entry_id),
    cvFrom: r.cv_from_ === null || r.cv_from_ === undefined ? null : Number(r.cv_from_),
    after: Array.from({ length: width }, (_, i) => {
      const v = r[`k${i}`];
      return typeof v === 'number' || typeof v === 'string' ? v : Number(v);
    }),
  }));
}

/**
 * The statements of a list, compiled, for EXPLAIN (the bench and tests read their plans): the count and the page,
 * or with `numberSlot` the count and the two parts of a page walked in that slot's order.
 */
export function compileList(
  store: Store,
  plan: ListPlan,
  sparse: boolean,
  numberSlot: NumSlot | null = null,
): CompiledQuery[] {
  const page = (walk: NumberWalk | null) =>
    pageStatement(store, plan, sparse, false, walk).statement.compile(store.db);
  return [
    countStatement(store, plan).compile(store.db),
    ...(numberSlot === null
      ? [page(null)]
      : [page({ slot: numberSlot, part: 'values' }), page({ slot: numberSlot, part: 'missing' })]),
  ];
}

/** The real path in `locale` of the folder whose path matches `key` (a pathKey), or null (spec 4.3 `under`). */
export async function folderPath(
  store: Store,
  spaceId: string,
  cv: number,
  locale: string,
  key: string,
): Promise<{ id: string; path: string } | null> {
  const { rows } = await sql<{ entry_id: string; path: string }>`select e.entry_id, p.str as path
    from list_values k join list_entries e on e.id = k.vid
    join list_values p on p.vid = k.vid and p.key = ${PATH_KEY} and p.loc = ${locale}
    where k.space_id = ${spaceId} and k.key = ${FOLDER_PATH_KEY} and k.loc = ${locale} and k.str = ${key}
      and k.cv_from <= ${cv} and k.cv_to > ${cv} order by e.entry_id limit 1`.execute(store.db);
  const row = rows[0];
  return row ? { id: row.entry_id, path: row.path } : null;
}

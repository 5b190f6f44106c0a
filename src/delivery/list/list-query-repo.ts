import { type CompiledQuery, type RawBuilder, sql } from 'kysely';
import type { Store } from '../../store/open-store.js';
import type { StoreDialect } from '../../store/dialect/dialect.js';
import { FOLDER_PATH_KEY, PATH_KEY, searchConfig, searchScope } from './index-values.js';
import {
  columnRef,
  keyset,
  type Own,
  ref,
  ROW_COLUMNS,
  sortParts,
  type Sql,
  testSql,
  underRange,
  valueRow,
} from './list-sql-repo.js';
import type { Cond, ListPlan, Scalar, SortKey, Source } from './plan.js';
import { drivesRows, rowLocale, type SlotLayout, slotOf } from './slots.js';

/**
 * The SQL of entry lists (spec 4.3) on the list tables of migrations 0003 and 0007, the same statements on
 * both engines (engine fragments come from the store's dialect, src/store/dialect/). Filters are EXISTS probes of `list_values`; one
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

/** A filter or `under` that can drive the query: positive, one row per version (no duplicate results). */
type Driver =
  { kind: 'cond'; cond: Cond & { source: Extract<Source, { kind: 'value' }> } } | { kind: 'under' };

/** Where list_rows (alias r) is the source: its slot layout, and whether a dense page walks it in order. */
interface RowsSource {
  layout: SlotLayout;
  dense: boolean;
}

/** A filter answered by a slot column of the row. */
function slotCondSql(dialect: StoreDialect, rows: RowsSource, cond: Cond): Sql | null {
  const slot = slotOf(cond, rows.layout);
  if (slot === null) return null;
  let col = ref(`r.${slot}`);
  let pos: Sql;
  if (drivesRows(cond, rows.layout)) {
    // A dense page walks in publish order. One value's rows come in that order from the slot's own index
    // (migration 0016); several values' rows do not, so `|| ''` keeps their index out of reach and the page walks
    // list_rows_walk. Otherwise `is not null` lets both engines use the slot's partial index.
    if (rows.dense && !(cond.test === 'in' && cond.values.length === 1)) col = sql`(${col} || '')`;
    pos = sql`${col} is not null and ${testSql(dialect, col, cond)}`;
  } else pos = testSql(dialect, col, cond);
  // `is not true`: a missing value (NULL) is outside the test and inside its negation, as in list_values.
  return cond.negate ? sql`(${pos}) is not true` : pos;
}

/**
 * `perRow`: the rows are a selective driver's (or the full-text matches), so each other filter is probed per
 * row; measured on PostgreSQL, a hash join over the probed filter's whole range costs more.
 */
function condSql(
  dialect: StoreDialect,
  plan: ListPlan,
  cond: Cond,
  vid: Sql,
  perRow: boolean,
  rows: RowsSource | null,
  own: Own,
): Sql {
  const slotted = rows === null ? null : slotCondSql(dialect, rows, cond);
  if (slotted !== null) return slotted;
  if (cond.source.kind === 'column') {
    const pos = testSql(dialect, columnRef(cond.source.column, own), cond);
    // `is not true`: a NULL (no parent) is outside `parentId eq x` and inside its negation.
    return cond.negate ? sql`(${pos}) is not true` : pos;
  }
  const test =
    cond.test === 'present' ? sql`` : sql`and ${testSql(dialect, ref(`x.${cond.source.col}`), cond)}`;
  const probe = sql`exists (select 1 from list_values x where x.vid = ${vid}
    and ${valueRow('x', cond.source, plan.locale)} ${test}${perRow ? dialect.perRowProbe : sql``})`;
  return cond.negate ? sql`not ${probe}` : probe;
}

function pickDriver(plan: ListPlan): Driver | null {
  const rank = (c: Cond): number => {
    if (c.negate || c.source.kind !== 'value') return 99;
    if (c.test === 'in') return c.values.length === 1 ? 0 : c.source.many ? 99 : 1;
    // `exists` is no driver: it would read every value of the key.
    if (c.source.many || c.test === 'present') return 99;
    return c.test === 'substring' ? 3 : 4;
  };
  let best: Cond | null = null;
  for (const c of plan.conds) if (rank(c) < 99 && (best === null || rank(c) < rank(best))) best = c;
  if (plan.under !== null && (best === null || rank(best) > 1)) return { kind: 'under' };
  if (best === null || best.source.kind !== 'value') return null;
  return { kind: 'cond', cond: best as Cond & { source: Extract<Source, { kind: 'value' }> } };
}

interface From {
  from: Sql;
  /** Conditions the source's own rows check (the driver's). */
  where: Sql[];
  /** The version id expression the other filters probe with. */
  vid: Sql;
  /** Whether list_entries (alias e) is part of the source. */
  entries: boolean;
  /** Set when list_rows (alias r) is the source. */
  rows: RowsSource | null;
  own: Own;
}

/** The list reads list_rows: one type, no full-text search, and a filter that selects by a string slot. */
function rowsLayout(plan: ListPlan): SlotLayout | null {
  const { layout } = plan;
  if (layout === null || plan.words !== null) return null;
  return plan.conds.some((c) => drivesRows(c, layout)) ? layout : null;
}

/** Whether conditions or sort need list_entries beside list_rows (the row has published_at and entry_id). */
function needsEntries(plan: ListPlan, sort: readonly SortKey[]): boolean {
  const onEntries = (s: Source | SortKey['source']) => s.kind === 'column' && !ROW_COLUMNS.has(s.column);
  return plan.conds.some((c) => onEntries(c.source)) || sort.some((k) => onEntries(k.source));
}

function rowsFrom(
  dialect: StoreDialect,
  plan: ListPlan,
  layout: SlotLayout,
  entries: boolean,
  dense: boolean,
): From {
  const where = [
    sql`r.space_id = ${plan.spaceId} and r.type = ${plan.type} and r.loc = ${rowLocale(layout, plan.locale)}
      and r.cv_from <= ${plan.cv} and r.cv_to > ${plan.cv}`,
  ];
  const from = entries
    ? sql`list_rows r ${dialect.orderedJoin} list_entries e on e.id = r.vid`
    : sql`list_rows r`;
  return { from, where, vid: sql`r.vid`, entries: false, rows: { layout, dense }, own: 'r' };
}

/**
 * What the query reads rows from. A driven count with no condition on list_entries columns reads the driver's
 * index alone: its rows carry space, type and cv.
 */
function fromClause(
  dialect: StoreDialect,
  plan: ListPlan,
  driver: Driver | null,
  needEntries: boolean,
  sort: readonly SortKey[],
): From {
  if (plan.words !== null) {
    const m = dialect.matches(
      searchScope(plan.spaceId, plan.locale),
      searchConfig(plan.locale),
      plan.words,
      plan,
    );
    if (dialect.matchesAreRows) {
      const joined = needsEntries(plan, sort);
      const from = joined
        ? sql`(${m}) m ${dialect.orderedJoin} list_entries e on e.id = m.vid`
        : sql`(${m}) m`;
      // The matches check space, cv and type themselves; `1 = 1` keeps the WHERE clause well-formed.
      return { from, where: [sql`1 = 1`], vid: sql`m.vid`, entries: false, rows: null, own: 'm' };
    }
    const from = sql`(${m}) m ${dialect.orderedJoin} list_entries e on e.id = m.vid`;
    return { from, where: [], vid: sql`e.id`, entries: true, rows: null, own: null };
  }
  if (driver === null)
    return { from: sql`list_entries e`, where: [], vid: sql`e.id`, entries: true, rows: null, own: null };
  const where = [
    sql`d.space_id = ${plan.spaceId} and d.cv_from <= ${plan.cv} and d.cv_to > ${plan.cv}`,
    plan.type !== null
      ? sql`d.type = ${plan.type}`
      : plan.folderTypes.length > 0
        ? sql`d.type not in (${sql.join(plan.folderTypes)})`
        : sql`1 = 1`,
  ];
  if (driver.kind === 'under') {
    where.push(sql`d.key = ${PATH_KEY} and d.loc = ${plan.locale} and ${underRange('d', plan.under ?? '')}`);
  } else {
    const c = driver.cond;
    const col = ref(`d.${c.source.col}`);
    // `is not null` lets both engines use the partial index of the column (migration 0003).
    where.push(
      sql`${valueRow('d', c.source, plan.locale)} and ${col} is not null and ${testSql(dialect, col, c)}`,
    );
  }
  if (!needEntries)
    return { from: sql`list_values d`, where, vid: sql`d.vid`, entries: false, rows: null, own: null };
  const from = sql`list_values d ${dialect.orderedJoin} list_entries e on e.id = d.vid`;
  return { from, where, vid: sql`e.id`, entries: true, rows: null, own: null };
}

function whereClause(dialect: StoreDialect, plan: ListPlan, driver: Driver | null, source: From): Sql[] {
  const { vid } = source;
  const where = [...source.where];
  if (source.entries)
    where.push(
      sql`e.space_id = ${plan.spaceId} and e.cv_from <= ${plan.cv} and e.cv_to > ${plan.cv}`,
      plan.type !== null ? sql`e.type = ${plan.type}` : sql`e.kind <> 'folder'`,
    );
  for (const c of plan.conds)
    if (driver?.kind !== 'cond' || driver.cond !== c)
      where.push(
        condSql(
          dialect,
          plan,
          c,
          vid,
          driver !== null || plan.words !== null || source.rows !== null,
          source.rows,
          source.own,
        ),
      );
  if (plan.under !== null && driver?.kind !== 'under')
    where.push(sql`exists (select 1 from list_values p where p.vid = ${vid} and p.key = ${PATH_KEY}
      and p.loc = ${plan.locale} and ${underRange('p', plan.under)})`);
  return where;
}

function countStatement(store: Store, plan: ListPlan): RawBuilder<{ n: number | string }> {
  const dialect = store.dialect;
  const layout = rowsLayout(plan);
  const driver = plan.words === null && layout === null ? pickDriver(plan) : null;
  const source =
    layout !== null
      ? rowsFrom(dialect, plan, layout, needsEntries(plan, []), false)
      : fromClause(
          dialect,
          plan,
          driver,
          plan.conds.some((c) => c.source.kind === 'column'),
          [],
        );
  const conds = whereClause(dialect, plan, driver, source);
  return sql`select count(*) as n from ${source.from} where ${sql.join(conds, sql` and `)}`;
}

export async function countList(store: Store, plan: ListPlan): Promise<number> {
  const { rows } = await countStatement(store, plan).execute(store.db);
  return Number(rows[0]?.n ?? 0);
}

function pageStatement(store: Store, plan: ListPlan, sparse: boolean, withTotal = false) {
  const dialect = store.dialect;
  const layout = rowsLayout(plan);
  const driver = sparse && plan.words === null && layout === null ? pickDriver(plan) : null;
  const source =
    layout !== null
      ? rowsFrom(dialect, plan, layout, needsEntries(plan, plan.sort), !sparse && walksInOrder(plan.sort))
      : fromClause(dialect, plan, driver, true, plan.sort);
  const conds = whereClause(dialect, plan, driver, source);
  const { joins, comps } = sortParts(plan, source.vid, source.own, source.rows?.layout ?? null);
  if (plan.after !== null) conds.push(keyset(comps, plan.after));
  const select = comps.map((c, i) => sql`${c.expr} as ${sql.raw(`k${i}`)}`);
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
  return { statement, width: comps.length };
}

/**
 * Whether list_rows_walk (space, type, locale, published_at, entry_id), or a slot index for one value of its slot
 * (migration 0016), hands rows over in the sort's order, so a dense page can stop after `limit + 1` of them. Any
 * other sort (a slot such as a rating) would walk the whole type, all 100k rows of the bench (17 ms), to sort them:
 * the selecting slot's index range, sorted, is far less (1.5 ms for 5,000 rows).
 */
const walksInOrder = (sort: readonly SortKey[]): boolean =>
  sort.length === 1 && sort[0]?.source.kind === 'column' && sort[0].source.column === 'published_at';

/**
 * One page: `limit + 1` rows from the cursor on. `sparse` (a small `total`) lets the most selective filter
 * drive and sorts its matches; otherwise the sorted index is walked and filters are probed row by row.
 */
export async function pageList(store: Store, plan: ListPlan, sparse: boolean): Promise<PageRow[]> {
  const { statement, width } = pageStatement(store, plan, sparse);
  const { rows } = await statement.execute(store.db);
  return pageRows(rows, width);
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
  const { rows } = await statement.execute(store.db);
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

/** The statements of a list, compiled, for EXPLAIN (the bench prints the plans of its query). */
export function compileList(store: Store, plan: ListPlan, sparse: boolean): CompiledQuery[] {
  return [
    countStatement(store, plan).compile(store.db),
    pageStatement(store, plan, sparse).statement.compile(store.db),
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

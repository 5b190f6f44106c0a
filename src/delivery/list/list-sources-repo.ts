import { sql } from 'kysely';
import type { StoreDialect } from '../../store/dialect/dialect.js';
import { PATH_KEY, searchConfig, searchScope } from './index-values.js';
import {
  columnRef,
  type Own,
  ref,
  ROW_COLUMNS,
  type Sql,
  testSql,
  underRange,
  valueRow,
} from './list-sql-repo.js';
import type { Cond, ListPlan, SortKey, Source } from './plan.js';
import { drivesRows, isNumSlot, type NumSlot, rowLocale, type SlotLayout, slotOf } from './slots.js';

/**
 * Where an entry list's rows come from and what they must satisfy (spec 4.3), for the statements of
 * list-query-repo.ts: the driving index range (a selective filter, `under`, full-text matches, or list_rows for a
 * list of one type with a string slot filter), the filters tested on each row, and which index a dense page walks.
 */

/** A filter or `under` that can drive the query: positive, one row per version (no duplicate results). */
export type Driver =
  { kind: 'cond'; cond: Cond & { source: Extract<Source, { kind: 'value' }> } } | { kind: 'under' };

/**
 * Where list_rows (alias r) is the source: its slot layout, and which index a dense page walks in order: publish
 * order (list_rows_walk, or one value's slot index) or a number slot's index (migration 0017).
 */
export interface RowsSource {
  layout: SlotLayout;
  walk: 'publish' | NumSlot | null;
}

/** A filter answered by a slot column of the row. */
function slotCondSql(dialect: StoreDialect, rows: RowsSource, cond: Cond): Sql | null {
  const slot = slotOf(cond, rows.layout);
  if (slot === null) return null;
  let col = ref(`r.${slot}`);
  // A number slot's index (migration 0017) is for walking in its order; as a filter's range it would look selective
  // to SQLite's planner, which then picked it over the slot index that hands rows in publish order, many times
  // slower a page (docs/operations.md, "Figures behind the code"). `+ 0` keeps it out of reach except for the walk.
  if (isNumSlot(slot) && rows.walk !== slot) col = sql`(${col} + 0)`;
  let pos: Sql;
  if (drivesRows(cond, rows.layout)) {
    // A dense page walks in publish order. One value's rows come in that order from the slot's own index
    // (migration 0016); several values' rows do not, so `|| ''` keeps their index out of reach and the page walks
    // list_rows_walk. A walk in a number's order keeps every string slot's index out of reach. Otherwise
    // `is not null` lets both engines use the slot's partial index.
    const oneValue = cond.test === 'in' && cond.values.length === 1;
    if ((rows.walk !== null && rows.walk !== 'publish') || (rows.walk === 'publish' && !oneValue))
      col = sql`(${col} || '')`;
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

export function pickDriver(plan: ListPlan): Driver | null {
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

export interface From {
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
export function rowsLayout(plan: ListPlan): SlotLayout | null {
  const { layout } = plan;
  if (layout === null || plan.words !== null) return null;
  return plan.conds.some((c) => drivesRows(c, layout)) ? layout : null;
}

/** Whether conditions or sort need list_entries beside list_rows (the row has published_at and entry_id). */
export function needsEntries(plan: ListPlan, sort: readonly SortKey[]): boolean {
  const onEntries = (s: Source | SortKey['source']) => s.kind === 'column' && !ROW_COLUMNS.has(s.column);
  return plan.conds.some((c) => onEntries(c.source)) || sort.some((k) => onEntries(k.source));
}

export function rowsFrom(
  dialect: StoreDialect,
  plan: ListPlan,
  layout: SlotLayout,
  entries: boolean,
  walk: RowsSource['walk'],
): From {
  const where = [
    sql`r.space_id = ${plan.spaceId} and r.type = ${plan.type} and r.loc = ${rowLocale(layout, plan.locale)}
      and r.cv_from <= ${plan.cv} and r.cv_to > ${plan.cv}`,
  ];
  const from = entries
    ? sql`list_rows r ${dialect.orderedJoin} list_entries e on e.id = r.vid`
    : sql`list_rows r`;
  return { from, where, vid: sql`r.vid`, entries: false, rows: { layout, walk }, own: 'r' };
}

/**
 * What the query reads rows from. A driven count with no condition on list_entries columns reads the driver's
 * index alone: its rows carry space, type and cv.
 */
export function fromClause(
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

export function whereClause(
  dialect: StoreDialect,
  plan: ListPlan,
  driver: Driver | null,
  source: From,
): Sql[] {
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

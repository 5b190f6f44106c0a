import { type RawBuilder, sql } from 'kysely';
import type { StoreDialect } from '../../store/dialect/dialect.js';
import { ANY_LOCALE, PATH_KEY } from './index-values.js';
import { MISSING, placeholder, PRESENT } from './order.js';
import type { ListPlan, Scalar, Source, Test } from './plan.js';
import { isNumSlot, type SlotLayout, sortSlot } from './slots.js';

/**
 * SQL fragments the entry-list statements (list-query-repo.ts) are built from: value tests, the locale rows of
 * a field, `under` ranges, and the sort order (order.ts's rules) with its keyset condition. The same on both
 * engines.
 */

export type Sql = RawBuilder<unknown>;
export const ref = (r: string): Sql => sql.ref(r);

export function testSql(dialect: StoreDialect, col: Sql, t: Test): Sql {
  switch (t.test) {
    case 'in':
      return sql`${col} in (${sql.join(t.values)})`;
    case 'substring':
      return dialect.contains(col, t.value);
    case 'cmp':
      return sql`${col} ${sql.raw(t.cmp)} ${t.value}`;
    case 'present':
      return sql`${col} is not null`;
  }
}

export function valueRow(alias: string, source: Extract<Source, { kind: 'value' }>, locale: string): Sql {
  const loc = ref(`${alias}.loc`);
  const where =
    source.locs === 'locale'
      ? sql`${loc} = ${locale}`
      : source.locs === 'any'
        ? sql`${loc} = ${ANY_LOCALE}`
        : sql`${loc} in (${locale}, ${ANY_LOCALE})`;
  return sql`${ref(`${alias}.key`)} = ${source.key} and ${where}`;
}

export const ROW_COLUMNS = new Set(['published_at', 'entry_id']);

/** Sources with their own published_at and entry_id: list_rows (r) and, on PostgreSQL, search matches (m). */
export type Own = 'r' | 'm' | null;

/** A list_entries column, from the source itself where it has it. */
export const columnRef = (column: string, own: Own): Sql =>
  ref(`${own !== null && ROW_COLUMNS.has(column) ? own : 'e'}.${column}`);

/** spec 4.3 `under`: the folder's own path (its start page) and every path below it, at any depth. */
export function underRange(alias: string, folderPath: string): Sql {
  const s = ref(`${alias}.str`);
  return sql`${s} >= ${folderPath} and ${s} < ${`${folderPath}0`} and (${s} = ${folderPath} or ${s} >= ${`${folderPath}/`})`;
}

export interface Component {
  expr: Sql;
  desc: boolean;
}

/**
 * order.ts's missing flags as statements spell them: literals in the SQL text (as parameters they would hide from
 * the text which shape a statement is).
 */
const PRESENT_SQL = sql.raw(String(PRESENT));
const MISSING_SQL = sql.raw(String(MISSING));

/**
 * A nullable sort key's two components (order.ts): the missing flag, always ascending so entries without the value
 * sort last in both directions, then the value or its placeholder.
 */
const missingLast = (v: Sql, numeric: boolean, desc: boolean): Component[] => [
  { expr: sql`case when ${v} is null then ${MISSING_SQL} else ${PRESENT_SQL} end`, desc: false },
  { expr: sql`coalesce(${v}, ${placeholder(numeric)})`, desc },
];

/** `rows`: the layout when list_rows (alias r) is the source, whose exact slots sort without a join. */
export function sortParts(
  plan: ListPlan,
  vid: Sql,
  own: Own,
  rows: SlotLayout | null,
): { joins: Sql[]; comps: Component[] } {
  const joins: Sql[] = [];
  const comps: Component[] = [];
  const column = (c: string) => columnRef(c, own);
  plan.sort.forEach((key, i) => {
    const s = key.source;
    const slot = rows === null ? null : sortSlot(s, rows);
    if (s.kind === 'column') comps.push({ expr: column(s.column), desc: key.desc });
    else if (s.kind === 'rank') comps.push({ expr: sql`m.rank`, desc: key.desc });
    else if (slot !== null) comps.push(...missingLast(ref(`r.${slot}`), isNumSlot(slot), key.desc));
    else {
      const alias = `s${i}`;
      const col = s.kind === 'path' ? 'str' : s.col;
      const on =
        s.kind === 'path'
          ? sql`${ref(`${alias}.key`)} = ${PATH_KEY} and ${ref(`${alias}.loc`)} = ${plan.locale}`
          : sql`${valueRow(alias, s, plan.locale)} and ${ref(`${alias}.${col}`)} is not null`;
      joins.push(sql`left join list_values ${sql.raw(alias)} on ${ref(`${alias}.vid`)} = ${vid} and ${on}`);
      comps.push(...missingLast(ref(`${alias}.${col}`), col === 'num', key.desc));
    }
  });
  comps.push({ expr: column('entry_id'), desc: plan.sort.at(-1)?.desc ?? false });
  return { joins, comps };
}

/**
 * Rows strictly after the cursor's values (order.ts), in the sort's order; the first bound lets an index seek there.
 */
export function keyset(comps: readonly Component[], after: readonly Scalar[]): Sql {
  const [first] = comps;
  const a0 = after[0];
  if (!first || a0 === undefined) return sql`1 = 1`;
  const ors = comps.map((c, i) => {
    const eqs = comps.slice(0, i).map((p, j) => sql`${p.expr} = ${after[j] ?? null}`);
    const step = sql`${c.expr} ${sql.raw(c.desc ? '<' : '>')} ${after[i] ?? null}`;
    return sql`(${sql.join([...eqs, step], sql` and `)})`;
  });
  return sql`${first.expr} ${sql.raw(first.desc ? '<=' : '>=')} ${a0} and (${sql.join(ors, sql` or `)})`;
}

// A list filtered by chosen options only (with folder, statuses and dates): read from `submission_options`
// (migration 0027), whose index holds every one of those columns in list order. One option drives: its index
// range gives the page's ids in order. The driving option is the rarest by the store's tallies, so the range
// walked is the shortest. Another option of about as many rows is joined on the list order (created_at, id):
// both index ranges are in that order, so PostgreSQL merges them, reading each range once without a lookup per
// row (two options of a third and a half of 100k rows: 2.3 ms for the first 1,001 matches against 10 ms probing
// the 2,000 rows that held them). An option much more common than the driving one is probed per id instead:
// merging would read its range wherever the rare rows lie between, probing costs one lookup per rare row.

import type { Queryable } from '../../store/spaces-repo.js';
import type { ListOrder, ListPosition } from './cursor.js';
import type { InboxFilter } from './filter.js';
import { choseOption } from './filter-repo.js';
import type { FormScope } from './inbox-repo.js';

export interface Option {
  key: string;
  value: string;
}

export interface OptionDrive {
  drive: Option;
  /** Further options each row must have chosen too, joined on the list order (about as common as `drive`). */
  merged: Option[];
  /** Further options each row must have chosen too, probed per row (far more common than `drive`). */
  probed: Option[];
}

/**
 * How many times the driving option's rows another option may have to be merged rather than probed. A merge reads
 * an index entry of each side in about a tenth of what a probe costs (measured on PostgreSQL), so it wins while
 * the other range holds fewer than about ten rows per driving row; 8 leaves room for how the two are spread.
 */
const MERGE_RATIO = 8;

/** The option filters, when every field filter is on a choice field and no search or person joins them. */
export function optionFilters(filter: InboxFilter, choiceKeys: ReadonlySet<string>): Option[] | null {
  if (filter.fields.length === 0 || filter.q !== null || filter.assignee.kind !== 'any') return null;
  return filter.fields.every((f) => choiceKeys.has(f.key)) ? [...filter.fields] : null;
}

/** The options with the rarest first (by the tallies of the folder; a handful of rows), to drive the page. */
export async function rarestFirst(
  db: Queryable,
  scope: FormScope,
  folder: InboxFilter['folder'],
  options: readonly Option[],
): Promise<OptionDrive> {
  const [first, ...rest] = options;
  if (first === undefined) throw new Error('rarestFirst needs an option');
  if (rest.length === 0) return { drive: first, merged: [], probed: [] };
  const rows = await db
    .selectFrom('submission_option_tallies')
    .select(['field_key', 'value', (eb) => eb.fn.sum<number>('n').as('n')])
    .where('space_id', '=', scope.spaceId)
    .where('form_key', '=', scope.formKey)
    .where('folder', '=', folder)
    .where((eb) =>
      eb.or(options.map((o) => eb.and([eb('field_key', '=', o.key), eb('value', '=', o.value)]))),
    )
    .groupBy(['field_key', 'value'])
    .execute();
  const count = (o: Option) => Number(rows.find((r) => r.field_key === o.key && r.value === o.value)?.n ?? 0);
  const [drive = first, ...others] = [...options].sort((a, b) => count(a) - count(b));
  const mergeable = (o: Option) => count(o) <= MERGE_RATIO * Math.max(1, count(drive));
  return { drive, merged: others.filter(mergeable), probed: others.filter((o) => !mergeable(o)) };
}

/**
 * The driving option's index range in a folder, narrowed by statuses and dates (inside the index) and the others.
 * Read it in list order (`inListOrder`) so that the merged options' ranges can be merged with it.
 */
export function optionRange(
  db: Queryable,
  scope: FormScope,
  f: InboxFilter,
  { drive, merged, probed }: OptionDrive,
) {
  let q = db
    .selectFrom('submission_options as o')
    .where('o.space_id', '=', scope.spaceId)
    .where('o.form_key', '=', scope.formKey)
    .where('o.field_key', '=', drive.key)
    .where('o.value', '=', drive.value)
    .where('o.folder', '=', f.folder)
    .$if(f.statuses !== null, (qb) =>
      qb.where('o.status', 'in', f.statuses !== null && f.statuses.length > 0 ? [...f.statuses] : ['']),
    )
    .$if(f.from !== null, (qb) => qb.where('o.created_at', '>=', f.from ?? ''))
    .$if(f.to !== null, (qb) => qb.where('o.created_at', '<', f.to ?? ''));
  // The same submission's rows of another option share its folder, status and created_at (the store's triggers
  // keep them so), so the join on the list order's two columns holds exactly when it chose that option too.
  merged.forEach((other, i) => {
    const alias = `merged${i}` as const;
    q = q.innerJoin(`submission_options as ${alias}`, (join) =>
      join
        .onRef(`${alias}.created_at`, '=', 'o.created_at')
        .onRef(`${alias}.submission_id`, '=', 'o.submission_id')
        .on(`${alias}.space_id`, '=', scope.spaceId)
        .on(`${alias}.form_key`, '=', scope.formKey)
        .on(`${alias}.field_key`, '=', other.key)
        .on(`${alias}.value`, '=', other.value)
        .on(`${alias}.folder`, '=', f.folder),
    );
  });
  for (const other of probed) q = q.where(choseOption('o.submission_id', other));
  return q;
}

/** How many submissions the options match, counted up to `limit` (newest first: the merged ranges' order). */
export async function optionMatchCount(
  db: Queryable,
  scope: FormScope,
  f: InboxFilter,
  options: OptionDrive,
  limit: number,
): Promise<number> {
  const matches = optionRange(db, scope, f, options)
    .select('o.submission_id')
    .orderBy('o.created_at', 'desc')
    .orderBy('o.submission_id', 'desc')
    .limit(limit);
  const row = await db
    .selectFrom(matches.as('m'))
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Up to `limit + 1` ids of the matching submissions in list order, from the driving option's index range. */
export async function optionPageIds(
  db: Queryable,
  scope: FormScope,
  f: InboxFilter,
  options: OptionDrive,
  page: { order: ListOrder; after: ListPosition | null; limit: number },
): Promise<string[]> {
  const dir = page.order === 'newest' ? 'desc' : 'asc';
  const cmp = page.order === 'newest' ? '<' : '>';
  const after = page.after;
  const rows = await optionRange(db, scope, f, options)
    .select('o.submission_id')
    .$if(after !== null, (qb) =>
      qb
        .where('o.created_at', cmp === '<' ? '<=' : '>=', after?.createdAt ?? '')
        .where((eb) =>
          eb.or([
            eb('o.created_at', cmp, after?.createdAt ?? ''),
            eb('o.submission_id', cmp, after?.id ?? ''),
          ]),
        ),
    )
    .orderBy('o.created_at', dir)
    .orderBy('o.submission_id', dir)
    .limit(page.limit + 1)
    .execute();
  return rows.map((r) => r.submission_id);
}

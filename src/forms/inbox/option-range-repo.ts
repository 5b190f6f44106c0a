// A list filtered by chosen options only (with folder, statuses and dates): read from `submission_options`
// (migration 0027), whose index holds every one of those columns in list order. One option drives: its index
// range gives the page's ids in order; any other option is probed per id in the same table. The driving option is
// the rarest by the store's tallies, so the range walked is the shortest.

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
  /** Further options each row must have chosen too. */
  others: Option[];
}

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
  if (rest.length === 0) return { drive: first, others: [] };
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
  return { drive, others };
}

/** The driving option's index range in a folder, narrowed by statuses and dates (inside the index) and the others. */
export function optionRange(db: Queryable, scope: FormScope, f: InboxFilter, { drive, others }: OptionDrive) {
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
  for (const other of others) q = q.where(choseOption('o.submission_id', other));
  return q;
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

/**
 * A parsed entry list request (spec 4.3) in the form its three evaluators take (list-service.ts picks one): the
 * rows index for published lists of one type it can answer (rows/), SQL for every other published list
 * (sql-list.ts, statements in list-query-repo.ts), and the preview evaluator for drafts and releases
 * (preview-list.ts). Their order and cursor values follow order.ts.
 */

import type { SlotLayout } from './slots.js';

export type Scalar = string | number;

/** Columns of list_entries that lists filter or sort on. */
export type Column = 'entry_id' | 'name' | 'parent_id' | 'position' | 'published_at' | 'first_published_at';

/** Where a filter or a sort reads its value: a column, or the per-locale values of a field (or `@tags`). */
export type Source =
  | { kind: 'column'; column: Column; nullable: boolean }
  | { kind: 'value'; key: string; col: 'str' | 'num'; many: boolean; locs: Locs };

/**
 * Which rows of list_values hold a value: per locale (a localized field), `*` (the same in every locale), or
 * either (a key localized in one type and not in another).
 */
export type Locs = 'locale' | 'any' | 'both';

/**
 * One filter in positive form; `negate` turns it into its complement, so `ne`/`nin`/`exists=false` also
 * match entries without a value (docs/api.md). On list values (tags, many references) a test holds when any
 * element passes it.
 */
export type Test =
  | { test: 'in'; values: Scalar[] }
  | { test: 'substring'; value: string }
  | { test: 'cmp'; cmp: '>' | '>=' | '<' | '<='; value: Scalar }
  | { test: 'present' };

export type Cond = { source: Source; negate: boolean } & Test;

export type SortSource = Source | { kind: 'path' } | { kind: 'rank' };

export interface SortKey {
  source: SortSource;
  desc: boolean;
}

export interface ListPlan {
  spaceId: string;
  cv: number;
  locale: string;
  /** The `type` parameter, or null: every listed type (folders are never listed). */
  type: string | null;
  /** Keys of folder types, left out when no type is given. */
  folderTypes: readonly string[];
  /** The real path (in `locale`) of the folder named by `under`. */
  under: string | null;
  conds: Cond[];
  /** Words of `search`, all required (any one with `anyWord`); null without search. */
  words: string[] | null;
  anyWord?: boolean;
  sort: SortKey[];
  limit: number;
  /** Sort values of the last row of the previous page (the cursor; order.ts says which), entry id last. */
  after: Scalar[] | null;
  /** The slots of `type` (list_rows, migration 0007), or null without a type. */
  layout: SlotLayout | null;
}

/** One row of a page, as every evaluator answers it. */
export interface ListRow {
  entryId: string;
  /** Its cursor values (order.ts). */
  after: Scalar[];
  /** The version's cv_from where the evaluator knows it: a hint for the entry cache. */
  cvFrom?: number | null;
}

/** What an evaluator answers for a plan: the list's `total` and `limit + 1` rows from the cursor on. */
export interface ListAnswer {
  total: number;
  rows: ListRow[];
}

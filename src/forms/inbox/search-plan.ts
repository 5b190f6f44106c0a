// The inbox filter's conditions that read the submission search index (migration 0031), planned once per request:
// the text search's, and one per text answer, so a filter on a text field's value reads the rows the index names
// instead of every row of the form.

import type { RawBuilder, SqlBool } from 'kysely';
import { foldForSearch } from '../../lib/search-fold.js';
import type { Store } from '../../store/open-store.js';
import type { InboxFilter } from './filter.js';

export interface PlannedSearch {
  /** The search of `q` (dialect.submissionSearch); undefined: no `q`. */
  text: RawBuilder<SqlBool> | undefined;
  /**
   * Conditions every row a text-answer filter matches also meets: the answer's folded value is in the row's search
   * copy, which holds every string value folded, one per line (src/lib/search-fold.ts). They only narrow: the exact
   * test of the stored value is applied beside them.
   */
  answers: RawBuilder<SqlBool>[];
}

/**
 * Values a stored number or boolean could equal (the field filter compares their text too: 1.50 stored, "1.50"
 * given) are left to the exact test: the search copy writes numbers as JavaScript does and leaves booleans out.
 */
const NOT_IN_SEARCH_COPY = /^(true|false|null|[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?)$/;

export async function planInboxSearch(
  store: Store,
  filter: InboxFilter,
  choiceKeys: ReadonlySet<string>,
): Promise<PlannedSearch> {
  const text = filter.q === null ? undefined : await store.dialect.submissionSearch(store.db, filter.q);
  const answers: RawBuilder<SqlBool>[] = [];
  for (const f of filter.fields) {
    if (choiceKeys.has(f.key) || NOT_IN_SEARCH_COPY.test(f.value.trim())) continue;
    const folded = foldForSearch(f.value).trim();
    if (folded !== '') answers.push(await store.dialect.submissionSearch(store.db, folded));
  }
  return { text, answers };
}

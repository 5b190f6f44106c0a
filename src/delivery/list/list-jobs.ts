import type { JobHandler } from '../../jobs/runner.js';
import type { Store } from '../../store/open-store.js';

/**
 * Merges the full-text index's rows a bulk load left pending (PostgreSQL: the GIN pending list an import let grow,
 * `bulkSearchLoad`). Queued by the import in its transaction and run by the job runner right after, so the
 * import does not wait for it; searches are complete meanwhile (pending rows are scanned), only slower, and
 * autovacuum does the same where no runner runs.
 */
export const SEARCH_MERGE_JOB = 'search-merge';

export function listJobHandlers(deps: { store: Store }): [string, JobHandler][] {
  return [
    [
      SEARCH_MERGE_JOB,
      async () => {
        await deps.store.dialect.bulkSearchLoad?.after(deps.store.db);
      },
    ],
  ];
}

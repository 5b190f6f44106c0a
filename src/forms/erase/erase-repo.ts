import type { Store } from '../../store/open-store.js';

/** How many files (uploads) these submissions claimed: what an erase would delete with them. */
export async function countFilesOf(store: Store, ids: readonly string[]): Promise<number> {
  const row = await store.db
    .selectFrom('uploads')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('submission_id', 'in', [...ids])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

import type { Store } from '../store/open-store.js';
import type { SpaceVersion } from './space-directory.js';

/** Every space's cv and min_cv: the fallback poll's one small query. */
export async function readSpaceVersions(store: Store): Promise<SpaceVersion[]> {
  const rows = await store.db.selectFrom('spaces').select(['id', 'cv', 'min_cv']).execute();
  return rows.map((r) => ({ id: r.id, cv: Number(r.cv), minCv: Number(r.min_cv) }));
}

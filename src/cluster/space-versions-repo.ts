import type { Store } from '../store/open-store.js';
import type { SpaceVersion } from './space-directory.js';

/** Every space's cv, min_cv and token generation: the fallback poll's one small query. */
export async function readSpaceVersions(store: Store): Promise<SpaceVersion[]> {
  const rows = await store.db.selectFrom('spaces').select(['id', 'cv', 'min_cv', 'token_gen']).execute();
  return rows.map((r) => ({
    id: r.id,
    cv: Number(r.cv),
    minCv: Number(r.min_cv),
    tokenGen: Number(r.token_gen),
  }));
}

import type { SpaceRow } from '../store/spaces-repo.js';
import type { Store } from '../store/open-store.js';
import { readSearchState } from '../store/search-state-repo.js';

/** `/status`'s `search` member: whether the semantic index is complete for the current cv. */
export async function searchStatus(
  store: Store,
  space: SpaceRow,
  model: string,
): Promise<{ model: string; indexedCv: number; complete: boolean } | null> {
  if (!space.settings.ai) return null;
  const state = await readSearchState(store.db, space.id);
  const indexedCv = state?.model === model ? state.indexedCv : 0;
  return { model, indexedCv, complete: indexedCv >= space.cv };
}

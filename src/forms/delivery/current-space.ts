import { spaceDirectoryOf } from '../../cluster/space-directory.js';
import type { Store } from '../../store/open-store.js';
import { getSpace, type SpaceRow } from '../../store/spaces-repo.js';

/**
 * The space row with its current cv: from the in-memory directory kept current by the cv fan-out when the app
 * runs one (no query per request, and the same cv as the response cache), else from the store.
 */
export async function currentSpace(store: Store, spaceId: string): Promise<SpaceRow | null> {
  const directory = spaceDirectoryOf(store);
  return directory ? directory.get(spaceId) : getSpace(store, spaceId);
}

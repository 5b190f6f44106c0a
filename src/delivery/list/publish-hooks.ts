import type { PublishHooks } from '../../content/publish-hooks.js';
import { closeListVersion, pruneListVersions, putListVersions } from './list-write-repo.js';

/**
 * Publishing's hooks (src/content/publish-hooks.ts) for the list tables, which follow the published log: a new
 * version closes the entry's open list rows and writes its new ones, closing and pruning follow the log's.
 */
export const listPublishHooks: PublishHooks = {
  async entryVersion(tx, dialect, spaceId, cv, snapshot, typeKind) {
    await closeListVersion(tx, dialect, spaceId, snapshot.id, cv);
    await putListVersions(tx, dialect, spaceId, cv, [{ snapshot, typeKind }]);
  },
  entryClosed: closeListVersion,
  firstVersions: putListVersions,
  pruned: pruneListVersions,
};

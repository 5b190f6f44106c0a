import type { PublishHooks } from '../content/publish-hooks.js';
import type { ReindexStep } from '../store/reindex.js';
import { closeDeps, indexMissingDeps, pruneDeps, putDeps } from './deps-repo.js';

/**
 * Publishing's hooks (src/content/publish-hooks.ts) for the dependency index: it follows the published log in the
 * same transaction, so `/sync` never reads a log the index has not caught up with.
 */
export const depsPublishHooks: PublishHooks = {
  async entryVersion(tx, dialect, spaceId, cv, snapshot) {
    await closeDeps(tx, spaceId, snapshot.id, cv);
    await putDeps(tx, dialect, spaceId, cv, [snapshot]);
  },
  async entryClosed(tx, _dialect, spaceId, entryId, cv) {
    await closeDeps(tx, spaceId, entryId, cv);
  },
  async firstVersions(tx, dialect, spaceId, cv, items) {
    await putDeps(
      tx,
      dialect,
      spaceId,
      cv,
      items.map((i) => i.snapshot),
    );
  },
  async pruned(tx, _dialect, spaceId, minCv) {
    await pruneDeps(tx, spaceId, minCv);
  },
};

/**
 * Fills the index for versions that have none: every version of a store from before it, after the migration that
 * made its table. What it builds for a version is `depsOf`'s answer: raise `version` when that changes.
 */
export const DEPS_REINDEX: ReindexStep = {
  step: 'entry-deps',
  version: 1,
  async run(tx, dialect) {
    await indexMissingDeps(tx, dialect);
  },
};

import { createHash } from 'node:crypto';
import { chainsOf } from '../delivery/list/index-values.js';
import { PublishedView } from '../delivery/content-view.js';
import { hasPendingJob } from '../jobs/outbox-repo.js';
import type { JobHandler } from '../jobs/runner.js';
import type { Store } from '../store/open-store.js';
import { getSpace, listSpaceIds } from '../store/spaces-repo.js';
import type { Embedder } from './embedder.js';
import {
  insertVectors,
  markIndexed,
  type NewVector,
  pendingVersions,
  pruneVectors,
  resetSearchIndex,
  vectorsByHash,
} from './embeddings-repo.js';
import { readSearchState } from '../store/search-state-repo.js';
import { SEARCH_INDEX_JOB, queueSearchIndex } from './queue.js';
import { chunkText, semanticTexts } from './search-text.js';
import { packVector } from './vector-bytes.js';

/**
 * Versions per round: one read, one embedding call, one write. Small, so a round of long entries (many chunks)
 * still ends well inside the job's lease.
 */
const ROUND = 16;
/** A job hands the rest to a new job after this long, well inside its lease (JOB_LEASE_SECONDS, 60 s default). */
const SLICE_MS = 20_000;

/** Names a chunk's text: the same words have the same vector, whichever entry or locale they are in. */
export const textHash = (text: string): string =>
  createHash('sha256').update(text).digest('base64url').slice(0, 32);

/** Brings a space's vectors up to its current cv; `now` bounds a job's slice (tests pass a clock). */
export async function indexSpace(
  store: Store,
  embedder: Embedder,
  spaceId: string,
  now: () => number = Date.now,
): Promise<'done' | 'more'> {
  const space = await getSpace(store, spaceId);
  if (!space) return 'done';
  let state = await readSearchState(store.db, spaceId);
  // AI off: no vectors at all. A space that never had AI has no state and nothing to do.
  if (!space.settings.ai) {
    if (state && (state.indexedCv > 0 || state.revision > 0))
      await resetSearchIndex(store.db, spaceId, embedder.model);
    return 'done';
  }
  if (!state || state.model !== embedder.model) {
    await resetSearchIndex(store.db, spaceId, embedder.model);
    state = await readSearchState(store.db, spaceId);
    if (!state) return 'done';
  }
  if (space.minCv > state.prunedCv) await pruneVectors(store.db, spaceId, space.minCv);

  const atCv = space.cv;
  const types = await new PublishedView(store, spaceId, atCv).types();
  const chains = chainsOf(space.settings);
  const until = now() + SLICE_MS;
  let after: { cvFrom: number; entryId: string } | null = null;
  for (;;) {
    const versions = await pendingVersions(
      store,
      spaceId,
      embedder.model,
      state.indexedCv,
      atCv,
      ROUND,
      after,
    );
    if (versions.length === 0) {
      await markIndexed(store.db, spaceId, embedder.model, atCv);
      return 'done';
    }
    const rows: (Omit<NewVector, 'vector'> & { text: string })[] = [];
    for (const v of versions)
      for (const [locale, text] of semanticTexts(v.snapshot, types, chains))
        chunkText(text).forEach((chunk, i) =>
          rows.push({
            locale,
            entryId: v.entryId,
            cvFrom: v.cvFrom,
            chunk: i,
            text: chunk,
            textHash: textHash(chunk),
          }),
        );
    // A text embedded before (an earlier version, another locale falling back to the same words) is reused.
    const known = await vectorsByHash(store.db, spaceId, embedder.model, [
      ...new Set(rows.map((r) => r.textHash)),
    ]);
    const missing = [...new Map(rows.filter((r) => !known.has(r.textHash)).map((r) => [r.textHash, r.text]))];
    const made = await embedder.embed(
      missing.map(([, text]) => text),
      'index',
    );
    missing.forEach(([hash], i) => known.set(hash, packVector(made[i]!)));
    await insertVectors(
      store.db,
      spaceId,
      embedder.model,
      rows.map(({ text: _text, ...r }) => ({ ...r, vector: known.get(r.textHash)! })),
    );
    const last = versions.at(-1)!;
    after = { cvFrom: last.cvFrom, entryId: last.entryId };
    if (now() > until) {
      await queueSearchIndex(store.db, spaceId);
      return 'more';
    }
  }
}

/**
 * Queues indexing for every space with AI on whose index is of another model or behind its cv: a job runner that
 * starts with a new EMBEDDINGS_MODEL re-embeds without waiting for a publish. Returns the spaces queued.
 */
export async function queueStaleSearchIndexes(store: Store, model: string): Promise<string[]> {
  const queued: string[] = [];
  for (const id of await listSpaceIds(store)) {
    const space = await getSpace(store, id);
    if (!space?.settings.ai) continue;
    const state = await readSearchState(store.db, id);
    if (state?.model === model && state.indexedCv >= space.cv) continue;
    if (await hasPendingJob(store.db, id, SEARCH_INDEX_JOB)) continue;
    await queueSearchIndex(store.db, id);
    queued.push(id);
  }
  return queued;
}

export function searchJobHandlers(deps: { store: Store; embedder: Embedder }): [string, JobHandler][] {
  return [
    [
      SEARCH_INDEX_JOB,
      async (job) => {
        await indexSpace(deps.store, deps.embedder, job.spaceId);
      },
    ],
  ];
}

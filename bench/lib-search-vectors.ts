/**
 * Random unit vectors for every version of a space, written as the search indexer writes them, and the index
 * marked complete at the space's cv: the benches' stand-in for embedding thousands of texts with the offline
 * model (over ten minutes for 50k on a 2-core machine), since a scan's cost does not depend on what vectors mean.
 */
import { normalize } from '../src/search/embedder.js';
import { insertVectors, markIndexed, resetSearchIndex } from '../src/search/embeddings-repo.js';
import { textHash } from '../src/search/indexer.js';
import { packVector } from '../src/search/vector-bytes.js';
import type { Store } from '../src/store/open-store.js';

/** The offline model's dimensions (src/search/local-embedder.ts). */
export const LOCAL_MODEL_DIM = 512;

export function randomUnit(rand: () => number, dim = LOCAL_MODEL_DIM): Float32Array {
  const v = new Float32Array(dim);
  for (let i = 0; i < dim; i++) v[i] = rand() - 0.5;
  return normalize(v);
}

export async function fillVectors(
  store: Store,
  spaceId: string,
  model: string,
  rand: () => number,
  locale = 'en',
): Promise<void> {
  await resetSearchIndex(store.db, spaceId, model);
  const rows = await store.db
    .selectFrom('entry_versions')
    .select(['entry_id', 'cv_from'])
    .where('space_id', '=', spaceId)
    .execute();
  for (let i = 0; i < rows.length; i += 2000) {
    await insertVectors(
      store.db,
      spaceId,
      model,
      rows.slice(i, i + 2000).map((r) => ({
        locale,
        entryId: r.entry_id,
        cvFrom: Number(r.cv_from),
        chunk: 0,
        textHash: textHash(r.entry_id),
        vector: packVector(randomUnit(rand)),
      })),
    );
  }
  const space = await store.db
    .selectFrom('spaces')
    .select('cv')
    .where('id', '=', spaceId)
    .executeTakeFirstOrThrow();
  await markIndexed(store.db, spaceId, model, Number(space.cv));
}

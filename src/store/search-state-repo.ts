import type { Queryable } from './spaces-repo.js';

/** How far a space's semantic index is (migration 0015). */
export interface SearchState {
  model: string;
  indexedCv: number;
  prunedCv: number;
  revision: number;
  generation: number;
}

export async function readSearchState(db: Queryable, spaceId: string): Promise<SearchState | undefined> {
  const row = await db
    .selectFrom('search_state')
    .selectAll()
    .where('space_id', '=', spaceId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    model: row.model,
    indexedCv: Number(row.indexed_cv),
    prunedCv: Number(row.pruned_cv),
    revision: Number(row.revision),
    generation: Number(row.generation),
  };
}

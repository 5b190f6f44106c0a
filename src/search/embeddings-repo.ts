import { sql } from 'kysely';
import type { EntrySnapshot } from '../content/model.js';
import type { Store } from '../store/open-store.js';
import type { Queryable } from '../store/spaces-repo.js';
import { readSearchState } from '../store/search-state-repo.js';

/**
 * Forgets a space's vectors and starts its index over for `model` (a new model re-embeds; a space whose AI was
 * switched off keeps none). `generation` moves on, so every instance drops what it holds.
 */
export async function resetSearchIndex(db: Queryable, spaceId: string, model: string): Promise<void> {
  const old = await readSearchState(db, spaceId);
  await db.deleteFrom('search_embeddings').where('space_id', '=', spaceId).execute();
  const row = { model, indexed_cv: 0, pruned_cv: 0, revision: 0, generation: (old?.generation ?? 0) + 1 };
  await db
    .insertInto('search_state')
    .values({ space_id: spaceId, ...row })
    .onConflict((oc) => oc.column('space_id').doUpdateSet(row))
    .execute();
}

/**
 * Forgets a space's vectors, keeping its model (an import starts the space's published log over, and its cvs with
 * it): the next indexing job embeds everything again.
 */
export async function forgetSearchIndex(db: Queryable, spaceId: string): Promise<void> {
  await db.deleteFrom('search_embeddings').where('space_id', '=', spaceId).execute();
  await db
    .updateTable('search_state')
    .set((eb) => ({ indexed_cv: 0, pruned_cv: 0, revision: 0, generation: eb('generation', '+', 1) }))
    .where('space_id', '=', spaceId)
    .execute();
}

export interface PendingVersion {
  entryId: string;
  cvFrom: number;
  type: string;
  snapshot: EntrySnapshot;
}

/** Kinds no search finds (spec 2.1: globals are never listed; folders and blocks are not content of their own). */
const UNSEARCHED_KINDS = ['global', 'block', 'folder'];

/**
 * Versions published in (`afterCv`, `atCv`] and still open at `atCv` that have no vector of `model` yet, oldest
 * first. A job that stopped half way (a lease lost, a crash) starts again where the vectors end.
 */
export async function pendingVersions(
  store: Store,
  spaceId: string,
  model: string,
  afterCv: number,
  atCv: number,
  limit: number,
  /** Where the previous page of this job ended (keyset), so a page never rescans what was done. */
  after: { cvFrom: number; entryId: string } | null = null,
): Promise<PendingVersion[]> {
  const rows = await store.db
    .selectFrom('entry_versions as v')
    .select(['v.entry_id', 'v.cv_from', 'v.type', 'v.doc'])
    .where('v.space_id', '=', spaceId)
    .where('v.cv_from', '>', afterCv)
    .where('v.cv_from', '<=', atCv)
    .where((eb) => eb.or([eb('v.cv_to', 'is', null), eb('v.cv_to', '>', atCv)]))
    .where('v.type_kind', 'not in', UNSEARCHED_KINDS)
    .$if(after !== null, (q) =>
      q.where((eb) =>
        eb.or([
          eb('v.cv_from', '>', after!.cvFrom),
          eb.and([eb('v.cv_from', '=', after!.cvFrom), eb('v.entry_id', '>', after!.entryId)]),
        ]),
      ),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('search_embeddings as e')
            .select(sql`1`.as('one'))
            .whereRef('e.space_id', '=', 'v.space_id')
            .whereRef('e.entry_id', '=', 'v.entry_id')
            .whereRef('e.cv_from', '=', 'v.cv_from')
            .where('e.model', '=', model),
        ),
      ),
    )
    .orderBy('v.cv_from')
    .orderBy('v.entry_id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    entryId: r.entry_id,
    cvFrom: Number(r.cv_from),
    type: r.type,
    snapshot: store.dialect.parseJson<EntrySnapshot>(r.doc),
  }));
}

/** Vectors already made of these texts (by hash), to reuse rather than embed again. */
export async function vectorsByHash(
  db: Queryable,
  spaceId: string,
  model: string,
  hashes: readonly string[],
): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  for (let i = 0; i < hashes.length; i += 500) {
    const rows = await db
      .selectFrom('search_embeddings')
      .select(['text_hash', 'vector'])
      .where('space_id', '=', spaceId)
      .where('model', '=', model)
      .where('text_hash', 'in', hashes.slice(i, i + 500))
      .execute();
    for (const r of rows) out.set(r.text_hash, r.vector);
  }
  return out;
}

export interface NewVector {
  locale: string;
  entryId: string;
  cvFrom: number;
  chunk: number;
  textHash: string;
  vector: Uint8Array;
}

/** Writes vectors (a row already there, from a job that ran twice, is kept) and counts the revision up. */
export async function insertVectors(
  db: Queryable,
  spaceId: string,
  model: string,
  vectors: readonly NewVector[],
): Promise<void> {
  for (let i = 0; i < vectors.length; i += 200) {
    await db
      .insertInto('search_embeddings')
      .values(
        vectors.slice(i, i + 200).map((v) => ({
          space_id: spaceId,
          model,
          locale: v.locale,
          entry_id: v.entryId,
          cv_from: v.cvFrom,
          chunk: v.chunk,
          text_hash: v.textHash,
          vector: v.vector,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['space_id', 'entry_id', 'cv_from', 'model', 'locale', 'chunk']).doNothing(),
      )
      .execute();
  }
  await db
    .updateTable('search_state')
    .set((eb) => ({ revision: eb('revision', '+', 1) }))
    .where('space_id', '=', spaceId)
    .where('model', '=', model)
    .execute();
}

/** Every open version up to `cv` has its vectors: the index is complete for `cv` and older. */
export async function markIndexed(db: Queryable, spaceId: string, model: string, cv: number): Promise<void> {
  await db
    .updateTable('search_state')
    .set({ indexed_cv: cv })
    .where('space_id', '=', spaceId)
    .where('model', '=', model)
    .where('indexed_cv', '<', cv)
    .execute();
}

/**
 * Deletes the vectors of versions the published log has pruned (below the space's oldest kept cv) and moves the
 * generation on, so instances reload without them.
 */
export async function pruneVectors(db: Queryable, spaceId: string, minCv: number): Promise<void> {
  await db
    .deleteFrom('search_embeddings as e')
    .where('e.space_id', '=', spaceId)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('entry_versions as v')
            .select(sql`1`.as('one'))
            .whereRef('v.space_id', '=', 'e.space_id')
            .whereRef('v.entry_id', '=', 'e.entry_id')
            .whereRef('v.cv_from', '=', 'e.cv_from'),
        ),
      ),
    )
    .execute();
  await db
    .updateTable('search_state')
    .set((eb) => ({ pruned_cv: minCv, generation: eb('generation', '+', 1) }))
    .where('space_id', '=', spaceId)
    .execute();
}

export interface LoadedVector {
  seq: number;
  entryId: string;
  cvFrom: number;
  cvTo: number | null;
  type: string;
  chunk: number;
  vector: Uint8Array;
}

/** One page of a locale's vectors written after `afterSeq`, with their versions' type and closing cv. */
export async function loadVectors(
  db: Queryable,
  spaceId: string,
  model: string,
  locale: string,
  afterSeq: number,
  limit: number,
): Promise<LoadedVector[]> {
  const rows = await db
    .selectFrom('search_embeddings as e')
    .innerJoin('entry_versions as v', (join) =>
      join
        .onRef('v.space_id', '=', 'e.space_id')
        .onRef('v.entry_id', '=', 'e.entry_id')
        .onRef('v.cv_from', '=', 'e.cv_from'),
    )
    .select(['e.seq', 'e.entry_id', 'e.cv_from', 'e.chunk', 'e.vector', 'v.type', 'v.cv_to'])
    .where('e.space_id', '=', spaceId)
    .where('e.model', '=', model)
    .where('e.locale', '=', locale)
    .where('e.seq', '>', afterSeq)
    .orderBy('e.seq')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    seq: Number(r.seq),
    entryId: r.entry_id,
    cvFrom: Number(r.cv_from),
    cvTo: r.cv_to === null ? null : Number(r.cv_to),
    type: r.type,
    chunk: Number(r.chunk),
    vector: r.vector,
  }));
}

/** Versions closed after `afterCv` (unpublished, deleted or replaced since an index was last brought up to date). */
export async function closedSince(
  db: Queryable,
  spaceId: string,
  afterCv: number,
): Promise<{ entryId: string; cvFrom: number; cvTo: number }[]> {
  const rows = await db
    .selectFrom('entry_versions')
    .select(['entry_id', 'cv_from', 'cv_to'])
    .where('space_id', '=', spaceId)
    .where('cv_to', '>', afterCv)
    .execute();
  return rows.map((r) => ({ entryId: r.entry_id, cvFrom: Number(r.cv_from), cvTo: Number(r.cv_to) }));
}

import type { Kysely } from 'kysely';
import type { EntrySnapshot, SpaceSettings, TypeMap } from '../../content/model.js';
import type { StoreDialect } from '../../store/dialect/dialect.js';
import type { Database } from '../../store/schema.js';
import { chainsOf, searchConfig, searchScope, searchTexts, UNLISTED_KINDS } from './index-values.js';

/** Search vectors computed ahead of a bulk load's transaction (`startSearchVectors`): an entry's, by slot. */
export interface SearchVectors {
  of(entryId: string): Promise<string[] | undefined>;
  /** Computes no further slice (the load is over, or failed). */
  stop(): void;
}

/**
 * Starts computing the search vectors of many versions on `side`, a connection outside the bulk load's
 * transaction, slice after slice, so the database stems text on one core while the transaction writes rows on
 * another. Undefined where the engine has no vectors to compute (SQLite's FTS5 tokenizes on insert).
 */
export function startSearchVectors(
  side: Kysely<Database>,
  dialect: StoreDialect,
  model: { types: TypeMap; settings: SpaceSettings; spaceId: string },
  slices: readonly (readonly { snapshot: EntrySnapshot; typeKind: string }[])[],
): SearchVectors | undefined {
  const compute = dialect.searchVectors?.bind(dialect);
  if (!compute) return undefined;
  const chains = chainsOf(model.settings);
  const sliceOf = new Map<string, number>();
  const results: Promise<Map<string, string[]>>[] = [];
  let previous: Promise<unknown> = Promise.resolve();
  let stopped = false;
  slices.forEach((slice, k) => {
    const listed = slice.filter((i) => !UNLISTED_KINDS.has(i.typeKind));
    for (const { snapshot } of listed) sliceOf.set(snapshot.id, k);
    const result = previous.then(async () => {
      if (stopped) throw new Error('search vectors: stopped');
      const owners: string[] = [];
      const docs = listed.flatMap(({ snapshot: s }) =>
        [...searchTexts(s, model.types, chains)].map(([loc, body]) => {
          owners.push(s.id);
          return { scope: searchScope(model.spaceId, loc), config: searchConfig(loc), body };
        }),
      );
      const vectors = await compute(side, docs);
      const out = new Map<string, string[]>();
      vectors.forEach((v, i) => {
        const id = owners[i] ?? '';
        out.set(id, [...(out.get(id) ?? []), v]);
      });
      return out;
    });
    // A transaction that fails early never awaits the rest: their failures must not go unhandled.
    result.catch(() => undefined);
    results.push(result);
    previous = result.catch(() => undefined);
  });
  return {
    async of(entryId) {
      const k = sliceOf.get(entryId);
      return k === undefined ? undefined : (await results[k])?.get(entryId);
    },
    stop() {
      stopped = true;
    },
  };
}

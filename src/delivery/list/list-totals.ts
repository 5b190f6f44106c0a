import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { TypeMap } from '../../content/model.js';
import { entryChangesThrough } from '../../store/entry-version-cache.js';
import type { Store } from '../../store/open-store.js';
import type { ListPlan } from './plan.js';

/**
 * A list's `total`, counted once per space, cv and selection and carried to later cvs a publish left it valid at:
 * the caches both published evaluators count through, the rows index (rows/rows-index.ts) and SQL
 * (sql-list.ts), so a total counted by one serves the other.
 */

// `total` depends only on the space, the cv and the selection: every page of a listing shares it. The cache holds
// the count's promise, so requests for a selection that arrive while it is being counted wait for that count
// instead of each running their own (without it, concurrent requests on a new selection each ran the count).
const totals = new WeakMap<Store, LRUCache<string, Promise<number>>>();
function totalCache(store: Store): LRUCache<string, Promise<number>> {
  let cache = totals.get(store);
  if (!cache) totals.set(store, (cache = new LRUCache({ max: 5000 })));
  return cache;
}

/**
 * The newest count of each selection per space, with the cv it holds at and the types it was counted under: a
 * publish that changed no entry (menus, redirects, forms, assets) and no type leaves every count as it was, so the
 * next cv takes it instead of counting again (the change log says which publishes those were).
 */
interface Counted {
  cv: number;
  types: string;
  total: number;
}
const carried = new WeakMap<Store, LRUCache<string, Counted>>();
function carriedCache(store: Store): LRUCache<string, Counted> {
  let cache = carried.get(store);
  if (!cache) carried.set(store, (cache = new LRUCache({ max: 5000 })));
  return cache;
}

// The type definitions of a cv, hashed once per TypeMap (one per cv): equal hashes, equal slot layouts and fields.
// A hash, not the text: a count holds it, and 5,000 counts of as many cvs must not hold 5,000 copies of the types.
const typesHash = new WeakMap<TypeMap, string>();
export function typesFingerprint(types: TypeMap): string {
  let hash = typesHash.get(types);
  if (hash === undefined)
    typesHash.set(
      types,
      (hash = createHash('sha256')
        .update(JSON.stringify([...types.values()]))
        .digest('base64url')),
    );
  return hash;
}

/**
 * A count of `selection` from an earlier cv that still holds at `cv`, or null. A list of one type without `under`
 * depends only on entries of that type (their own values, paths and text); `under` also on the folders above them,
 * and a list of every type on every entry.
 */
async function carriedTotal(
  store: Store,
  plan: ListPlan,
  selection: string,
  types: TypeMap,
): Promise<number | null> {
  const { spaceId, cv } = plan;
  const known = carriedCache(store).get(`${spaceId}\n${selection}`);
  if (known === undefined || known.cv > cv || known.types !== typesFingerprint(types)) return null;
  if (known.cv === cv) return known.total;
  const changes = await entryChangesThrough(store, spaceId, cv);
  const onlyType = plan.type !== null && plan.under === null ? plan.type : undefined;
  return changes?.quietBetween(known.cv, cv, onlyType) === true ? known.total : null;
}

/** Records a count of `selection` at the plan's cv: for requests at that cv, and carried to later ones. */
export function rememberTotal(
  store: Store,
  plan: Pick<ListPlan, 'spaceId' | 'cv'>,
  selection: string,
  types: TypeMap,
  total: number,
): void {
  totalCache(store).set(totalKey(plan, selection), Promise.resolve(total));
  remember(store, plan, selection, types, total);
}

function remember(
  store: Store,
  { spaceId, cv }: Pick<ListPlan, 'spaceId' | 'cv'>,
  selection: string,
  types: TypeMap,
  total: number,
): void {
  const cache = carriedCache(store);
  const key = `${spaceId}\n${selection}`;
  const known = cache.get(key);
  // The newest cv wins: a pinned request for an old cv does not replace what current ones carry forward.
  if (known === undefined || known.cv <= cv) cache.set(key, { cv, types: typesFingerprint(types), total });
}

const totalKey = ({ spaceId, cv }: Pick<ListPlan, 'spaceId' | 'cv'>, selection: string): string =>
  `${spaceId}\n${cv}\n${selection}`;

/** Whether the count of `selection` at the plan's cv is known or under way. */
export const totalKnown = (store: Store, plan: ListPlan, selection: string): boolean =>
  totalCache(store).has(totalKey(plan, selection));

/**
 * A count at the plan's cv through the total cache: the promise of a count under way, one carried over from an
 * earlier cv (`carriedTotal`), or `count` run once.
 */
export function cachedCount(
  store: Store,
  plan: ListPlan,
  selection: string,
  types: TypeMap,
  count: () => Promise<number>,
): Promise<number> {
  const cache = totalCache(store);
  const key = totalKey(plan, selection);
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const started = carriedTotal(store, plan, selection, types).then((carriedOver) => carriedOver ?? count());
  cache.set(key, started);
  started.then(
    (counted) => remember(store, plan, selection, types, counted),
    // A failed count (store down) is not remembered: the next request counts again.
    () => {
      if (cache.get(key) === started) cache.delete(key);
    },
  );
  return started;
}

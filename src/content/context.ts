import { type Problem, Problems } from '../lib/problems.js';
import type { FieldContext } from '../bundle/validate-fields.js';
import { hasPaths, type ContentTypeDef } from './model.js';
import { type FolioError, notFound, validationFailed } from '../errors/errors.js';
import { listDocs, listTypes } from '../store/authoring-repo.js';
import type { Store } from '../store/open-store.js';
import { getSpace, type Queryable, type SpaceRow } from '../store/spaces-repo.js';
import { assetIds, entryTypes } from '../store/management-repo.js';

export async function requireSpace(store: Store, spaceId: string): Promise<SpaceRow> {
  const space = await getSpace(store, spaceId);
  if (!space) throw notFound(`Space "${spaceId}" not found.`);
  return space;
}

/**
 * Authoring problems as a 422 `validation_failed` whose `details.fields` is keyed by the JSON path of each
 * problem in the request body (spec 7.1 shape: `{ code, message }`).
 */
export function invalid(what: string, problems: readonly Problem[]): FolioError {
  // A Map, not `{}`: a member named `constructor` or `toString` is a path like any other (on `{}` the inherited
  // function made `??=` skip it, and the problem went missing from the answer).
  const fields = new Map<string, { code: string; message: string }>();
  for (const p of problems) {
    // Checks run with an empty root path, so their paths start with a dot (`.items[0].label`).
    const path = p.path.replace(/^\./, '') || '$';
    if (!fields.has(path)) fields.set(path, { code: 'invalid', message: p.message });
  }
  return validationFailed(`The ${what} is not valid.`, { details: { fields: Object.fromEntries(fields) } });
}

/** What authored documents may refer to: the space's locales, entries (and whether they are pages), assets. */
export interface RefContext {
  locales: ReadonlySet<string>;
  types: ReadonlyMap<string, ContentTypeDef>;
  entryTypes: ReadonlyMap<string, string>;
  assets: ReadonlySet<string>;
  isPage(entryId: string): boolean | undefined;
  /** Pages proper: entries found by path (not folders), the only targets of redirects. */
  isPageProper(entryId: string): boolean | undefined;
  hasAsset(assetId: string): boolean;
}

export async function loadRefContext(store: Store, db: Queryable, space: SpaceRow): Promise<RefContext> {
  const types = new Map((await listTypes(store, space.id, db)).map((t) => [t.key, t]));
  const entries = await entryTypes(db, space.id);
  const assets = await assetIds(db, space.id);
  const kind = (id: string) => {
    const type = entries.get(id);
    return type === undefined ? undefined : types.get(type);
  };
  return {
    locales: new Set(space.settings.locales.map((l) => l.code)),
    types,
    entryTypes: entries,
    assets,
    isPage: (id) => (entries.has(id) ? hasPaths(kind(id)) : undefined),
    isPageProper: (id) => (entries.has(id) ? hasPaths(kind(id)) && kind(id)?.kind !== 'folder' : undefined),
    hasAsset: (id) => assets.has(id),
  };
}

/** What entry fields are checked against (the bundle's field checks, on the space as stored). */
export async function loadFieldContext(
  store: Store,
  db: Queryable,
  ref: RefContext,
  spaceId: string,
  extraEntry?: { id: string; type: string },
): Promise<FieldContext> {
  const lists = new Map<string, Set<string>>();
  for (const { key, doc } of await listDocs<{ options?: { value: string }[] }>(store, spaceId, 'lists', db))
    lists.set(key, new Set((doc.options ?? []).map((o) => o.value)));
  const entryTypesMap = new Map(ref.entryTypes);
  if (extraEntry) entryTypesMap.set(extraEntry.id, extraEntry.type);
  return {
    locales: ref.locales,
    types: ref.types,
    entryTypes: entryTypesMap,
    assets: ref.assets,
    lists,
    problems: new Problems(),
  };
}

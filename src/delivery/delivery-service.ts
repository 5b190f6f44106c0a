import { type Crop, cropParam, cropSignature } from '../lib/crop.js';
import { spaceDirectoryOf } from '../cluster/space-directory.js';
import type { AssetDoc, EntrySnapshot } from '../content/model.js';
import { redirectForPath } from '../redirects/resolve-redirects.js';
import type { AppServices } from '../app/services.js';
import { FolioError, invalidQuery, notFound } from '../errors/errors.js';
import { deriveKey } from '../store/secrets-repo.js';
import type { Store } from '../store/open-store.js';
import { getSpace, type SpaceRow } from '../store/spaces-repo.js';
import { AuthoringView, type ContentView, PublishedView } from './content-view.js';
import { checkFieldNames, type CommonParams, cvExpired, parseCommon, parseKeys } from './params.js';
import { type DeliveredEntry, type Included, resolveEntries } from './resolve.js';

export interface DeliveryDeps {
  store: Store;
  publicUrl: string;
  /** Signs the crops in delivered asset urls (spec 2.3 rule 2): `deriveKey(masterKey, 'image-crops')`. */
  cropKey: Buffer;
}

/** The delivery dependencies every route plugin builds from the app's services. */
export const deliveryDepsOf = (services: AppServices): DeliveryDeps => ({
  store: services.store,
  publicUrl: services.config.publicUrl,
  cropKey: deriveKey(services.masterKey, 'image-crops'),
});

export interface Request {
  spaceId: string;
  query: Record<string, unknown>;
}

/** A view of one space for one request, with the parsed common parameters. */
export interface Scope {
  space: SpaceRow;
  view: ContentView;
  params: CommonParams;
  /** True when the client pinned `cv`: the response is immutable (spec 4.1). */
  pinned: boolean;
}

export async function loadSpace(deps: DeliveryDeps, spaceId: string): Promise<SpaceRow> {
  // The in-memory row kept current by the cv fan-out (src/cluster/): no query per request, and the same cv as
  // the response cache's key.
  const directory = spaceDirectoryOf(deps.store);
  const space = directory ? await directory.get(spaceId) : await getSpace(deps.store, spaceId);
  if (!space) throw notFound(`Space "${spaceId}" not found.`);
  return space;
}

/** Picks the view: drafts, a release, the current cv, or a pinned cv (DESIGN.md: never different content). */
export async function openScope(deps: DeliveryDeps, req: Request): Promise<Scope> {
  const space = await loadSpace(deps, req.spaceId);
  const params = parseCommon(req.query, space.settings);
  let view: ContentView;
  if (params.draft) view = AuthoringView.forDraft(deps.store, space);
  else if (params.release !== undefined) {
    const release = await AuthoringView.forRelease(deps.store, space, params.release);
    if (!release) throw notFound(`Release "${params.release}" not found.`);
    view = release;
  } else if (params.cv !== undefined) {
    if (params.cv > space.cv)
      throw invalidQuery(`cv ${params.cv} is ahead of the current cv ${space.cv}.`, 'cv');
    // A pinned render (a cache miss) reads the kept history from the store itself: a prune may be moments old and
    // not yet in memory, and a pruned cv must answer 410, never different content (DESIGN.md).
    const minCv =
      params.cv < space.cv ? ((await getSpace(deps.store, space.id))?.minCv ?? space.minCv) : space.minCv;
    if (params.cv < minCv) throw cvExpired(params.cv, minCv);
    view = new PublishedView(deps.store, space.id, params.cv);
  } else view = new PublishedView(deps.store, space.id, space.cv);
  checkFieldNames(params, await view.types());
  return { space, view, params, pinned: params.cv !== undefined };
}

/**
 * The url of an asset's file; for a cropped usage it carries the crop and its signature (spec 2.3 rule 2), which
 * sites keep when they add `w`, `preset` and the other image parameters.
 */
export const assetUrlFor =
  (deps: DeliveryDeps, spaceId: string) =>
  (asset: AssetDoc, crop: Crop | null = null): string => {
    const url = `${deps.publicUrl}/v1/${spaceId}/assets/${asset.id}/${encodeURIComponent(asset.filename)}`;
    if (crop === null) return url;
    return `${url}?crop=${cropParam(crop)}&sig=${cropSignature(deps.cropKey, spaceId, asset.id, crop)}`;
  };

async function deliver(deps: DeliveryDeps, scope: Scope, ids: string[]) {
  const found = await scope.view.entries(ids);
  const roots = ids.flatMap((id) => {
    const s = found.get(id);
    return s ? [s] : [];
  });
  return deliverRoots(deps, scope, roots);
}

function deliverRoots(deps: DeliveryDeps, scope: Scope, roots: readonly EntrySnapshot[]) {
  return resolveEntries(scope.view, roots, {
    locale: scope.params.locale,
    chain: scope.params.chain,
    include: scope.params.include,
    fields: scope.params.fields,
    assetUrl: assetUrlFor(deps, scope.space.id),
  });
}

export interface EntryResponse {
  entry: DeliveredEntry;
  included: Included;
  cv: number;
}

export async function entryByPath(deps: DeliveryDeps, scope: Scope, path: string): Promise<EntryResponse> {
  const found = await scope.view.entryAtPath(scope.params.locale, path);
  const result = found ? await deliverRoots(deps, scope, [found]) : null;
  const entry = result?.entries[0];
  if (!result || !entry) {
    const message = `No entry at path "${path}" in locale "${scope.params.locale}".`;
    // spec 7.3: an old path with a redirect is a 404 carrying `redirect` (a page on the path wins, 2.6 rule 3).
    const redirect = await redirectForPath(
      deps.store,
      scope.space.id,
      scope.params.locale,
      path,
      scope.view.cv,
    );
    throw notFound(message, redirect ? { extra: { redirect } } : {});
  }
  return { entry, included: result.included, cv: scope.view.cv };
}

export async function entryById(deps: DeliveryDeps, scope: Scope, id: string): Promise<EntryResponse> {
  const result = await deliver(deps, scope, [id]);
  const entry = result.entries[0];
  if (!entry) throw notFound(`Entry "${id}" not found.`);
  return { entry, included: result.included, cv: scope.view.cv };
}

async function globalTypes(scope: Scope): Promise<string[]> {
  return [...(await scope.view.types()).values()].filter((t) => t.kind === 'global').map((t) => t.key);
}

export async function globalByKey(deps: DeliveryDeps, scope: Scope, key: string): Promise<EntryResponse> {
  if (!(await globalTypes(scope)).includes(key)) throw notFound(`Global "${key}" not found.`);
  const [snapshot] = await scope.view.entriesOfTypes([key]);
  if (!snapshot) throw notFound(`Global "${key}" is not published.`);
  return entryById(deps, scope, snapshot.id);
}

export async function globalsByKeys(
  deps: DeliveryDeps,
  scope: Scope,
  keysParam: string | undefined,
): Promise<{ globals: Record<string, DeliveredEntry>; included: Included; cv: number }> {
  const known = await globalTypes(scope);
  let keys: string[];
  if (keysParam === undefined) keys = known;
  else {
    keys = parseKeys(keysParam, 'global', 20);
    for (const k of keys) if (!known.includes(k)) throw notFound(`Global "${k}" not found.`);
  }
  const snapshots = await scope.view.entriesOfTypes(keys);
  if (keysParam !== undefined) {
    for (const k of keys)
      if (!snapshots.some((s) => s.type === k)) throw notFound(`Global "${k}" is not published.`);
  }
  const result = await resolveEntries(scope.view, snapshots, {
    locale: scope.params.locale,
    chain: scope.params.chain,
    include: scope.params.include,
    fields: scope.params.fields,
    assetUrl: assetUrlFor(deps, scope.space.id),
  });
  // fromEntries defines each key (a key is never the prototype's setter).
  const globals: Record<string, DeliveredEntry> = Object.fromEntries(result.entries.map((e) => [e.type, e]));
  return { globals, included: result.included, cv: scope.view.cv };
}

export function spaceStatus(space: SpaceRow) {
  return {
    spaceId: space.id,
    name: space.name,
    cv: space.cv,
    oldestCv: space.minCv,
    defaultLocale: space.settings.locales.find((l) => l.default)?.code ?? space.settings.locales[0]?.code,
    locales: space.settings.locales.map((l) => ({
      code: l.code,
      default: l.default === true,
      fallbacks: l.fallbacks ?? [],
    })),
    timeZone: space.settings.timeZone,
    ai: space.settings.ai,
  };
}

export { FolioError };

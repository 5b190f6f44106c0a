import type { Crop } from '../lib/crop.js';
import type { AssetDoc, EntrySnapshot, TypeMap } from '../content/model.js';
import { type FolioError, invalidQuery } from '../errors/errors.js';
import type { ContentView } from './content-view.js';
import { collectNeeds, emptyNeeds, type Needs, renderFields, type RenderContext } from './render-fields.js';
import type { RenderedEntries } from './rendered-entries.js';
import type { ShownForm } from './cache-headers.js';
import type { TimeSlicer } from '../lib/time-slice.js';

export interface ResolveParams {
  locale: string;
  chain: readonly string[];
  /** Reference field keys whose targets are embedded in included.entries, at any depth. */
  include: ReadonlySet<string>;
  /** Root fields to return (spec 4.1 `fields`); all when undefined. */
  fields: ReadonlySet<string> | undefined;
  assetUrl: (asset: AssetDoc, crop?: Crop | null) => string;
  /**
   * Published views only: where renders of this space, cv, locale and chain are kept (`prefix`, renderPrefix),
   * so an entry rendered before at this cv is taken as it was (rendered-entries.ts).
   */
  rendered?: { cache: RenderedEntries; prefix: string };
  /**
   * Lists only: ticked between entries as they are collected and rendered, so a page of 100 entries with their
   * includes gives a waiting cached read its turn (src/lib/time-slice.ts).
   */
  slicer?: TimeSlicer;
}

export interface DeliveredEntry {
  id: string;
  type: string;
  name: string;
  slug: string;
  path: string | null;
  parentId: string | null;
  locale: string;
  tags: string[];
  position: number;
  publishedAt: string;
  firstPublishedAt: string;
  /** Paths of the entry in every locale of the space (null for entries that are not pages). */
  alternates: Record<string, string> | null;
  content: { id: string; type: string; fields: Record<string, unknown> };
}

export interface DeliveredLink {
  id: string;
  type: string;
  name: string;
  path: string;
}

export interface Included {
  entries: DeliveredEntry[];
  links: Record<string, DeliveredLink>;
}

/**
 * Dedup already guarantees termination; this bounds the memory one request can take. Past it the request is the
 * client's to narrow (fewer `include` keys, fewer entries): 400 `invalid_query` naming `include`.
 */
export const MAX_INCLUDED = 5000;

/**
 * Resolves root entries for delivery: loads what their fields point at (assets, linked and referenced
 * entries, and for `include` the referenced entries' own references, to any depth, deduplicated), then renders.
 */
export async function resolveEntries(
  view: ContentView,
  roots: readonly EntrySnapshot[],
  params: ResolveParams,
): Promise<{ entries: DeliveredEntry[]; included: Included }> {
  const types = await view.types();
  const known = new Map<string, EntrySnapshot>(roots.map((r) => [r.id, r]));
  const needs = emptyNeeds();
  // Awaited only where there is one: `await undefined` would still cost every entry of a by-id read a microtask.
  const slicer = params.slicer;
  for (const r of roots) {
    collect(r, types, needs);
    if (slicer !== undefined) await slicer.tick();
  }

  const includedIds: string[] = [];
  const includedSet = new Set<string>();
  const rootIds = new Set(roots.map((r) => r.id));
  let frontier = new Set(includeTargets(needs, params.include));
  const linkIds = new Set(needs.links);
  const refIds = new Set([...needs.refs.values()].flatMap((s) => [...s]));
  // Each round loads the next depth of included entries plus every entry a link or reference names.
  let toLoad = new Set([...frontier, ...linkIds, ...refIds].filter((id) => !known.has(id)));
  const loaded = new Set<string>();
  for (;;) {
    if (toLoad.size > 0) {
      const found = await view.entries([...toLoad]);
      for (const id of toLoad) loaded.add(id);
      for (const [id, s] of found) known.set(id, s);
    }
    const next = new Set<string>();
    const roundNeeds = emptyNeeds();
    for (const id of frontier) {
      const s = known.get(id);
      if (!s || includedSet.has(id) || rootIds.has(id)) continue;
      includedIds.push(id);
      includedSet.add(id);
      if (includedIds.length > MAX_INCLUDED) throw tooManyIncluded();
      collect(s, types, roundNeeds);
    }
    for (const a of roundNeeds.assets) needs.assets.add(a);
    for (const f of roundNeeds.forms) needs.forms.add(f);
    for (const id of includeTargets(roundNeeds, params.include)) if (!includedSet.has(id)) next.add(id);
    const more = [...roundNeeds.links, ...[...roundNeeds.refs.values()].flatMap((s) => [...s])];
    for (const id of more) linkIds.add(id);
    toLoad = new Set([...next, ...more].filter((id) => !known.has(id) && !loaded.has(id)));
    frontier = next;
    if (frontier.size === 0 && toLoad.size === 0) break;
  }

  const assets = await view.assets([...needs.assets]);
  const forms = needs.forms.size > 0 ? await view.forms([...needs.forms], params.chain) : new Map();
  const ctx: RenderContext = {
    chain: params.chain,
    types,
    assets,
    entries: known,
    assetUrl: params.assetUrl,
    forms,
  };
  const links: Record<string, DeliveredLink> = {};
  for (const id of [...linkIds].sort()) {
    const s = known.get(id);
    const path = s?.paths?.[params.locale];
    if (s && path !== undefined) links[id] = { id, type: s.type, name: s.name, path };
  }
  // A delivered form's `status` depends on the time and its submission count, not only on the cv (spec 3.1): a
  // request that delivers a form renders every entry anew.
  const render = renderer(ctx, params, needs.forms.size > 0 ? undefined : params.rendered);
  const included: Included = { entries: [], links };
  for (const id of includedIds) {
    const s = known.get(id);
    if (s) included.entries.push(render(s, undefined));
    if (slicer !== undefined) await slicer.tick();
  }
  deliveredAssets.set(included, new Set(assets.keys()));
  if (forms.size > 0)
    deliveredForms.set(
      included,
      [...forms.values()].map((f: ShownForm) => ({ key: f.key, opensAt: f.opensAt, closesAt: f.closesAt })),
    );
  const entries: DeliveredEntry[] = [];
  for (const r of roots) {
    entries.push(render(r, params.fields));
    if (slicer !== undefined) await slicer.tick();
  }
  return { entries, included };
}

/** renderEntry, through the request's RenderedEntries when it has one. */
function renderer(ctx: RenderContext, params: ResolveParams, rendered: ResolveParams['rendered']) {
  if (rendered === undefined)
    return (s: EntrySnapshot, only: ReadonlySet<string> | undefined) => renderEntry(s, ctx, params, only);
  // `fields` projects roots only (`only` is it or undefined), so its part of the key is made once per request; a key
  // cannot hold a comma or a newline (field keys are identifiers).
  const projected = params.fields === undefined ? '*' : [...params.fields].sort().join(',');
  return (s: EntrySnapshot, only: ReadonlySet<string> | undefined): DeliveredEntry => {
    const key = `${rendered.prefix}${only === undefined ? '*' : projected}\n${s.id}`;
    return rendered.cache.get(key) ?? rendered.cache.set(key, renderEntry(s, ctx, params, only));
  };
}

// The assets a resolve delivered, by the `included` object of its answer: the CDN tags (cache-headers.ts) take them
// from here instead of walking the rendered fields. Not in the answer itself, which is the response body.
const deliveredAssets = new WeakMap<Included, ReadonlySet<string>>();

/**
 * The ids of the assets the entries of a `resolveEntries` answer use (roots and included), found by their
 * `included`; undefined for another object. With `fields` it may name more than the projected fields show.
 */
export const assetsDelivered = (included: Included): ReadonlySet<string> | undefined =>
  deliveredAssets.get(included);

// The forms the entries of an answer show, by its `included` (as `deliveredAssets`): their status moves with the
// clock, which decides how long the answer may be cached (cache-headers.ts).
const deliveredForms = new WeakMap<Included, readonly ShownForm[]>();

/** The forms the entries of a `resolveEntries` answer show (their form fields), found by its `included`. */
export const formsDelivered = (included: Included): readonly ShownForm[] | undefined =>
  deliveredForms.get(included);

const tooManyIncluded = (): FolioError =>
  invalidQuery(
    `include: the referenced entries exceed the limit of ${MAX_INCLUDED.toLocaleString('en')}; ` +
      'name fewer reference fields in include, or ask for fewer entries.',
    'include',
  );

/** What one published version points at, as lists: kept per snapshot object (see `collect`). */
interface EntryNeeds {
  types: TypeMap;
  assets: readonly string[];
  links: readonly string[];
  refs: readonly (readonly [string, readonly string[]])[];
  forms: readonly string[];
}

// A snapshot is an immutable published version, and the entry cache hands the same object to every request at every
// cv it stays published in, so what its fields point at is walked once per object and set of types (rich text
// walked on every list request was a visible share of a warm list's CPU: docs/operations.md, "Figures behind the
// code"). Kept beside the object, gone with it.
const needsOfSnapshot = new WeakMap<EntrySnapshot, EntryNeeds>();

// Most entries point at nothing of some kind: one shared empty list for all of them, one reference instead of an
// array per entry kept (docs/operations.md, "Figures behind the code").
const NONE: readonly never[] = Object.freeze([]);
const listOf = (set: ReadonlySet<string>): readonly string[] => (set.size === 0 ? NONE : [...set]);

function entryNeeds(s: EntrySnapshot, types: TypeMap): EntryNeeds {
  const held = needsOfSnapshot.get(s);
  if (held !== undefined && held.types === types) return held;
  const found = emptyNeeds();
  const type = types.get(s.type);
  if (type) collectNeeds(s.fields, type, types, found);
  const needs: EntryNeeds = {
    types,
    assets: listOf(found.assets),
    links: listOf(found.links),
    refs: found.refs.size === 0 ? NONE : [...found.refs].map(([key, ids]) => [key, [...ids]] as const),
    forms: listOf(found.forms),
  };
  needsOfSnapshot.set(s, needs);
  return needs;
}

function collect(s: EntrySnapshot, types: TypeMap, needs: Needs): void {
  const found = entryNeeds(s, types);
  for (const a of found.assets) needs.assets.add(a);
  for (const l of found.links) needs.links.add(l);
  for (const f of found.forms) needs.forms.add(f);
  for (const [key, ids] of found.refs) {
    let set = needs.refs.get(key);
    if (!set) needs.refs.set(key, (set = new Set()));
    for (const id of ids) set.add(id);
  }
}

function includeTargets(needs: Needs, include: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const [key, ids] of needs.refs) if (include.has(key)) out.push(...ids);
  return out;
}

function renderEntry(
  s: EntrySnapshot,
  ctx: RenderContext,
  params: ResolveParams,
  only: ReadonlySet<string> | undefined,
): DeliveredEntry {
  const type = ctx.types.get(s.type);
  const slug = s.slugs[params.locale] ?? chainSlug(s, params.chain) ?? s.slug;
  return {
    id: s.id,
    type: s.type,
    name: s.name,
    slug,
    path: type?.kind === 'global' ? `@${s.type}` : (s.paths?.[params.locale] ?? null),
    parentId: s.parentId,
    locale: params.locale,
    tags: s.tags,
    position: s.position,
    publishedAt: s.publishedAt,
    firstPublishedAt: s.firstPublishedAt,
    alternates: s.paths,
    content: {
      id: `blk_${s.id.slice(4)}`,
      type: s.type,
      fields: type ? renderFields(s.fields, type, ctx, only) : {},
    },
  };
}

function chainSlug(s: EntrySnapshot, chain: readonly string[]): string | undefined {
  for (const code of chain) if (s.slugs[code] !== undefined) return s.slugs[code];
  return undefined;
}

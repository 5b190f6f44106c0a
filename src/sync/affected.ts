// `/sync`'s `affected`: the entries and globals whose delivered JSON differs between the ends of a span without a
// version of their own, because of what they show of other documents. Found backwards from what changed, through
// the dependency index (entry_deps), never by rendering every page that links something:
//
// - a linked entry shows in `included.links` as `{ id, type, name, path }` per locale: where that facet changed,
//   every page linking it changed in that locale, and so does every answer that includes an entry linking or
//   referencing it;
// - an entry's own rendered fields change with the assets and forms it shows and with the visibility of the
//   entries its reference fields name: such entries are rendered at both ends (the only renders), and an answer
//   that includes one (through `include`'s reference fields, at any depth) changed where it did;
// - an entry with a new version is rendered at both ends only when an answer includes it.
//
// Locales are carried as bit masks (bit i: the space's i-th locale). Bounded: past MAX_AFFECTED entries or
// MAX_RENDERS renders the answer is `truncated` (rebuild everything).

import type { EntrySnapshot } from '../content/model.js';
import { resolveEntries } from '../delivery/resolve.js';
import { type DepKind, depsOf } from './deps.js';
import { type Edge, edgesInto } from './deps-repo.js';
import { linkFacet } from './facets.js';
import type { Side, SpanContext } from './span-context.js';

export interface AffectedItem {
  kind: 'affected';
  id: string;
  type: string;
  locale: string;
  /** The entry's path in the locale; null for entries without one (globals, non-page items). */
  path: string | null;
  /** Whether the entry is a page (found by path); folders and non-page items are read by id. */
  page: boolean;
  /** Globals: the global's key (read with `/globals/<key>`). */
  key?: string;
}

export interface AffectedResult {
  items: AffectedItem[];
  /** The bound was reached: what changed is not all named; rebuild everything. */
  truncated: boolean;
}

/** Entries one span may name as affected; past it the answer is `truncated` (docs/api.md "Sync"). */
export const MAX_AFFECTED = 10_000;
/** Entry renders one span computation may do (each entry at each end, per locale); past it: `truncated`. */
export const MAX_RENDERS = 4_000;
/** Edges read from the index in one computation. */
const MAX_EDGES = 200_000;

class Truncated extends Error {}

const NO_INCLUDE: ReadonlySet<string> = new Set();

/** Field types whose values can differ per locale (localized, or inside a localized block list). */
function localizedTypes(ctx: SpanContext): Set<string> {
  const out = new Set<string>();
  for (const type of ctx.changes.typesAfter.values())
    for (const field of type.fields) if (field.localized === true) out.add(field.type);
  // A localized block list can hold any block's fields in one locale and not another.
  if (out.has('blocks'))
    for (const t of ['reference', 'asset', 'assets', 'form', 'link', 'richtext']) out.add(t);
  return out;
}

/**
 * `formKeys`: the forms whose delivered definition may differ (saved in the span, or using a list that changed;
 * `formChanges` of singletons.ts).
 */
export async function affectedEntries(
  ctx: SpanContext,
  include: ReadonlySet<string>,
  formKeys: readonly string[],
): Promise<AffectedResult> {
  const { range } = ctx.req;
  if (range.from === 0) return { items: [], truncated: false };
  if (ctx.changes.tooMany || ctx.changes.typesChanged) return { items: [], truncated: true };
  try {
    return { items: await compute(ctx, include, formKeys), truncated: false };
  } catch (e) {
    if (e instanceof Truncated) return { items: [], truncated: true };
    throw e;
  }
}

async function compute(
  ctx: SpanContext,
  include: ReadonlySet<string>,
  formKeys: readonly string[],
): Promise<AffectedItem[]> {
  const { range } = ctx.req;
  const changes = ctx.changes.entries;
  const all = ctx.allLocales;
  const localized = localizedTypes(ctx);
  let renders = 0;
  let edgeCount = 0;

  const edges = async (
    targets: Iterable<string>,
    kinds: DepKind[],
    side: Side | 'both',
    fields?: string[],
  ) => {
    const list = [...targets];
    const out: Edge[] = [];
    for (const cv of side === 'both' ? [range.from, range.to] : [side === 'before' ? range.from : range.to]) {
      const found = await edgesInto(
        ctx.req.store,
        ctx.req.spaceId,
        { targets: list, kinds, fields },
        cv,
        MAX_EDGES - edgeCount,
        () => ctx.slicer.tick(),
      );
      edgeCount += found.length;
      if (edgeCount >= MAX_EDGES) throw new Truncated();
      out.push(...found);
      await ctx.slicer.tick();
    }
    return out;
  };

  /** The entry as an answer renders it (its fields, nothing included), per locale at both ends: where it differs. */
  const renderMask = async (id: string, at: Record<Side, EntrySnapshot | undefined>): Promise<number> => {
    let mask = 0;
    for (let i = 0; i < ctx.locales.length; i++) {
      const locale = ctx.locales[i] ?? '';
      const [a, b] = await Promise.all(
        (['before', 'after'] as const).map(async (side) => {
          const s = at[side];
          if (s === undefined) return null;
          if (++renders > MAX_RENDERS) throw new Truncated();
          const r = await resolveEntries(ctx.views[side], [s], {
            locale,
            chain: ctx.chain(locale),
            include: NO_INCLUDE,
            fields: undefined,
            assetUrl: ctx.req.assetUrl,
          });
          return JSON.stringify(r.entries[0] ?? null);
        }),
      );
      if (a !== b) mask |= 1 << i;
      await ctx.slicer.tick();
    }
    return mask;
  };

  // Entries whose own rendered fields changed, by locale: the seeds of everything that includes them.
  const own = new Map<string, number>();
  const addOwn = (id: string, mask: number) => {
    if (mask !== 0) own.set(id, (own.get(id) ?? 0) | mask);
  };
  /** Entries without a version of their own in the span whose fields show something that changed. */
  const unchangedShowing = async (sources: Iterable<string>, fast: number | null) => {
    const ids = [...new Set(sources)].filter((id) => !changes.has(id));
    if (fast !== null) {
      for (const id of ids) addOwn(id, fast);
      return;
    }
    const snapshots = await ctx.entriesAfter(ids);
    for (const [id, s] of snapshots) addOwn(id, await renderMask(id, { before: s, after: s }));
  };

  // Assets whose document changed: the entries showing them, rendered.
  if (ctx.changes.assets.size > 0) {
    const users = await edges(ctx.changes.assets.keys(), ['asset'], 'after');
    await unchangedShowing(
      users.map((e) => e.source),
      null,
    );
  }
  // Forms whose delivered definition changed (saved, or a list they use): per locale, compared once per form.
  const formMasks = await changedForms(ctx, formKeys);
  if (formMasks.size > 0) {
    const users = await edges(formMasks.keys(), ['form'], 'after');
    if (localized.has('form'))
      await unchangedShowing(
        users.map((e) => e.source),
        null,
      );
    else for (const e of users) if (!changes.has(e.source)) addOwn(e.source, formMasks.get(e.target) ?? 0);
  }
  // Entries that appeared or went: a reference field naming one shows it or not (visible entries only).
  const appeared = [...changes.values()].filter((c) => (c.before === undefined) !== (c.after === undefined));
  if (appeared.length > 0) {
    const referrers = await edges(
      appeared.map((c) => c.id),
      ['ref'],
      'after',
    );
    await unchangedShowing(
      referrers.map((e) => e.source),
      localized.has('reference') ? null : all,
    );
  }

  // Link facets: where an entry's `{ type, name, path }` in a locale changed (it moved, was renamed, went).
  const linkChanged = new Map<string, number>();
  for (const c of changes.values()) {
    let mask = 0;
    ctx.locales.forEach((locale, i) => {
      if (linkFacet(c.before, locale) !== linkFacet(c.after, locale)) mask |= 1 << i;
    });
    if (mask !== 0) linkChanged.set(c.id, mask);
  }

  const affected = new Map<string, number>();
  const mark = (id: string, mask: number) => {
    if (mask === 0 || changes.has(id)) return;
    affected.set(id, (affected.get(id) ?? 0) | mask);
    if (affected.size > MAX_AFFECTED) throw new Truncated();
  };
  for (const [id, mask] of own) mark(id, mask);

  // What includes something that changed, at any depth, through `include`'s reference fields.
  const reach = new Map<string, number>();
  let frontier = new Map<string, number>();
  const seed = (id: string, mask: number) => {
    const had = reach.get(id) ?? 0;
    if ((had | mask) === had) return;
    reach.set(id, had | mask);
    frontier.set(id, (frontier.get(id) ?? 0) | mask);
  };

  if (linkChanged.size > 0) {
    const into = await edges(linkChanged.keys(), ['link', 'ref'], 'both');
    for (const e of into) {
      const mask = linkChanged.get(e.target) ?? 0;
      // A root shows the entries it links in `included.links` (its references only by id).
      if (e.kind === 'link') mark(e.source, mask);
      // An included entry shows what it links and what it references there.
      if (include.size > 0) seed(e.source, mask);
    }
  }

  if (include.size > 0) {
    const fields = [...include];
    for (const [id, mask] of own) seed(id, mask);
    // What an answer includes is the same in every locale (references are read in all of them): an entry that
    // appeared or went changes every answer including it through `include`, in every locale.
    if (appeared.length > 0)
      for (const e of await edges(
        appeared.map((c) => c.id),
        ['ref'],
        'both',
        fields,
      )) {
        mark(e.source, all);
        seed(e.source, all);
      }
    // So does a changed entry that now includes or shows other entries than before.
    for (const c of changes.values())
      if (c.before !== undefined && c.after !== undefined && showsOthers(ctx, c.before, c.after, include))
        seed(c.id, all);
    // Changed entries that something includes: their rendering at both ends decides.
    const included = await edges(changes.keys(), ['ref'], 'both', fields);
    for (const id of new Set(included.map((e) => e.target))) {
      const c = changes.get(id);
      if (c !== undefined) seed(id, await renderMask(id, { before: c.before, after: c.after }));
    }
    while (frontier.size > 0) {
      const current = frontier;
      frontier = new Map();
      const up = await edges(current.keys(), ['ref'], 'both', fields);
      for (const e of up) {
        const mask = current.get(e.target) ?? 0;
        mark(e.source, mask);
        seed(e.source, mask);
      }
    }
  }
  return itemsOf(ctx, affected);
}

/** Whether two versions of an entry include (through `include`), link or reference other entries. */
function showsOthers(
  ctx: SpanContext,
  before: EntrySnapshot,
  after: EntrySnapshot,
  include: ReadonlySet<string>,
): boolean {
  const shown = (s: EntrySnapshot, types: typeof ctx.changes.typesAfter) =>
    depsOf(s, types)
      .filter((d) => d.kind === 'link' || d.kind === 'ref')
      .map((d) => `${d.kind === 'ref' && include.has(d.field) ? 'include' : 'show'} ${d.target}`)
      .sort()
      .join('\n');
  return shown(before, ctx.changes.typesBefore) !== shown(after, ctx.changes.typesAfter);
}

/** Forms whose delivered definition differs between the ends, with the locales where it does. */
async function changedForms(ctx: SpanContext, keys: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const key of keys) {
    let mask = 0;
    for (let i = 0; i < ctx.locales.length; i++) {
      const chain = ctx.chain(ctx.locales[i] ?? '');
      const [a, b] = await Promise.all(
        (['before', 'after'] as const).map(async (side) =>
          JSON.stringify((await ctx.views[side].forms([key], chain)).get(key) ?? null),
        ),
      );
      if (a !== b) mask |= 1 << i;
    }
    if (mask !== 0) out.set(key, mask);
    await ctx.slicer.tick();
  }
  return out;
}

async function itemsOf(ctx: SpanContext, affected: ReadonlyMap<string, number>): Promise<AffectedItem[]> {
  const snapshots = await ctx.entriesAfter(affected.keys());
  const types = ctx.changes.typesAfter;
  const out: AffectedItem[] = [];
  for (const id of [...affected.keys()].sort()) {
    const s = snapshots.get(id);
    const mask = affected.get(id) ?? 0;
    if (s === undefined) continue;
    const kind = types.get(s.type)?.kind;
    await ctx.slicer.tick();
    const locales = ctx.locales.filter((_, i) => (mask & (1 << i)) !== 0).sort();
    for (const locale of locales) {
      const path = kind === 'global' ? null : (s.paths?.[locale] ?? null);
      out.push({
        kind: 'affected',
        id,
        type: s.type,
        locale,
        path,
        page: path !== null && kind !== 'folder',
        ...(kind === 'global' ? { key: s.type } : {}),
      });
    }
  }
  return out;
}

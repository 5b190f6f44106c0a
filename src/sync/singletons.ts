// The answers of a space that are one per locale (the sitemap, the tree, each menu, the redirects) and the forms,
// named by `/sync` exactly when their bytes differ between the ends of a span: decided from what changed (the
// entries, menus, redirects, assets and lists of the span), never by reading them whole.

import type { AssetDoc, EntrySnapshot } from '../content/model.js';
import { DEFAULT_DEPTH } from '../delivery/list/tree-service.js';
import type { MenuDoc, MenuItemDoc } from '../menus/menu-model.js';
import { renderMenu } from '../menus/render-menu.js';
import { redirectKey } from '../redirects/redirect-model.js';
import { resolveTarget } from '../redirects/resolve-redirects.js';
import {
  occupiedPathsAt,
  redirectRowsForKeysAt,
  redirectRowsToEntriesAt,
  type RedirectRow,
} from '../redirects/redirects-repo.js';
import { readDocsAt } from '../store/log-repo.js';
import { sitemapFacet, treeFacet } from './facets.js';
import type { Side, SpanContext } from './span-context.js';

const SIDES: readonly Side[] = ['before', 'after'];

/** The locales whose `/sitemap` changed: an entry's item there appeared, went or differs. */
export async function sitemapLocales(ctx: SpanContext): Promise<string[]> {
  if (ctx.req.range.from === 0) return [...ctx.locales];
  const { typesBefore, typesAfter } = ctx.changes;
  const out: string[] = [];
  for (const locale of ctx.locales) {
    for (const c of ctx.changes.entries.values())
      if (
        sitemapFacet(c.before, typesBefore, locale, ctx.chains) !==
        sitemapFacet(c.after, typesAfter, locale, ctx.chains)
      ) {
        out.push(locale);
        break;
      }
    await ctx.slicer.tick();
  }
  return out;
}

/**
 * The locales whose `/tree` (its default depth, from the root) changed: a changed entry's node there appeared,
 * went or differs. A node is in the tree when it and every ancestor have a path in the locale, within the depth.
 */
export async function treeLocales(ctx: SpanContext): Promise<string[]> {
  if (ctx.req.range.from === 0) return [...ctx.locales];
  const changed = [...ctx.changes.entries.values()];
  const ancestors = { before: await ancestorsOf(ctx, 'before'), after: await ancestorsOf(ctx, 'after') };
  const out: string[] = [];
  for (const locale of ctx.locales) {
    const nodeAt = (side: Side, s: EntrySnapshot | undefined): string | null => {
      const types = side === 'before' ? ctx.changes.typesBefore : ctx.changes.typesAfter;
      const facet = treeFacet(s, types, locale);
      if (facet === null || s === undefined) return null;
      let depth = 1;
      for (let parent = s.parentId; parent !== null; depth++) {
        const p = ancestors[side].get(parent);
        if (depth >= DEFAULT_DEPTH || p === undefined || treeFacet(p, types, locale) === null) return null;
        parent = p.parentId;
      }
      return `${depth} ${facet}`;
    };
    if (changed.some((c) => nodeAt('before', c.before) !== nodeAt('after', c.after))) out.push(locale);
    await ctx.slicer.tick();
  }
  return out;
}

/** The ancestors of the changed entries at one end, as deep as the default tree reaches. */
async function ancestorsOf(ctx: SpanContext, side: Side): Promise<Map<string, EntrySnapshot>> {
  const found = new Map<string, EntrySnapshot>();
  let wanted = new Set<string>();
  for (const c of ctx.changes.entries.values()) {
    const parent = c[side]?.parentId;
    if (parent) wanted.add(parent);
  }
  for (let level = 1; level < DEFAULT_DEPTH && wanted.size > 0; level++) {
    const loaded = await ctx.entriesAt(side, wanted);
    const next = new Set<string>();
    for (const [id, s] of loaded) {
      found.set(id, s);
      if (s.parentId !== null && !found.has(s.parentId)) next.add(s.parentId);
    }
    wanted = next;
  }
  return found;
}

// ---- menus ----------------------------------------------------------------------------------------------

export interface MenuChanges {
  /** Menus visible at the end, with the locales whose answer changed. */
  changed: { key: string; locales: string[] }[];
  /** Menus visible at the start only. */
  deleted: string[];
}

function menuLinks(items: readonly MenuItemDoc[], entries: Set<string>, assets: Set<string>): void {
  for (const item of items) {
    if (item.link?.kind === 'entry') entries.add(item.link.entry);
    if (item.link?.kind === 'asset') assets.add(item.link.asset);
    menuLinks(item.children ?? [], entries, assets);
  }
}

/**
 * Each menu that was saved in the span, or links an entry or asset that changed, rendered at both ends in every
 * locale (menus are few and small); those whose answer differs are named per locale.
 */
export async function menuChanges(ctx: SpanContext): Promise<MenuChanges> {
  const { store, spaceId, range } = ctx.req;
  const menus = {
    before: await readDocsAt<MenuDoc>(store, spaceId, 'menu', 'all', range.from),
    after: await readDocsAt<MenuDoc>(store, spaceId, 'menu', 'all', range.to),
  };
  const keys = new Set(ctx.changes.menus.keys());
  const links = { entries: new Set<string>(), assets: new Set<string>() };
  for (const side of SIDES)
    for (const [key, menu] of menus[side]) {
      const entries = new Set<string>();
      const assets = new Set<string>();
      menuLinks(menu.items, entries, assets);
      if (
        [...entries].some((id) => ctx.changes.entries.has(id)) ||
        [...assets].some((id) => ctx.changes.assets.has(id))
      )
        keys.add(key);
      if (keys.has(key)) {
        for (const id of entries) links.entries.add(id);
        for (const id of assets) links.assets.add(id);
      }
    }
  const seen = {
    before: {
      entries: await ctx.entriesAt('before', links.entries),
      assets: await assetsAt(ctx, 'before', links.assets),
    },
    after: {
      entries: await ctx.entriesAt('after', links.entries),
      assets: await assetsAt(ctx, 'after', links.assets),
    },
  };
  const out: MenuChanges = { changed: [], deleted: [] };
  for (const key of [...keys].sort()) {
    const now = menus.after.get(key);
    if (now === undefined) {
      if (menus.before.has(key)) out.deleted.push(key);
      continue;
    }
    const was = menus.before.get(key);
    const locales = ctx.locales.filter((locale) => {
      const render = (side: Side, menu: MenuDoc | undefined) =>
        menu === undefined
          ? null
          : JSON.stringify(
              renderMenu(menu, {
                chain: ctx.chain(locale),
                pagePath: (id) => seen[side].entries.get(id)?.paths?.[locale],
                assetUrl: (id) => {
                  const asset = seen[side].assets.get(id);
                  return asset === undefined ? undefined : ctx.req.assetUrl(asset);
                },
              }),
            );
      return render('before', was) !== render('after', now);
    });
    if (locales.length > 0) out.changed.push({ key, locales });
    await ctx.slicer.tick();
  }
  return out;
}

function assetsAt(ctx: SpanContext, side: Side, ids: ReadonlySet<string>): Promise<Map<string, AssetDoc>> {
  if (side === 'before' && ctx.req.range.from === 0) return Promise.resolve(new Map());
  return ctx.views[side].assets([...ids]);
}

// ---- redirects ------------------------------------------------------------------------------------------

/** A redirect as `/redirects?locale=` delivers it, with what names it. */
export interface DeliveredRedirectItem {
  id: string;
  locale: string;
  path: string;
  to: string | null;
  status: number;
  auto: boolean;
}

export interface RedirectChanges {
  /** Per path and locale, the redirect delivered now where it appeared or differs. */
  changed: DeliveredRedirectItem[];
  /** Per path and locale, the redirect delivered at the start where none is delivered now. */
  deleted: DeliveredRedirectItem[];
}

/**
 * The paths whose redirect may have changed: those of redirects opened or closed in the span, those of redirects
 * to a changed entry (their `to` follows it), and the old and new paths of changed pages (a page on a path hides
 * the redirect from it). Each is resolved at both ends in each locale, as `/redirects` resolves it.
 */
export async function redirectChanges(
  ctx: SpanContext,
  touchedFromKeys: readonly string[],
): Promise<RedirectChanges> {
  const { store, spaceId, range } = ctx.req;
  const keys = new Set(touchedFromKeys);
  for (const c of ctx.changes.entries.values())
    for (const s of [c.before, c.after])
      for (const path of Object.values(s?.paths ?? {})) keys.add(redirectKey(path));
  const changedIds = [...ctx.changes.entries.keys()];
  for (const row of await redirectsToEntries(ctx, changedIds)) keys.add(row.fromKey);
  const out: RedirectChanges = { changed: [], deleted: [] };
  if (keys.size === 0) return out;
  const list = [...keys].sort();
  const state = {
    before: range.from === 0 ? [] : await redirectRowsForKeysAt(store, spaceId, list, range.from),
    after: await redirectRowsForKeysAt(store, spaceId, list, range.to),
  };
  const occupied = {
    before: range.from === 0 ? new Set<string>() : await occupiedPathsAt(store, spaceId, list, range.from),
    after: await occupiedPathsAt(store, spaceId, list, range.to),
  };
  const targets = {
    before: await ctx.entriesAt(
      'before',
      state.before.flatMap((r) => (r.toEntry === null ? [] : [r.toEntry])),
    ),
    after: await ctx.entriesAt(
      'after',
      state.after.flatMap((r) => (r.toEntry === null ? [] : [r.toEntry])),
    ),
  };
  const byKey = (rows: readonly RedirectRow[]) => {
    const map = new Map<string, RedirectRow[]>();
    for (const r of rows) map.set(r.fromKey, [...(map.get(r.fromKey) ?? []), r]);
    return map;
  };
  const rows = { before: byKey(state.before), after: byKey(state.after) };
  const deliveredAt = (side: Side, key: string, locale: string): DeliveredRedirectItem | null => {
    if (occupied[side].has(`${locale} ${key}`)) return null;
    for (const row of rows[side].get(key) ?? []) {
      if (row.locale !== null && row.locale !== locale) continue;
      const resolved = resolveTarget(row, targets[side], locale);
      if (resolved)
        return { id: row.id, locale, path: row.fromPath, ...resolved, auto: row.source === 'auto' };
    }
    return null;
  };
  for (const key of list) {
    for (const locale of ctx.locales) {
      const was = deliveredAt('before', key, locale);
      const now = deliveredAt('after', key, locale);
      if (now !== null && JSON.stringify(was) !== JSON.stringify(now)) out.changed.push(now);
      else if (was !== null && now === null) out.deleted.push(was);
    }
    await ctx.slicer.tick();
  }
  return out;
}

/** Redirects visible at either end whose target is one of these entries. */
async function redirectsToEntries(ctx: SpanContext, ids: readonly string[]): Promise<RedirectRow[]> {
  if (ids.length === 0) return [];
  const { store, spaceId, range } = ctx.req;
  return [
    ...(range.from === 0 ? [] : await redirectRowsToEntriesAt(store, spaceId, ids, range.from)),
    ...(await redirectRowsToEntriesAt(store, spaceId, ids, range.to)),
  ];
}

// ---- forms ----------------------------------------------------------------------------------------------

export interface FormChanges {
  changed: string[];
  deleted: string[];
}

const listsOf = (doc: unknown): string[] => {
  if (typeof doc !== 'object' || doc === null || !('fields' in doc) || !Array.isArray(doc.fields)) return [];
  return doc.fields.flatMap((f: unknown) =>
    typeof f === 'object' && f !== null && 'list' in f && typeof f.list === 'string' ? [f.list] : [],
  );
};

/**
 * Forms saved in the span, and forms whose shared option lists changed (a delivered form carries its lists'
 * options, spec 2.9); deleted forms apart.
 */
export async function formChanges(ctx: SpanContext): Promise<FormChanges> {
  const { store, spaceId, range } = ctx.req;
  const changed = new Set<string>();
  const deleted: string[] = [];
  for (const [key, c] of ctx.changes.forms) {
    if (c.after !== undefined) changed.add(key);
    else if (c.before !== undefined) deleted.push(key);
  }
  if (ctx.changes.lists.size > 0 && range.from > 0) {
    const now = await readDocsAt<unknown>(store, spaceId, 'form', 'all', range.to);
    for (const [key, doc] of now) if (listsOf(doc).some((l) => ctx.changes.lists.has(l))) changed.add(key);
  }
  return { changed: [...changed].sort(), deleted: deleted.sort() };
}

// ---- option lists ---------------------------------------------------------------------------------------

export interface ListChanges {
  /** Lists visible at the end, with the locales whose `/lists/<key>?locale=` answer changed. */
  changed: { key: string; locales: string[] }[];
  deleted: string[];
}

/** An option list as `/lists/<key>?locale=` delivers it (option-lists.ts): labels along the locale chain. */
function listAnswer(doc: unknown, key: string, chain: readonly string[]): string | null {
  if (typeof doc !== 'object' || doc === null) return null;
  const name = 'name' in doc && typeof doc.name === 'string' ? doc.name : key;
  const options = 'options' in doc && Array.isArray(doc.options) ? (doc.options as unknown[]) : [];
  return JSON.stringify([
    name,
    options.map((o) => {
      if (typeof o !== 'object' || o === null || !('value' in o)) return null;
      const label = 'label' in o && typeof o.label === 'object' && o.label !== null ? o.label : {};
      let text: unknown;
      for (const code of chain) {
        const v: unknown = Object.hasOwn(label, code) ? (label as Record<string, unknown>)[code] : undefined;
        if (v !== undefined && v !== null) {
          text = v;
          break;
        }
      }
      return [o.value, text ?? o.value];
    }),
  ]);
}

/** Option lists saved in the span, named in the locales whose delivered labels changed. */
export async function listChanges(ctx: SpanContext): Promise<ListChanges> {
  const out: ListChanges = { changed: [], deleted: [] };
  for (const [key, c] of [...ctx.changes.lists].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (c.after === undefined) {
      if (c.before !== undefined) out.deleted.push(key);
      continue;
    }
    const locales = ctx.locales.filter((locale) => {
      const chain = ctx.chain(locale);
      return (
        (c.before === undefined ? null : listAnswer(c.before, key, chain)) !== listAnswer(c.after, key, chain)
      );
    });
    if (locales.length > 0) out.changed.push({ key, locales });
    await ctx.slicer.tick();
  }
  return out;
}

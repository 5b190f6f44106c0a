import { at, isObject, KEY, type Problems } from '../lib/problems.js';
import { newId } from '../lib/ids.js';
import { isSafeUrl } from '../redirects/redirect-model.js';

/** What a menu item links to (bundle `menus[].items[].link`); null makes the item a heading. */
export type MenuLink =
  | { kind: 'entry'; entry: string }
  | { kind: 'url'; url: string }
  | { kind: 'email'; email: string }
  | { kind: 'asset'; asset: string };

export interface MenuItemDoc {
  id: string;
  /** Localized, keyed by locale; resolved along the locale chain. */
  label: Record<string, string>;
  link: MenuLink | null;
  target: string | null;
  children: MenuItemDoc[];
}

/** A menu as authored: stored in `docs` (kind `menus`) and published as `doc_versions` kind `menu`. */
export interface MenuDoc {
  key: string;
  name: string;
  items: MenuItemDoc[];
}

/** spec 2.5 and 8: up to three levels of nesting. */
export const MAX_MENU_DEPTH = 3;
export const TARGETS = ['_blank', '_self'] as const;

export interface MenuContext {
  locales: ReadonlySet<string>;
  /** true for an entry with a path (a page or folder), false for another entry, undefined for none. */
  isPage(entryId: string): boolean | undefined;
  hasAsset(assetId: string): boolean;
}

const MENU_MEMBERS = new Set(['key', 'name', 'items']);
const ITEM_MEMBERS = new Set(['id', 'label', 'link', 'target', 'children']);
const ITEM_ID = /^mni_[A-Za-z0-9_-]{1,64}$/;
const EMAIL = /^[^\s@<>()[\]\\,;:"]{1,64}@[^\s@<>()[\]\\,;:"]{1,255}\.[^\s@<>()[\]\\,;:"]{1,63}$/u;

/** Checks one authored menu; problems are named by JSON path under `path` (`menus[0].items[2].link`). */
export function checkMenu(input: unknown, path: string, ctx: MenuContext, p: Problems): input is MenuDoc {
  const before = p.list.length;
  if (!isObject(input)) {
    p.add(path, 'must be an object { key, name, items }');
    return false;
  }
  for (const key of Object.keys(input))
    if (!MENU_MEMBERS.has(key)) p.add(at(path, key), 'is not a member of a menu');
  if (typeof input.key !== 'string' || !KEY.test(input.key))
    p.add(at(path, 'key'), 'must be a key (letters, digits, _ -)');
  if (typeof input.name !== 'string' || input.name === '')
    p.add(at(path, 'name'), 'must be a non-empty string');
  const ids = new Set<string>();
  checkItems(input.items, at(path, 'items'), 1, ctx, ids, p);
  return p.list.length === before;
}

function checkItems(
  items: unknown,
  path: string,
  level: number,
  ctx: MenuContext,
  ids: Set<string>,
  p: Problems,
): void {
  if (!Array.isArray(items)) {
    p.add(path, 'must be an array');
    return;
  }
  if (level > MAX_MENU_DEPTH && items.length > 0) {
    p.add(path, `menus nest at most ${MAX_MENU_DEPTH} levels (spec 2.5)`);
    return;
  }
  items.forEach((item, i) => {
    const ip = at(path, i);
    if (!isObject(item)) return p.add(ip, 'must be an object { id, label, link, target, children }');
    for (const key of Object.keys(item))
      if (!ITEM_MEMBERS.has(key)) p.add(at(ip, key), 'is not a member of a menu item');
    if (item.id !== undefined) {
      if (typeof item.id !== 'string' || !ITEM_ID.test(item.id)) p.add(at(ip, 'id'), 'must be an mni_ id');
      else if (ids.has(item.id)) p.add(at(ip, 'id'), `duplicate item id "${item.id}"`);
      else ids.add(item.id);
    }
    checkLabel(item.label, at(ip, 'label'), ctx, p);
    checkLink(item.link, at(ip, 'link'), ctx, p);
    if (
      item.target !== undefined &&
      item.target !== null &&
      !(TARGETS as readonly unknown[]).includes(item.target)
    )
      p.add(at(ip, 'target'), `must be null, ${TARGETS.map((t) => `"${t}"`).join(' or ')}`);
    if (item.children !== undefined) checkItems(item.children, at(ip, 'children'), level + 1, ctx, ids, p);
  });
}

function checkLabel(label: unknown, path: string, ctx: MenuContext, p: Problems): void {
  if (!isObject(label) || Object.keys(label).length === 0) {
    p.add(path, 'must be an object keyed by locale, e.g. { "en": "Blog" }');
    return;
  }
  for (const [locale, text] of Object.entries(label)) {
    if (!ctx.locales.has(locale)) p.add(at(path, locale), `"${locale}" is not a locale of the space`);
    else if (typeof text !== 'string' || text.length > 500)
      p.add(at(path, locale), 'must be a string (≤ 500)');
  }
}

function checkLink(link: unknown, path: string, ctx: MenuContext, p: Problems): void {
  if (link === null || link === undefined) return;
  if (!isObject(link)) return p.add(path, 'must be null (a heading) or { kind, … }');
  const only = (...keys: string[]) => {
    for (const k of Object.keys(link))
      if (k !== 'kind' && !keys.includes(k)) p.add(at(path, k), 'is not a member of this link');
  };
  switch (link.kind) {
    case 'entry': {
      only('entry');
      const page = typeof link.entry === 'string' ? ctx.isPage(link.entry) : undefined;
      if (page === undefined) p.add(at(path, 'entry'), 'must name an entry of the space');
      else if (!page) p.add(at(path, 'entry'), 'must name a page (an entry with a path)');
      return;
    }
    case 'url':
      only('url');
      if (!isSafeUrl(link.url)) p.add(at(path, 'url'), 'must be an http(s) URL or a path starting with "/"');
      return;
    case 'email':
      only('email');
      if (typeof link.email !== 'string' || !EMAIL.test(link.email))
        p.add(at(path, 'email'), 'must be an email address');
      return;
    case 'asset':
      only('asset');
      if (typeof link.asset !== 'string' || !ctx.hasAsset(link.asset))
        p.add(at(path, 'asset'), 'must name an asset of the space');
      return;
    default:
      p.add(at(path, 'kind'), 'must be "entry", "url", "email" or "asset"');
  }
}

/** A checked menu with every item complete: ids assigned (`mni_`), `target` and `children` filled in. */
export function normalizeMenu(menu: MenuDoc): MenuDoc {
  const fill = (items: readonly MenuItemDoc[]): MenuItemDoc[] =>
    items.map((item) => ({
      id: item.id ?? newId('mni'),
      label: item.label,
      link: item.link ?? null,
      target: item.target ?? null,
      children: fill(item.children ?? []),
    }));
  return { key: menu.key, name: menu.name, items: fill(menu.items) };
}

/** Entry ids the menu links to, at any depth. */
export function linkedEntries(menu: MenuDoc): Set<string> {
  const out = new Set<string>();
  const walk = (items: readonly MenuItemDoc[]) => {
    for (const item of items) {
      if (item.link?.kind === 'entry') out.add(item.link.entry);
      walk(item.children ?? []);
    }
  };
  walk(menu.items);
  return out;
}

/**
 * The menu without links to a deleted page (spec 2.5: deleting a page removes it from menus permanently).
 * An item with children keeps them as a heading; an item without children goes.
 */
export function withoutEntry(menu: MenuDoc, entryId: string): MenuDoc {
  const prune = (items: readonly MenuItemDoc[]): MenuItemDoc[] =>
    items.flatMap((item) => {
      const children = prune(item.children ?? []);
      if (item.link?.kind !== 'entry' || item.link.entry !== entryId) return [{ ...item, children }];
      return children.length > 0 ? [{ ...item, link: null, children }] : [];
    });
  return { ...menu, items: prune(menu.items) };
}

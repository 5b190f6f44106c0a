import { type ContentTypeDef, hasPaths } from '../content/model.js';
import { checkMenu, type MenuLink } from '../menus/menu-model.js';
import { checkRedirect, type RedirectDoc, redirectKey } from '../redirects/redirect-model.js';
import { checkWebhook, type WebhookDoc } from '../webhooks/webhook-model.js';
import type { BundleMenu, BundleMenuItem } from './format.js';
import { copyTexts } from './json-value.js';
import { at, isObject, type Problems } from '../lib/problems.js';

/** What menus and redirects in a bundle may refer to. */
export interface DocContext {
  locales: ReadonlySet<string>;
  types: ReadonlyMap<string, ContentTypeDef>;
  entryTypes: ReadonlyMap<string, string>;
  assets: ReadonlySet<string>;
}

/**
 * `menus`, `redirects` and `webhooks` (spec 2.5, 2.6, 6), checked by the checks that guard the management API,
 * each problem named by its JSON path (`menus[0].items[1].children[0].link.entry`), and rebuilt from what they
 * checked: menu items get `target: null` and `children: []` where left out.
 */
export function parseBundleDocs(
  raw: { menus: readonly unknown[]; redirects: readonly unknown[]; webhooks: readonly unknown[] },
  ctx: DocContext,
  p: Problems,
): { menus: BundleMenu[]; redirects: RedirectDoc[]; webhooks: WebhookDoc[] } {
  const kind = (id: string) => {
    const type = ctx.entryTypes.get(id);
    return type === undefined ? undefined : ctx.types.get(type);
  };
  const isPage = (id: string) => (ctx.entryTypes.has(id) ? hasPaths(kind(id)) : undefined);
  const menuKeys = new Set<string>();
  const menus = raw.menus.flatMap((m, i) => {
    const path = at('menus', i);
    const menuCtx = { locales: ctx.locales, isPage, hasAsset: (id: string) => ctx.assets.has(id) };
    if (!checkMenu(m, path, menuCtx, p) || !isObject(m)) return [];
    if (menuKeys.has(m.key)) p.add(at(path, 'key'), `duplicate menu "${m.key}"`);
    menuKeys.add(m.key);
    return [{ key: m.key, name: m.name, items: menuItems(m.items) }];
  });

  const isPageProper = (id: string) =>
    ctx.entryTypes.has(id) ? hasPaths(kind(id)) && kind(id)?.kind !== 'folder' : undefined;
  const froms = new Set<string>();
  const redirects = raw.redirects.flatMap((r, i) => {
    const path = at('redirects', i);
    if (!checkRedirect(r, path, { locales: ctx.locales, isPage: isPageProper }, p) || !isObject(r)) return [];
    const doc = redirect(r);
    if (!doc) {
      p.add(path, 'must be { from, to, status, locale }');
      return [];
    }
    // One redirect per path and locale (spec 2.6).
    const key = `${doc.locale ?? '*'} ${redirectKey(doc.from)}`;
    if (froms.has(key)) p.add(at(path, 'from'), `another redirect already starts from "${doc.from}"`);
    froms.add(key);
    return [doc];
  });

  const webhooks = raw.webhooks.flatMap((w, i) => {
    if (!checkWebhook(w, at('webhooks', i), p) || !isObject(w)) return [];
    if (typeof w.url !== 'string') {
      p.add(at(at('webhooks', i), 'url'), 'must be a URL');
      return [];
    }
    const doc: WebhookDoc = { url: w.url, events: stringsOf(w.events) };
    if (typeof w.secret === 'string') doc.secret = w.secret;
    if (typeof w.enabled === 'boolean') doc.enabled = w.enabled;
    if (typeof w.disabledReason === 'string' || w.disabledReason === null)
      doc.disabledReason = w.disabledReason;
    return [doc];
  });
  return { menus, redirects, webhooks };
}

const stringsOf = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];

/** Items `checkMenu` accepted, copied member by member. */
function menuItems(raw: unknown): BundleMenuItem[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isObject).map((item) => {
    const out: BundleMenuItem = {
      label: isObject(item.label) ? copyTexts(item.label) : {},
      link: menuLink(item.link),
      target: typeof item.target === 'string' ? item.target : null,
      children: menuItems(item.children),
    };
    if (typeof item.id === 'string') out.id = item.id;
    return out;
  });
}

function menuLink(link: unknown): MenuLink | null {
  if (!isObject(link)) return null;
  const { kind } = link;
  if (kind === 'entry' && typeof link.entry === 'string') return { kind, entry: link.entry };
  if (kind === 'url' && typeof link.url === 'string') return { kind, url: link.url };
  if (kind === 'email' && typeof link.email === 'string') return { kind, email: link.email };
  if (kind === 'asset' && typeof link.asset === 'string') return { kind, asset: link.asset };
  return null;
}

function redirect(r: Record<string, unknown>): RedirectDoc | undefined {
  const { from, to, status, locale } = r;
  if (typeof from !== 'string' || typeof status !== 'number') return undefined;
  if (locale !== null && typeof locale !== 'string') return undefined;
  let target: RedirectDoc['to'] = null;
  if (isObject(to) && to.kind === 'entry' && typeof to.entry === 'string')
    target = { kind: 'entry', entry: to.entry };
  else if (isObject(to) && to.kind === 'url' && typeof to.url === 'string')
    target = { kind: 'url', url: to.url };
  else if (to !== null) return undefined;
  return { from, to: target, status, locale, ...(r.auto === true ? { auto: true as const } : {}) };
}

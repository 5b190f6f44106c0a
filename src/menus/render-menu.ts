import { pickLocalized } from '../content/locales.js';
import { MAX_MENU_DEPTH, type MenuDoc, type MenuItemDoc } from './menu-model.js';

/** A menu item as delivered (spec 2.5). */
export interface DeliveredMenuItem {
  id: string;
  label: string;
  /** The page's path in the requested locale, a URL, a `mailto:` link or a file URL; null for a heading. */
  href: string | null;
  target: string | null;
  /** The linked page's entry id; null for other links and headings. */
  entryId: string | null;
  children: DeliveredMenuItem[];
}

export interface DeliveredMenu {
  key: string;
  name: string;
  items: DeliveredMenuItem[];
}

export interface MenuRenderContext {
  chain: readonly string[];
  /** The path of a page visible in this view in the requested locale; undefined when not published. */
  pagePath(entryId: string): string | undefined;
  /** The public file URL of an asset visible in this view; undefined when absent. */
  assetUrl(assetId: string): string | undefined;
}

/**
 * Renders an authored menu for one locale (spec 2.5): items linking to pages that are not published are left
 * out (with their children), headings left without children are left out, labels fall back along the
 * locale chain. Pure: the caller supplies what is visible at the requested cv.
 */
export function renderMenu(menu: MenuDoc, ctx: MenuRenderContext): DeliveredMenu {
  return { key: menu.key, name: menu.name, items: renderItems(menu.items, 1, ctx) };
}

function renderItems(
  items: readonly MenuItemDoc[],
  level: number,
  ctx: MenuRenderContext,
): DeliveredMenuItem[] {
  if (level > MAX_MENU_DEPTH) return [];
  return items.flatMap((item) => {
    const link = item.link ?? null;
    let href: string | null = null;
    let entryId: string | null = null;
    if (link?.kind === 'entry') {
      const path = ctx.pagePath(link.entry);
      if (path === undefined) return [];
      href = path;
      entryId = link.entry;
    } else if (link?.kind === 'url') href = link.url;
    else if (link?.kind === 'email') href = `mailto:${link.email}`;
    else if (link?.kind === 'asset') {
      const url = ctx.assetUrl(link.asset);
      if (url === undefined) return [];
      href = url;
    }
    const children = renderItems(item.children ?? [], level + 1, ctx);
    if (link === null && children.length === 0) return [];
    return [
      {
        id: item.id,
        label: pickLocalized(item.label, ctx.chain) ?? '',
        href,
        target: item.target ?? null,
        entryId,
        children,
      },
    ];
  });
}

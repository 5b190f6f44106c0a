import { assetUrlFor, type DeliveryDeps, type Scope } from '../delivery/delivery-service.js';
import { parseKeys } from '../delivery/params.js';
import { notFound } from '../errors/errors.js';
import { readDocsAt } from '../store/log-repo.js';
import type { MenuDoc, MenuItemDoc } from './menu-model.js';
import { type DeliveredMenu, renderMenu } from './render-menu.js';

/** At most this many keys in `/menus?keys=` (a bound on one request's work). */
export const MAX_MENU_KEYS = 50;

function collect(items: readonly MenuItemDoc[], entries: Set<string>, assets: Set<string>): void {
  for (const item of items) {
    if (item.link?.kind === 'entry') entries.add(item.link.entry);
    if (item.link?.kind === 'asset') assets.add(item.link.asset);
    collect(item.children ?? [], entries, assets);
  }
}

/** Renders menus against what the scope's view shows (published at its cv, or drafts for previews). */
async function render(deps: DeliveryDeps, scope: Scope, menus: readonly MenuDoc[]): Promise<DeliveredMenu[]> {
  const entryIds = new Set<string>();
  const assetIds = new Set<string>();
  for (const m of menus) collect(m.items, entryIds, assetIds);
  const [entries, assets] = await Promise.all([
    scope.view.entries([...entryIds]),
    scope.view.assets([...assetIds]),
  ]);
  const assetUrl = assetUrlFor(deps, scope.space.id);
  const { locale, chain } = scope.params;
  return menus.map((menu) =>
    renderMenu(menu, {
      chain,
      // A folder has paths too (for the tree): a link to one goes to its start page's path.
      pagePath: (id) => entries.get(id)?.paths?.[locale],
      assetUrl: (id) => {
        const a = assets.get(id);
        return a ? assetUrl(a) : undefined;
      },
    }),
  );
}

/** `GET /menus/<key>` (spec 4.2): `{ menu, cv }`; an unknown (or deleted) key is 404. */
export async function menuByKey(deps: DeliveryDeps, scope: Scope, key: string) {
  const docs = await readDocsAt<MenuDoc>(deps.store, scope.space.id, 'menu', [key], scope.view.cv);
  const doc = docs.get(key);
  if (!doc) throw notFound(`Menu "${key}" not found.`);
  const [menu] = await render(deps, scope, [doc]);
  return { menu, cv: scope.view.cv };
}

/** `GET /menus?keys=` (spec 4.2): `{ menus: { <key>: menu }, cv }`; all menus when keys are omitted. */
export async function menusByKeys(deps: DeliveryDeps, scope: Scope, keysParam: string | undefined) {
  let keys: string[] | 'all' = 'all';
  if (keysParam !== undefined) {
    keys = parseKeys(keysParam, 'menu', MAX_MENU_KEYS);
  }
  const docs = await readDocsAt<MenuDoc>(deps.store, scope.space.id, 'menu', keys, scope.view.cv);
  if (keys !== 'all') for (const k of keys) if (!docs.has(k)) throw notFound(`Menu "${k}" not found.`);
  const rendered = await render(deps, scope, [...docs.values()]);
  // fromEntries defines each key (a key is never the prototype's setter).
  const menus: Record<string, DeliveredMenu> = Object.fromEntries(rendered.map((m) => [m.key, m]));
  return { menus, cv: scope.view.cv };
}

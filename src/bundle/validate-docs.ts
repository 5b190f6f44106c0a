import { type ContentTypeDef, hasPaths } from '../content/model.js';
import { checkMenu } from '../menus/menu-model.js';
import { checkRedirectList } from '../redirects/redirect-model.js';
import { checkWebhook } from '../webhooks/webhook-model.js';
import type { Bundle } from './format.js';
import { at, type Problems } from './problems.js';

/** What menus and redirects in a bundle may refer to. */
export interface DocContext {
  locales: ReadonlySet<string>;
  types: ReadonlyMap<string, ContentTypeDef>;
  entryTypes: ReadonlyMap<string, string>;
  assets: ReadonlySet<string>;
}

/**
 * Checks `menus`, `redirects` and `webhooks` (spec 2.5, 2.6, 6), each problem named by its JSON path
 * (`menus[0].items[1].children[0].link.entry`). The same checks guard the management API.
 */
export function checkBundleDocs(bundle: Bundle, ctx: DocContext, p: Problems): void {
  const kind = (id: string) => {
    const type = ctx.entryTypes.get(id);
    return type === undefined ? undefined : ctx.types.get(type);
  };
  const isPage = (id: string) => (ctx.entryTypes.has(id) ? hasPaths(kind(id)) : undefined);
  const menuKeys = new Set<string>();
  bundle.menus.forEach((m, i) => {
    const path = at('menus', i);
    if (!checkMenu(m, path, { locales: ctx.locales, isPage, hasAsset: (id) => ctx.assets.has(id) }, p))
      return;
    if (menuKeys.has(m.key)) p.add(at(path, 'key'), `duplicate menu "${m.key}"`);
    menuKeys.add(m.key);
  });
  const isPageProper = (id: string) =>
    ctx.entryTypes.has(id) ? hasPaths(kind(id)) && kind(id)?.kind !== 'folder' : undefined;
  checkRedirectList(bundle.redirects, 'redirects', { locales: ctx.locales, isPage: isPageProper }, p);
  bundle.webhooks.forEach((w, i) => checkWebhook(w, at('webhooks', i), p));
}

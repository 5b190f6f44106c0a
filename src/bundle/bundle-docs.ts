import type { Transaction } from 'kysely';
import { newId } from '../lib/ids.js';
import type { MenuDoc, MenuItemDoc } from '../menus/menu-model.js';
import { docToRow, rowToDoc } from '../redirects/redirect-model.js';
import { listOpenRedirects, newRedirectId, putRedirects } from '../redirects/redirects-repo.js';
import { putDocVersion } from '../store/log-repo.js';
import type { Store } from '../store/open-store.js';
import type { Database } from '../store/schema.js';
import { generateSecret } from '../webhooks/signing.js';
import { webhookToDoc } from '../webhooks/webhook-model.js';
import { insertWebhooks, listWebhooks } from '../webhooks/webhooks-repo.js';
import type { Bundle, BundleMenu, BundleMenuItem } from './format.js';

/** Menu items without an id get one on import, so every delivered item has a stable `mni_` id (spec 2.5). */
export function normalizeMenus(menus: readonly BundleMenu[]): MenuDoc[] {
  const fill = (items: readonly BundleMenuItem[]): MenuItemDoc[] =>
    items.map((item) => ({
      id: item.id ?? newId('mni'),
      label: item.label,
      link: item.link,
      target: item.target,
      children: fill(item.children),
    }));
  return menus.map((m) => ({ key: m.key, name: m.name, items: fill(m.items) }));
}

/**
 * Writes the published side of menus, redirects and webhooks in the import's transaction at its cv:
 * menus as `doc_versions` (kind `menu`), redirects as rows of the versioned `redirects` table (kept in bundle
 * order), webhook endpoints (a secret generated where the bundle has none).
 */
export async function importBundleDocs(
  tx: Transaction<Database>,
  spaceId: string,
  cv: number,
  bundle: { menus: readonly MenuDoc[] } & Pick<Bundle, 'redirects' | 'webhooks'>,
  now: string,
): Promise<void> {
  for (const menu of bundle.menus) await putDocVersion(tx, spaceId, cv, 'menu', menu.key, menu);
  await putRedirects(
    tx,
    spaceId,
    cv,
    bundle.redirects.map((r, i) => docToRow(r, newRedirectId(), i, now)),
  );
  await insertWebhooks(
    tx,
    bundle.webhooks.map((w, i) => ({
      id: newId('whk'),
      spaceId,
      url: w.url,
      events: w.events,
      secret: w.secret ?? generateSecret(),
      enabled: w.enabled ?? true,
      disabledReason: w.enabled === false ? (w.disabledReason ?? null) : null,
      position: i,
      createdAt: now,
      updatedAt: now,
    })),
  );
}

/** The bundle shapes of a space's current redirects and webhook endpoints. */
export async function exportBundleDocs(
  store: Store,
  spaceId: string,
): Promise<Pick<Bundle, 'redirects' | 'webhooks'>> {
  return {
    redirects: (await listOpenRedirects(store.db, spaceId)).map(rowToDoc),
    webhooks: (await listWebhooks(store, spaceId)).map(webhookToDoc),
  };
}

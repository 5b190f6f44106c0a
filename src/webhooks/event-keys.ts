// The CDN tags an event invalidates: what a receiver purges by `Surrogate-Key` or `Cache-Tag` after a
// change. Computed when the event fans out, from the published log (which never changes for a past cv), so every
// delivery attempt of one event carries the same keys.

import type { Crop } from '../lib/crop.js';
import type { AssetDoc, TypeMap } from '../content/model.js';
import { cdnTag } from '../delivery/cache-headers.js';
import type { EventPayload } from '../jobs/outbox-repo.js';
import type { Store } from '../store/open-store.js';
import { getSpace } from '../store/spaces-repo.js';
import type { AffectedItem } from '../sync/affected.js';
import { derivedOf, spanAffected, spanDiff } from '../sync/span.js';
import { type ChangedItem, type DeletedItem, syncPage, type SyncPosition } from '../sync/sync-service.js';

/** Tags of one changed, deleted or affected document (docs/api.md "CDN tags"). */
export function tagsOfChange(space: string, item: ChangedItem | DeletedItem | AffectedItem): string[] {
  const id = item.id ?? '';
  const key = item.key ?? '';
  switch (item.kind) {
    case 'affected': {
      // By its type too: a list answer whose tags were folded to its entries' types (cache-headers.ts).
      const own = [cdnTag.of(space, 'entry', id), cdnTag.of(space, 'type', item.type)];
      return item.key === undefined ? own : [...own, cdnTag.of(space, 'global', item.key)];
    }
    case 'sitemap':
    case 'tree':
      return [cdnTag.of(space, item.kind, item.locale ?? '')];
    case 'entry': {
      const type = item.type === undefined ? [] : [cdnTag.of(space, 'type', item.type)];
      return [cdnTag.of(space, 'entry', id), cdnTag.of(space, 'entries'), ...type];
    }
    case 'global':
      return [
        cdnTag.of(space, 'global', key),
        cdnTag.of(space, 'globals'),
        cdnTag.of(space, 'entry', id),
        cdnTag.of(space, 'type', key),
      ];
    case 'menu':
      return [cdnTag.of(space, 'menu', key), cdnTag.of(space, 'menus')];
    case 'redirect':
      return [cdnTag.of(space, 'redirects')];
    case 'asset':
      return [cdnTag.of(space, 'asset', id), cdnTag.of(space, 'assets')];
    case 'form':
      return [cdnTag.of(space, 'form', key)];
    case 'list':
      return [cdnTag.of(space, 'list', key)];
  }
}

const comparableAssetUrl = (asset: AssetDoc, crop?: Crop | null): string =>
  JSON.stringify([asset.id, asset.filename, crop ?? null]);

/** The keys of every reference field of a space's types (blocks included). */
function referenceFields(types: TypeMap): Set<string> {
  const out = new Set<string>();
  for (const t of types.values()) for (const f of t.fields) if (f.type === 'reference') out.add(f.key);
  return out;
}

/** Documents per read of the difference. */
const PAGE = 1000;

/** Every tag the publish at `cv` changed: the difference between `cv - 1` and `cv`. */
export async function publishedKeys(store: Store, spaceId: string, cv: number): Promise<string[]> {
  const space = await getSpace(store, spaceId);
  // History pruned (or the space gone): purge the whole space.
  if (!space || cv - 1 < space.minCv || cv > space.cv) return [cdnTag.space(spaceId)];
  const range = { from: cv - 1, to: cv };
  // Rendered URLs only need to compare equal at both ends, so the asset's own id, name and crop stand for them.
  const span = { store, spaceId, settings: space.settings, range, assetUrl: comparableAssetUrl };
  const diff = await spanDiff(span);
  // Pages cached with any `include`: the reference fields of every type (a superset of what any answer includes).
  const affected = await spanAffected(span, referenceFields(diff.ctx.changes.typesAfter));
  if (diff.truncated || affected.truncated) return [cdnTag.space(spaceId)];
  const derived = derivedOf(diff, affected);
  // Every publish ends the current difference: current `/sync` answers go.
  const tags = new Set<string>([cdnTag.of(spaceId, 'sync')]);
  let from: SyncPosition | null = { source: 0, key: null };
  while (from !== null) {
    const page = await syncPage({
      store,
      spaceId,
      range,
      locales: space.settings.locales.map((l) => l.code),
      full: null,
      derived,
      from,
      limit: PAGE,
    });
    for (const item of [...page.changed, ...page.deleted, ...page.affected])
      for (const t of tagsOfChange(spaceId, item)) tags.add(t);
    from = page.next;
  }
  return [...tags].sort();
}

/** The event with `data.keys`, the tags its change invalidates; unchanged when it has them already. */
export async function withEventKeys(store: Store, event: EventPayload): Promise<EventPayload> {
  if (Array.isArray(event.data.keys)) return event;
  const s = event.spaceId;
  const key = (name: string) => (typeof event.data[name] === 'string' ? String(event.data[name]) : null);
  let keys: string[];
  switch (event.type) {
    case 'content.published':
      keys = await publishedKeys(store, s, Number(event.data.cv));
      break;
    case 'menu.updated': {
      const menu = key('key');
      keys = menu === null ? [cdnTag.of(s, 'menus')] : [cdnTag.of(s, 'menu', menu), cdnTag.of(s, 'menus')];
      break;
    }
    case 'redirect.updated':
      keys = [cdnTag.of(s, 'redirects')];
      break;
    case 'token.revoked': {
      // What the token read, pinned answers included (they carry its tag and no other a publish sends).
      const token = key('tokenId');
      keys = token === null ? [] : [cdnTag.of(s, 'token', token)];
      break;
    }
    case 'form.submitted': {
      // A submission can fill a form (spec 2.11): its delivered status may change.
      const form = key('form');
      keys = form === null ? [] : [cdnTag.of(s, 'form', form)];
      break;
    }
    default:
      return event;
  }
  return { ...event, data: { ...event.data, keys } };
}

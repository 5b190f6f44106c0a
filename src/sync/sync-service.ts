// `GET /sync`: what changed in a space's published content between two cache versions, as a keyset-
// paged walk over the published log's tables in a fixed order. No Fastify here: routes.ts parses and answers.

import type { EntrySnapshot } from '../content/model.js';
import type { ContentView } from '../delivery/content-view.js';
import type { DeliveredEntry, Included, ResolveParams } from '../delivery/resolve.js';
import { resolveEntries } from '../delivery/resolve.js';
import type { Store } from '../store/open-store.js';
import { TimeSlicer } from '../lib/time-slice.js';
import type { AffectedItem } from './affected.js';
import { type CvRange, type LogSource, touchedKeys, type VersionAt, versionsAt } from './sync-repo.js';

/**
 * What a change names: an entry or global (per locale), an asset, a form, an option list, a menu (per locale), a
 * redirect (per path and locale), the sitemap or the tree (per locale).
 */
export type SyncKind =
  'entry' | 'global' | 'asset' | 'form' | 'list' | 'menu' | 'redirect' | 'sitemap' | 'tree';

export interface ChangedItem {
  kind: SyncKind;
  id?: string;
  key?: string;
  /** Entries, globals, menus, the sitemap and the tree: one item per locale; redirects: the `/redirects` locale. */
  locale?: string | null;
  /** Entries: the path in `locale` (null: not a page); redirects: the path they redirect from. */
  path?: string | null;
  /** Redirects: where the path redirects in `locale` (a path or URL; null: gone, 410), its status, and whether it
   * was made automatically when a page moved (spec 2.6 rule 1). */
  to?: string | null;
  status?: number;
  auto?: boolean;
  /** Entries: false for folders (their path is their children's prefix, not a page: 404 by path). */
  page?: boolean;
  /** Entries and globals: their type. */
  type?: string;
  /** With `full=1`: the entry in the `/entries` item shape. */
  entry?: DeliveredEntry;
}

export interface DeletedItem {
  kind: SyncKind;
  id?: string;
  key?: string;
  /** Entries: their type (lists of it lose them). */
  type?: string;
  /** Entries: their last path per locale (the pages to remove); null when they were no page. */
  paths?: Record<string, string> | null;
  /** Redirects: the `/redirects` locale and the path that no longer redirects there. */
  locale?: string;
  path?: string;
}

/** The log's tables walked page by page (entries, assets, option lists). */
type LogWalk = { walk: 'log'; source: LogSource; kind: 'entries' | 'asset' };
/** What the span's computation found (src/sync/span.ts), walked by group key. */
type DerivedWalk = {
  walk: 'derived';
  kind: 'form' | 'list' | 'menu' | 'redirect' | 'sitemap' | 'tree' | 'affected';
};

/** What a page walks, in this order; a cursor names a position in it. */
const SOURCES: readonly (LogWalk | DerivedWalk)[] = [
  { walk: 'log', source: { table: 'entry_versions', key: 'entry_id' }, kind: 'entries' },
  { walk: 'log', source: { table: 'doc_versions', key: 'key', docKind: 'asset' }, kind: 'asset' },
  { walk: 'derived', kind: 'form' },
  { walk: 'derived', kind: 'list' },
  { walk: 'derived', kind: 'menu' },
  { walk: 'derived', kind: 'redirect' },
  { walk: 'derived', kind: 'sitemap' },
  { walk: 'derived', kind: 'tree' },
  { walk: 'derived', kind: 'affected' },
];

/** Where a page starts: a source's index and the last key read in it (null: from its start). */
export interface SyncPosition {
  source: number;
  key: string | null;
}

/** One document of a derived source: what it adds to `changed`, `deleted` and `affected`, by its key. */
export interface DerivedGroup {
  key: string;
  changed: ChangedItem[];
  deleted: DeletedItem[];
  affected: AffectedItem[];
}

/** The derived sources of one span, each a list of groups sorted by key. */
export type Derived = Record<DerivedWalk['kind'], readonly DerivedGroup[]>;

export interface SyncPageRequest {
  store: Store;
  spaceId: string;
  range: CvRange;
  /** The locales items are given in (entries, globals, menus, redirects, sitemap, tree, affected). */
  locales: readonly string[];
  /** `full=1`: render entries at `range.to` in one locale (`locales` holds just it). */
  full: { view: ContentView; resolve: ResolveParams } | null;
  derived: Derived;
  from: SyncPosition;
  /** Documents per page (an entry counts once, whatever its locales). */
  limit: number;
}

export interface SyncPage {
  changed: ChangedItem[];
  deleted: DeletedItem[];
  affected: AffectedItem[];
  included: Included | null;
  next: SyncPosition | null;
}

const isSource = (i: number): boolean => Number.isInteger(i) && i >= 0 && i < SOURCES.length;
export const validPosition = (p: SyncPosition): boolean => isSource(p.source);

function snapshotOf(store: Store, v: VersionAt): EntrySnapshot {
  return store.dialect.parseJson<EntrySnapshot>(v.row.doc);
}

/** The items of one changed document of the log. */
function changedItems(req: SyncPageRequest, kind: LogWalk['kind'], now: VersionAt): ChangedItem[] {
  if (kind === 'entries') {
    const snapshot = snapshotOf(req.store, now);
    const type = String(now.row.type);
    if (now.row.type_kind === 'global')
      return req.locales.map((locale) => ({ kind: 'global', key: type, id: snapshot.id, locale }));
    return req.locales.map((locale) => ({
      kind: 'entry',
      id: snapshot.id,
      type,
      locale,
      path: snapshot.paths?.[locale] ?? null,
      page: now.row.type_kind !== 'folder' && snapshot.paths !== null,
    }));
  }
  return [{ kind, id: now.key }];
}

function deletedItem(store: Store, kind: LogWalk['kind'], before: VersionAt): DeletedItem {
  if (kind === 'entries')
    return before.row.type_kind === 'global'
      ? { kind: 'global', key: String(before.row.type), id: before.key }
      : {
          kind: 'entry',
          id: before.key,
          type: String(before.row.type),
          paths: before.row.type_kind === 'folder' ? null : (snapshotOf(store, before).paths ?? null),
        };
  return { kind, id: before.key };
}

/** Keys per read of the log: a bound on one statement (SQLite runs it without yielding). */
const LOG_BATCH = 100;

/**
 * One page: up to `limit` documents, walked source by source. Log sources compare each touched document's
 * versions at both ends: visible at the end and not (or differently) at the start: changed; visible at the start
 * only: deleted; a republish that changed nothing, or a document created and deleted inside the range, is
 * neither. Derived sources hand out the span's groups in key order, only those with items in the page's locales.
 */
export async function syncPage(req: SyncPageRequest): Promise<SyncPage> {
  const { store, spaceId, range } = req;
  const slicer = new TimeSlicer();
  const out: SyncPage = { changed: [], deleted: [], affected: [], included: null, next: null };
  const entries: { item: ChangedItem[]; snapshot: EntrySnapshot }[] = [];
  const wanted = new Set(req.locales);
  let budget = req.limit;
  let position: SyncPosition | null = req.from;
  while (position !== null && budget > 0) {
    const current: (LogWalk | DerivedWalk) | undefined = SOURCES[position.source];
    if (current === undefined) break;
    let last: string | null = null;
    let more = false;
    if (current.walk === 'log') {
      const keys = await touchedKeys(
        store,
        spaceId,
        current.source,
        range,
        position.key,
        Math.min(budget, LOG_BATCH) + 1,
      );
      const page = keys.slice(0, Math.min(budget, LOG_BATCH));
      const [before, after] = await Promise.all([
        versionsAt(store, spaceId, current.source, page, range.from),
        versionsAt(store, spaceId, current.source, page, range.to),
      ]);
      for (const key of page) {
        const was = before.get(key);
        const now = after.get(key);
        if (now !== undefined && (was === undefined || was.content !== now.content)) {
          const items = changedItems(req, current.kind, now);
          out.changed.push(...items);
          if (current.kind === 'entries' && req.full)
            entries.push({ item: items, snapshot: snapshotOf(store, now) });
        } else if (was !== undefined && now === undefined)
          out.deleted.push(deletedItem(store, current.kind, was));
      }
      budget -= page.length;
      last = page.at(-1) ?? null;
      more = keys.length > page.length;
    } else {
      const groups: readonly DerivedGroup[] = req.derived[current.kind];
      let i: number = position.key === null ? 0 : firstAfter(groups, position.key);
      for (; i < groups.length && budget > 0; i++) {
        const g: DerivedGroup | undefined = groups[i];
        if (g === undefined) break;
        const changed = inLocales(g.changed, wanted);
        const deleted = inLocales(g.deleted, wanted);
        const affected = inLocales(g.affected, wanted);
        last = g.key;
        if (changed.length + deleted.length + affected.length === 0) continue;
        out.changed.push(...changed);
        out.deleted.push(...deleted);
        out.affected.push(...affected);
        budget--;
      }
      more = i < groups.length;
    }
    if (more && last !== null) position = { source: position.source, key: last };
    else position = isSource(position.source + 1) ? { source: position.source + 1, key: null } : null;
    await slicer.tick();
  }
  if (req.full) {
    const rendered = await resolveEntries(
      req.full.view,
      entries.map((e) => e.snapshot),
      req.full.resolve,
    );
    const byId = new Map(rendered.entries.map((e) => [e.id, e]));
    for (const e of entries) {
      const entry = byId.get(e.snapshot.id);
      for (const item of e.item) if (entry) item.entry = entry;
    }
    out.included = rendered.included;
  }
  out.next = position;
  return out;
}

/** Items of the page's locales (items without a locale, such as a deleted menu, are of every locale). */
function inLocales<T extends { locale?: string | null | undefined }>(
  items: readonly T[],
  wanted: ReadonlySet<string>,
) {
  return items.filter((item) => typeof item.locale !== 'string' || wanted.has(item.locale));
}

/** The index of the first group whose key sorts after `key`. */
function firstAfter(groups: readonly DerivedGroup[], key: string): number {
  let lo = 0;
  let hi = groups.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((groups[mid]?.key ?? '') <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

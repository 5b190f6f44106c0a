// `GET /sync` (issue 16): what changed in a space's published content between two cache versions, as a keyset-
// paged walk over the published log's tables in a fixed order. No Fastify here: routes.ts parses and answers.

import type { EntrySnapshot } from '../content/model.js';
import type { ContentView } from '../delivery/content-view.js';
import type { DeliveredEntry, Included, ResolveParams } from '../delivery/resolve.js';
import { resolveEntries } from '../delivery/resolve.js';
import type { Store } from '../store/open-store.js';
import {
  type CvRange,
  entryPathsAt,
  type LogSource,
  movedEntryIds,
  touchedKeys,
  type VersionAt,
  versionsAt,
} from './sync-repo.js';

/** Menus are read whole, in one page: a space has a handful, and whether one changed needs all of them. */
const MAX_MENUS = 10_000;

/** What a change names: an entry or global (per locale), an asset, a form, an option list, a menu, a redirect. */
export type SyncKind = 'entry' | 'global' | 'asset' | 'form' | 'list' | 'menu' | 'redirect';

export interface ChangedItem {
  kind: SyncKind;
  id?: string;
  key?: string;
  /** Entries and globals: one item per locale; redirects: their locale (null: every locale). */
  locale?: string | null;
  /** Entries: the path in `locale` (null: not a page); redirects: the path they redirect from. */
  path?: string | null;
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
}

/** The tables walked, in this order; a cursor names a position in it. */
const SOURCES: readonly { source: LogSource; kind: SyncKind | 'entries' }[] = [
  { source: { table: 'entry_versions', key: 'entry_id' }, kind: 'entries' },
  { source: { table: 'doc_versions', key: 'key', docKind: 'asset' }, kind: 'asset' },
  { source: { table: 'doc_versions', key: 'key', docKind: 'form' }, kind: 'form' },
  { source: { table: 'doc_versions', key: 'key', docKind: 'list' }, kind: 'list' },
  { source: { table: 'doc_versions', key: 'key', docKind: 'menu' }, kind: 'menu' },
  { source: { table: 'redirects', key: 'id' }, kind: 'redirect' },
];

/** Where a page starts: a source's index and the last key read in it (null: from its start). */
export interface SyncPosition {
  source: number;
  key: string | null;
}

export interface SyncPageRequest {
  store: Store;
  spaceId: string;
  range: CvRange;
  /** The locales entry items are given in. */
  locales: readonly string[];
  /** `full=1`: render entries at `range.to` in one locale (`locales` holds just it). */
  full: { view: ContentView; resolve: ResolveParams } | null;
  from: SyncPosition;
  /** Documents per page (an entry counts once, whatever its locales). */
  limit: number;
}

export interface SyncPage {
  changed: ChangedItem[];
  deleted: DeletedItem[];
  included: Included | null;
  next: SyncPosition | null;
}

const isSource = (i: number): boolean => Number.isInteger(i) && i >= 0 && i < SOURCES.length;
export const validPosition = (p: SyncPosition): boolean => isSource(p.source);

function snapshotOf(store: Store, v: VersionAt): EntrySnapshot {
  return store.dialect.parseJson<EntrySnapshot>(v.row.doc);
}

/** The items of one changed document. */
function changedItems(req: SyncPageRequest, kind: SyncKind | 'entries', now: VersionAt): ChangedItem[] {
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
  if (kind === 'redirect')
    return [
      {
        kind,
        id: now.key,
        locale: typeof now.row.locale === 'string' ? now.row.locale : null,
        path: String(now.row.from_path),
      },
    ];
  if (kind === 'asset') return [{ kind, id: now.key }];
  return [{ kind, key: now.key }];
}

function deletedItem(store: Store, kind: SyncKind | 'entries', before: VersionAt): DeletedItem {
  if (kind === 'entries')
    return before.row.type_kind === 'global'
      ? { kind: 'global', key: String(before.row.type), id: before.key }
      : {
          kind: 'entry',
          id: before.key,
          type: String(before.row.type),
          paths: before.row.type_kind === 'folder' ? null : (snapshotOf(store, before).paths ?? null),
        };
  return kind === 'redirect' || kind === 'asset' ? { kind, id: before.key } : { kind, key: before.key };
}

/** Entry ids a document links to, whose paths it delivers: a menu's entry links, a redirect's target. */
function linkedEntries(store: Store, kind: SyncKind | 'entries', v: VersionAt): string[] {
  if (kind === 'redirect') return typeof v.row.to_entry === 'string' ? [v.row.to_entry] : [];
  if (kind !== 'menu') return [];
  const ids: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (typeof node === 'object' && node !== null) {
      const o = node as Record<string, unknown>;
      if (o.kind === 'entry' && typeof o.entry === 'string') ids.push(o.entry);
      Object.values(o).forEach(walk);
    }
  };
  walk(store.dialect.parseJson<unknown>(v.row.doc));
  return ids;
}

/**
 * Menus and redirects deliver the current paths of the entries they link to (spec 2.5, 2.6 rule 2): their content
 * at a cv includes those paths, so a move of the target is a change of the menu or redirect.
 */
async function withLinkedPaths(
  store: Store,
  spaceId: string,
  kind: SyncKind | 'entries',
  versions: Map<string, VersionAt>,
  cv: number,
): Promise<void> {
  if (kind !== 'menu' && kind !== 'redirect') return;
  const links = new Map([...versions.values()].map((v) => [v.key, linkedEntries(store, kind, v)]));
  const ids = [...new Set([...links.values()].flat())];
  if (ids.length === 0) return;
  const paths = await entryPathsAt(store, spaceId, ids, cv);
  for (const v of versions.values())
    v.content += `|${JSON.stringify((links.get(v.key) ?? []).map((id) => paths.get(id) ?? null))}`;
}

/** The menus to compare: those with a version opened or closed in the range, and those linking to an entry that did. */
async function menuKeys(store: Store, spaceId: string, source: LogSource, range: CvRange): Promise<string[]> {
  const keys = new Set(await touchedKeys(store, spaceId, source, range, null, MAX_MENUS));
  if (range.from > 0) {
    const moved = await movedEntryIds(store, spaceId, range);
    if (moved.size > 0) {
      const visible = await touchedKeys(store, spaceId, source, { from: 0, to: range.to }, null, MAX_MENUS);
      const now = await versionsAt(store, spaceId, source, visible, range.to);
      for (const v of now.values())
        if (linkedEntries(store, 'menu', v).some((id) => moved.has(id))) keys.add(v.key);
    }
  }
  return [...keys].sort();
}

/**
 * One page: up to `limit` documents that opened or closed a version in the range, classified by comparing their
 * versions at both ends. Visible at the end and not (or differently) at the start: changed. Visible at the start
 * only: deleted. A republish that changed nothing, or a document created and deleted inside the range, is neither.
 */
export async function syncPage(req: SyncPageRequest): Promise<SyncPage> {
  const { store, spaceId, range } = req;
  const changed: ChangedItem[] = [];
  const deleted: DeletedItem[] = [];
  const entries: { item: ChangedItem[]; snapshot: EntrySnapshot }[] = [];
  let budget = req.limit;
  let position: SyncPosition | null = req.from;
  while (position !== null && budget > 0) {
    const current: (typeof SOURCES)[number] | undefined = SOURCES[position.source];
    if (current === undefined) break;
    const { source, kind } = current;
    const whole: boolean = kind === 'menu';
    const keys = whole
      ? await menuKeys(store, spaceId, source, range)
      : await touchedKeys(store, spaceId, source, range, position.key, budget + 1);
    const page: string[] = whole ? keys : keys.slice(0, budget);
    const [before, after] = await Promise.all([
      versionsAt(store, spaceId, source, page, range.from),
      versionsAt(store, spaceId, source, page, range.to),
    ]);
    await Promise.all([
      withLinkedPaths(store, spaceId, kind, before, range.from),
      withLinkedPaths(store, spaceId, kind, after, range.to),
    ]);
    for (const key of page) {
      const was = before.get(key);
      const now = after.get(key);
      if (now !== undefined && (was === undefined || was.content !== now.content)) {
        const items = changedItems(req, kind, now);
        changed.push(...items);
        if (kind === 'entries' && req.full) entries.push({ item: items, snapshot: snapshotOf(store, now) });
      } else if (was !== undefined && now === undefined) deleted.push(deletedItem(req.store, kind, was));
    }
    budget -= page.length;
    const last: string | undefined = page.at(-1);
    if (!whole && keys.length > page.length && last !== undefined)
      position = { source: position.source, key: last };
    else position = isSource(position.source + 1) ? { source: position.source + 1, key: null } : null;
  }
  let included: Included | null = null;
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
    included = rendered.included;
  }
  return { changed, deleted, included, next: position };
}

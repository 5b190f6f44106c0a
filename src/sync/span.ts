// The difference a `/sync` answer describes, computed once per span and kept: every page of it, with any `limit`,
// `locale` or cursor, is served from the same result (a span of the published log never changes). What depends on
// `include` (the affected entries) is kept per `include` beside it. Concurrent requests for one span share one
// computation.

import { LRUCache } from 'lru-cache';
import type { Store } from '../store/open-store.js';
import { type AffectedResult, affectedEntries } from './affected.js';
import { loadSpanChanges } from './span-changes.js';
import { SpanContext, type SpanRequest } from './span-context.js';
import {
  type FormChanges,
  formChanges,
  type ListChanges,
  listChanges,
  type MenuChanges,
  menuChanges,
  type RedirectChanges,
  redirectChanges,
  sitemapLocales,
  treeLocales,
} from './singletons.js';
import { touchedRedirectKeys } from './sync-repo.js';
import type { Derived, DerivedGroup } from './sync-service.js';
import { redirectKey } from '../redirects/redirect-model.js';
import { TimeSlicer } from '../lib/time-slice.js';

/** Redirect paths one span computation compares at most. */
const MAX_REDIRECT_KEYS = 100_000;

export interface SpanDiff {
  ctx: SpanContext;
  /** What changed is more than one computation takes, or the content model changed: rebuild everything. */
  truncated: boolean;
  forms: FormChanges;
  lists: ListChanges;
  menus: MenuChanges;
  redirects: RedirectChanges;
  /** Locales whose `/sitemap` changed. */
  sitemap: string[];
  /** Locales whose `/tree` changed. */
  tree: string[];
}

interface Caches {
  spans: LRUCache<string, Promise<SpanDiff>>;
  affected: LRUCache<string, Promise<AffectedResult>>;
}

const perStore = new WeakMap<Store, Caches>();

function cachesOf(store: Store): Caches {
  let caches = perStore.get(store);
  if (!caches) {
    caches = {
      // Sized by what they hold: a span keeps its changed entries (both ends), affected its items.
      spans: new LRUCache({ maxSize: 100_000, sizeCalculation: () => 1 }),
      affected: new LRUCache({ maxSize: 200_000, sizeCalculation: () => 1 }),
    };
    perStore.set(store, caches);
  }
  return caches;
}

/** Remembers a computation by key while it runs and after; a failed one is forgotten (the next request retries). */
function remember<T extends object>(
  cache: LRUCache<string, Promise<T>>,
  key: string,
  size: (value: T) => number,
  compute: () => Promise<T>,
): Promise<T> {
  const known = cache.get(key);
  if (known) return known;
  const running = compute();
  cache.set(key, running);
  running.then(
    (value) => {
      // Re-set with its real size once known (the entry may have been evicted meanwhile: then it stays out).
      if (cache.get(key) === running) cache.set(key, running, { size: Math.max(1, size(value)) });
    },
    () => cache.delete(key),
  );
  return running;
}

const spanKey = (req: SpanRequest) => `${req.spaceId}\n${req.range.from}\n${req.range.to}`;

/** The include-independent part of a span's difference. */
export function spanDiff(req: SpanRequest): Promise<SpanDiff> {
  const { spans } = cachesOf(req.store);
  return remember(
    spans,
    spanKey(req),
    (d) => 1 + d.ctx.changes.entries.size,
    async () => {
      const changes = await loadSpanChanges(req.store, req.spaceId, req.range, new TimeSlicer());
      const ctx = new SpanContext(req, changes);
      const forms = await formChanges(ctx);
      const lists = await listChanges(ctx);
      const menus = await menuChanges(ctx);
      const truncated = changes.tooMany || changes.typesChanged;
      const touched = await touchedRedirectKeys(req.store, req.spaceId, req.range, MAX_REDIRECT_KEYS);
      const redirects = changes.tooMany
        ? await redirectChanges(new SpanContext(req, { ...changes, entries: new Map() }), touched)
        : await redirectChanges(ctx, touched);
      const all = [...ctx.locales];
      return {
        ctx,
        truncated,
        forms,
        lists,
        menus,
        redirects,
        sitemap: changes.tooMany ? all : await sitemapLocales(ctx),
        tree: changes.tooMany ? all : await treeLocales(ctx),
      };
    },
  );
}

/** The entries affected in a span for one `include` (its reference field keys). */
export async function spanAffected(req: SpanRequest, include: ReadonlySet<string>): Promise<AffectedResult> {
  const diff = await spanDiff(req);
  const key = `${spanKey(req)}\n${[...include].sort().join(',')}`;
  return remember(
    cachesOf(req.store).affected,
    key,
    (r) => 1 + r.items.length,
    () => affectedEntries(diff.ctx, include, [...diff.forms.changed, ...diff.forms.deleted]),
  );
}

const byKey = (a: DerivedGroup, b: DerivedGroup) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

function grouped<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    out.set(key, [...(out.get(key) ?? []), item]);
  }
  return out;
}

/** A span's difference as the groups `syncPage` walks (sync-service.ts). */
export function derivedOf(diff: SpanDiff, affected: AffectedResult): Derived {
  const group = (key: string, parts: Partial<Omit<DerivedGroup, 'key'>>): DerivedGroup => ({
    key,
    changed: parts.changed ?? [],
    deleted: parts.deleted ?? [],
    affected: parts.affected ?? [],
  });
  const forms = [
    ...diff.forms.changed.map((key) => group(key, { changed: [{ kind: 'form', key }] })),
    ...diff.forms.deleted.map((key) => group(key, { deleted: [{ kind: 'form', key }] })),
  ];
  const lists = [
    ...diff.lists.changed.map(({ key, locales }) =>
      group(key, { changed: locales.map((locale) => ({ kind: 'list', key, locale })) }),
    ),
    ...diff.lists.deleted.map((key) => group(key, { deleted: [{ kind: 'list', key }] })),
  ];
  const menus = [
    ...diff.menus.changed.map(({ key, locales }) =>
      group(key, { changed: locales.map((locale) => ({ kind: 'menu', key, locale })) }),
    ),
    ...diff.menus.deleted.map((key) => group(key, { deleted: [{ kind: 'menu', key }] })),
  ];
  const changedRedirects = grouped(diff.redirects.changed, (r) => redirectKey(r.path));
  const deletedRedirects = grouped(diff.redirects.deleted, (r) => redirectKey(r.path));
  const redirects = [...new Set([...changedRedirects.keys(), ...deletedRedirects.keys()])].map((key) =>
    group(key, {
      changed: (changedRedirects.get(key) ?? []).map((r) => ({ kind: 'redirect', ...r })),
      deleted: (deletedRedirects.get(key) ?? []).map(({ id, locale, path }) => ({
        kind: 'redirect',
        id,
        locale,
        path,
      })),
    }),
  );
  const perLocale = (kind: 'sitemap' | 'tree', locales: readonly string[]) =>
    locales.length === 0 ? [] : [group(kind, { changed: locales.map((locale) => ({ kind, locale })) })];
  const affectedGroups = [...grouped(affected.items, (i) => i.id)].map(([id, items]) =>
    group(id, { affected: items }),
  );
  return {
    form: forms.sort(byKey),
    list: lists.sort(byKey),
    menu: menus.sort(byKey),
    redirect: redirects.sort(byKey),
    sitemap: perLocale('sitemap', diff.sitemap),
    tree: perLocale('tree', diff.tree),
    affected: affectedGroups.sort(byKey),
  };
}

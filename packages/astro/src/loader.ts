// Astro Content Layer loaders over a Folio space. The first build reads everything; every later build asks
// `/sync` what changed since the cv it stored in `meta` and reads only that (entries named changed or affected,
// deleted ones removed). A build is pinned to one cv: every read carries it.

import { FolioApiError, type Entry, type FolioClient, type Included, type Menu } from '@folio/client';
import type { Loader, LoaderContext } from 'astro/loaders';
import { z } from 'astro/zod';
import type { FolioSource } from './source.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** One entry in one locale, as the entries collection stores it (id `<locale>/<entry id>`). */
export const folioEntrySchema = z.object({
  id: z.string(),
  locale: z.string(),
  type: z.string(),
  /** The site URL (with the locale prefix); null for entries that are no page. */
  path: z.string().nullable(),
  /** Whether it is a page (folders and non-page collection items are not). */
  page: z.boolean(),
  /** The cv it was read at. */
  cv: z.number(),
  entry: z.custom<Entry>((v) => isObject(v)),
  included: z.custom<Included>((v) => isObject(v)),
});
export type FolioEntryData = z.infer<typeof folioEntrySchema>;

/** A menu in one locale (id `<locale>/<key>`); page items' `href`s carry the locale prefix. */
export const folioMenuSchema = z.object({
  key: z.string(),
  locale: z.string(),
  cv: z.number(),
  menu: z.custom<Menu>((v) => isObject(v)),
});
export type FolioMenuData = z.infer<typeof folioMenuSchema>;

/** What a load did, also kept in `meta` (`last-load`) and logged: how the store was brought to `cv`. */
export interface LoadReport {
  mode: 'full' | 'sync';
  since: number;
  cv: number;
  /** Entries (or menus) read from Folio one by one or in list pages. */
  read: number;
  deleted: number;
}

interface SyncPlan {
  since: number;
  /** `<locale>/<id>` to read again. */
  read: Set<string>;
  /** Entry ids gone in every locale. */
  deleted: Set<string>;
  /** Locales whose menus changed. */
  menus: Set<string>;
}

/** What changed since `since`, or null when the whole collection must be read again. */
async function planSync(
  client: FolioClient,
  since: number,
  include: readonly string[] | undefined,
  locales: string[],
) {
  const plan: SyncPlan = { since, read: new Set(), deleted: new Set(), menus: new Set() };
  const feed = client.sync({ since, limit: 1000, ...(include === undefined ? {} : { include }) });
  try {
    for await (const c of feed) {
      const item = c.item;
      if (c.change === 'deleted') {
        if (item.kind === 'entry') plan.deleted.add(item.id);
        if (item.kind === 'menu') for (const l of locales) plan.menus.add(l);
        continue;
      }
      if (!('locale' in item) || !locales.includes(item.locale)) continue;
      // Folders have a path but no page (`/entries` leaves them out too); globals are not entries here.
      const folder = (item.kind === 'entry' || item.kind === 'affected') && !item.page && item.path !== null;
      if (!folder && (item.kind === 'entry' || (item.kind === 'affected' && item.key === undefined)))
        plan.read.add(`${item.locale}/${item.id}`);
      if (item.kind === 'menu') plan.menus.add(item.locale);
    }
  } catch (error) {
    // Older than the kept history: read everything.
    if (error instanceof FolioApiError && error.code === 'cv_expired') return null;
    throw error;
  }
  return feed.truncated ? null : plan;
}

function entryData(entry: Entry, included: Included, cv: number): FolioEntryData {
  const path: unknown = entry.path;
  const page = typeof path === 'string' && path.startsWith('/');
  return {
    id: entry.id,
    locale: entry.locale,
    type: entry.type,
    path: typeof path === 'string' && page ? path : null,
    page,
    cv,
    entry,
    included,
  };
}

/** The stored cv to sync from, if the store was built with the same settings. */
function lastCv(ctx: LoaderContext, digest: string): number {
  const cv = Number(ctx.meta.get('cv'));
  return ctx.meta.get('settings') === digest && Number.isInteger(cv) && cv > 0 ? cv : 0;
}

function finish(ctx: LoaderContext, digest: string, report: LoadReport): void {
  ctx.meta.set('cv', String(report.cv));
  ctx.meta.set('settings', digest);
  ctx.meta.set('last-load', JSON.stringify(report));
  ctx.logger.info(
    report.mode === 'full'
      ? `folio: read ${report.read} at cv ${report.cv} (everything)`
      : `folio: read ${report.read}, removed ${report.deleted}, cv ${report.since} → ${report.cv} (sync)`,
  );
}

/**
 * The entries of a space in every locale the source loads, pages and collection items alike, each with its
 * `included`. Page paths carry the source's locale prefixes; `data.entry.alternates` too.
 */
export function folioEntriesLoader(source: FolioSource): Loader {
  return {
    name: 'folio-entries',
    schema: folioEntrySchema,
    async load(ctx) {
      const client = await source.pinned();
      const cv = client.cv ?? 0;
      const locales = await source.locales();
      const { include } = source.options;
      const digest = ctx.generateDigest({
        s: source.options.spaceId,
        b: source.options.baseUrl,
        locales,
        include: include ?? [],
        p: source.options.localePrefixes ?? {},
      });
      const since = lastCv(ctx, digest);
      const plan = since > 0 && since <= cv ? await planSync(client, since, include, locales) : null;
      const store = async (entry: Entry, included: Included) => {
        const id = `${entry.locale}/${entry.id}`;
        const data = await ctx.parseData({ id, data: entryData(entry, included, cv) });
        ctx.store.set({ id, data, digest: ctx.generateDigest(JSON.stringify([entry, included])) });
      };
      const options = include === undefined ? {} : { include };
      if (plan === null) {
        ctx.store.clear();
        let read = 0;
        for (const locale of locales)
          for await (const page of client.entries.list({ locale, limit: 100, ...options }).pages())
            for (const entry of page.items) {
              read++;
              await store(entry, page.included);
            }
        return finish(ctx, digest, { mode: 'full', since: 0, cv, read, deleted: 0 });
      }
      let deleted = 0;
      for (const key of ctx.store.keys())
        if (plan.deleted.has(key.slice(key.indexOf('/') + 1))) {
          ctx.store.delete(key);
          deleted++;
        }
      for (const key of plan.read) {
        const [locale = '', id = ''] = key.split('/');
        try {
          const answer = await client.entries.get(id, { locale, ...options });
          await store(answer.entry, answer.included);
        } catch (error) {
          // Named by the sync, gone by the pinned cv's end of it (e.g. unpublished in a locale): drop it.
          if (!(error instanceof FolioApiError && error.status === 404)) throw error;
          ctx.store.delete(key);
          deleted++;
        }
      }
      finish(ctx, digest, { mode: 'sync', since, cv, read: plan.read.size, deleted });
    },
  };
}

/** Every menu of the space in every locale the source loads; read again only when `/sync` names a menu. */
export function folioMenusLoader(source: FolioSource): Loader {
  return {
    name: 'folio-menus',
    schema: folioMenuSchema,
    async load(ctx) {
      const client = await source.pinned();
      const cv = client.cv ?? 0;
      const locales = await source.locales();
      const digest = ctx.generateDigest({
        s: source.options.spaceId,
        b: source.options.baseUrl,
        locales,
        p: source.options.localePrefixes ?? {},
      });
      const since = lastCv(ctx, digest);
      const plan = since > 0 && since <= cv ? await planSync(client, since, undefined, locales) : null;
      const readLocales = plan === null ? locales : [...plan.menus];
      if (plan === null) ctx.store.clear();
      let read = 0;
      for (const locale of readLocales) {
        for (const key of ctx.store.keys()) if (key.startsWith(`${locale}/`)) ctx.store.delete(key);
        const { menus } = await client.menus.all({ locale });
        for (const [key, menu] of Object.entries(menus)) {
          read++;
          const id = `${locale}/${key}`;
          const data = await ctx.parseData({ id, data: { key, locale, cv, menu } });
          ctx.store.set({ id, data });
        }
      }
      finish(ctx, digest, { mode: plan === null ? 'full' : 'sync', since, cv, read, deleted: 0 });
    },
  };
}

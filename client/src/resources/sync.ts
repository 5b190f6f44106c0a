import { isObject, objectWith } from '../parse.js';
import { type CallOptions, type LocaleOptions, type PinOptions, Query } from '../query.js';
import type { Entry, SyncAnswer as RawSyncPage } from '../types.js';
import { type ClientContext, prefixed } from './context.js';
import { CursorList } from './cursor-list.js';

export interface SyncOptions extends CallOptions, PinOptions, LocaleOptions {
  /** The cv of the last build (exclusive); omitted or 0: everything visible now. */
  since?: number;
  /** Documents per page, 1 to 1000 (server default 100). */
  limit?: number;
  /** Entries in the `/entries` item shape (`entry`), with `include` and `fields`. */
  full?: boolean;
  include?: string | readonly string[];
  fields?: string | readonly string[];
}

/** A changed (or new) document, by `kind` (docs/api.md "Sync"). */
export type SyncChangedItem =
  | {
      kind: 'entry';
      id: string;
      type: string;
      locale: string;
      /** The path in `locale`; null when the entry is no page (a non-page collection item). */
      path: string | null;
      /** False for folders: they have a path for their children but no page (by path they are 404). */
      page: boolean;
      /** With `full`. */
      entry?: Entry;
    }
  | { kind: 'global'; id: string; key: string; locale: string; entry?: Entry }
  | {
      /**
       * An entry or global whose delivered JSON (read with the sync's `include`) changed because of what it links,
       * includes or shows.
       */
      kind: 'affected';
      id: string;
      type: string;
      locale: string;
      /** The path in `locale`; null for globals and entries without one. */
      path: string | null;
      /** Whether it is a page (read by path); folders and other items are read by id. */
      page: boolean;
      /** Globals: the global key. */
      key?: string;
    }
  | { kind: 'asset'; id: string }
  | { kind: 'form'; key: string }
  /** An option list or menu, in a locale whose answer changed. */
  | { kind: 'list' | 'menu'; key: string; locale: string }
  /** The sitemap or the tree of a locale. */
  | { kind: 'sitemap' | 'tree'; locale: string }
  | {
      /** What `path` redirects to in `locale` now (`/redirects?locale=`). */
      kind: 'redirect';
      id: string;
      locale: string;
      path: string;
      /** The target, resolved in `locale` (a path or URL); null: gone (410). */
      to: string | null;
      status: number;
      /** Made when a page moved away from `path`, not by hand. */
      auto: boolean;
    };

/** A deleted (unpublished) document, by `kind`. */
export type SyncDeletedItem =
  | {
      kind: 'entry';
      id: string;
      type: string;
      /** Its last path per locale (remove these pages); null when it was no page. */
      paths: Record<string, string> | null;
    }
  | { kind: 'global'; id: string; key: string }
  | { kind: 'asset'; id: string }
  /** `path` no longer redirects in `locale`. */
  | { kind: 'redirect'; id: string; locale: string; path: string }
  | { kind: 'form' | 'list' | 'menu'; key: string };

/** One page of `/sync` with its items typed by `kind` (items of kinds this client does not know are left out). */
export type SyncPage = {
  [P in keyof RawSyncPage as P extends 'changed' | 'deleted' ? never : P]: RawSyncPage[P];
} & {
  changed: SyncChangedItem[];
  deleted: SyncDeletedItem[];
  /** Entries and globals affected by the changes (docs/api.md "Sync", `affected`); empty from servers without it. */
  affected: Extract<SyncChangedItem, { kind: 'affected' }>[];
  /** True when the difference was too large to name whole (or the content model changed): rebuild everything. */
  truncated: boolean;
};

/** One item of a sync: a document changed (or new) since `since`, a page it affects, or a deleted one. */
export type SyncChange =
  | { change: 'changed'; item: Exclude<SyncChangedItem, { kind: 'affected' }> }
  | { change: 'affected'; item: Extract<SyncChangedItem, { kind: 'affected' }> }
  | { change: 'deleted'; item: SyncDeletedItem };

/**
 * What changed between `since` and the end cv (docs/api.md "Sync"), page by page. After the last page `toCv` is
 * the cv every page was read at: store it as the next `since`, and pin other reads with `client.at(toCv)`.
 */
export class SyncFeed implements AsyncIterable<SyncChange> {
  /** The end cv, once a page was read. */
  toCv: number | undefined;
  /** Once a page said so: the items do not name everything that changed; rebuild everything instead. */
  truncated = false;
  private readonly list: CursorList<SyncPage, SyncChange>;

  constructor(readPage: (cursor: string | undefined) => Promise<SyncPage>) {
    this.list = new CursorList(
      async (cursor) => {
        const page = await readPage(cursor);
        this.toCv = page.toCv;
        if (page.truncated) this.truncated = true;
        return page;
      },
      (page) => [
        ...page.changed.flatMap((item): SyncChange[] =>
          item.kind === 'affected' ? [] : [{ change: 'changed', item }],
        ),
        ...page.affected.map((item): SyncChange => ({ change: 'affected', item })),
        ...page.deleted.map((item): SyncChange => ({ change: 'deleted', item })),
      ],
    );
  }

  page(cursor?: string): Promise<SyncPage> {
    return this.list.page(cursor);
  }

  pages(cursor?: string): AsyncGenerator<SyncPage, void, undefined> {
    return this.list.pages(cursor);
  }

  [Symbol.asyncIterator](): AsyncIterator<SyncChange> {
    return this.list[Symbol.asyncIterator]();
  }
}

const str = (v: unknown): v is string => typeof v === 'string';
const strOrNull = (v: unknown): v is string | null => v === null || typeof v === 'string';

function pathsOf(v: unknown): Record<string, string> | null {
  if (!isObject(v)) return null;
  return Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => str(e[1])));
}

function entryOf(v: unknown): { entry?: Entry } {
  const entry = objectWith<Entry>(v, ['id', 'type', 'content']);
  return entry === null ? {} : { entry };
}

/** A changed item of a kind this client knows, checked; null otherwise. */
function changedItem(v: unknown): SyncChangedItem | null {
  if (!isObject(v)) return null;
  const { kind, id, key, type, locale, path } = v;
  switch (kind) {
    case 'entry':
      if (!str(id) || !str(type) || !str(locale) || !strOrNull(path)) return null;
      return { kind, id, type, locale, path, page: v.page !== false, ...entryOf(v.entry) };
    case 'global':
      return str(id) && str(key) && str(locale) ? { kind, id, key, locale, ...entryOf(v.entry) } : null;
    case 'affected':
      if (!str(id) || !str(type) || !str(locale) || !strOrNull(path)) return null;
      return { kind, id, type, locale, path, page: v.page === true, ...(str(key) ? { key } : {}) };
    case 'asset':
      return str(id) ? { kind, id } : null;
    case 'form':
      return str(key) ? { kind, key } : null;
    case 'list':
    case 'menu':
      return str(key) && str(locale) ? { kind, key, locale } : null;
    case 'sitemap':
    case 'tree':
      return str(locale) ? { kind, locale } : null;
    case 'redirect': {
      const { to, status } = v;
      if (!str(id) || !str(locale) || !str(path) || !strOrNull(to) || typeof status !== 'number') return null;
      return { kind, id, locale, path, to, status, auto: v.auto === true };
    }
    default:
      return null;
  }
}

function deletedItem(v: unknown): SyncDeletedItem | null {
  if (!isObject(v)) return null;
  const { kind, id, key, type } = v;
  switch (kind) {
    case 'entry':
      return str(id) && str(type) ? { kind, id, type, paths: pathsOf(v.paths) } : null;
    case 'global':
      return str(id) && str(key) ? { kind, id, key } : null;
    case 'asset':
      return str(id) ? { kind, id } : null;
    case 'redirect': {
      const { locale, path } = v;
      return str(id) && str(locale) && str(path) ? { kind, id, locale, path } : null;
    }
    case 'form':
    case 'list':
    case 'menu':
      return str(key) ? { kind, key } : null;
    default:
      return null;
  }
}

const known = <T>(items: unknown, parse: (v: unknown) => T | null): T[] =>
  Array.isArray(items) ? items.flatMap((v) => parse(v) ?? []) : [];

function readSyncPage(body: unknown): SyncPage | null {
  const page = objectWith<RawSyncPage>(body, ['changed', 'deleted', 'fromCv', 'toCv', 'nextCursor']);
  if (page === null || !Array.isArray(page.changed) || !Array.isArray(page.deleted)) return null;
  if (typeof page.nextCursor !== 'string' && page.nextCursor !== null) return null;
  const raw: unknown = body;
  const affected = isObject(raw) ? known(raw.affected, changedItem) : [];
  return {
    ...page,
    changed: known(page.changed, changedItem),
    deleted: known(page.deleted, deletedItem),
    affected: affected.flatMap((item) => (item.kind === 'affected' ? [item] : [])),
    truncated: isObject(raw) && raw.truncated === true,
  };
}

export function syncFeed(ctx: ClientContext, options: SyncOptions): SyncFeed {
  return new SyncFeed((cursor) =>
    ctx.transport.send({
      method: 'GET',
      path: '/sync',
      query: new Query()
        .set('since', options.since)
        .locale(options, ctx.pinnedCv)
        .set('limit', options.limit)
        .set('full', options.full === true ? '1' : undefined)
        .set('include', options.include)
        .set('fields', options.fields)
        .set('cursor', cursor).params,
      signal: options.signal,
      read: prefixed(ctx, 'sync', options.locale, readSyncPage),
    }),
  );
}

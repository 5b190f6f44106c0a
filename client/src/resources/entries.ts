import { objectWith } from '../parse.js';
import { byPathRoute, type EntryListQuery, type EntryReadOptions, Query, segment } from '../query.js';
import type { Entry, EntryPage, EntryResponse } from '../types.js';
import type { ClientContext } from './context.js';
import { CursorList } from './cursor-list.js';

export type EntryList = CursorList<EntryPage, Entry>;

export interface EntriesResource {
  /**
   * A page by its localized path (`/blog/hello`; `/` is the home page), without a locale prefix. An unknown path
   * fails with 404 `not_found`; an old path's error carries `redirect` (`{ to, status }`, spec 7.3).
   */
  byPath(path: string, options?: EntryReadOptions): Promise<EntryResponse>;
  /** An entry by id (`ent_…`). */
  get(id: string, options?: EntryReadOptions): Promise<EntryResponse>;
  /**
   * Entries matching `query` (spec 4.3). `for await (const entry of list)` reads every page along `nextCursor`;
   * `list.pages()` yields whole pages (with `included` and `total`); `list.page(cursor?)` reads one.
   */
  list(query?: EntryListQuery): EntryList;
}

const readEntry = (body: unknown) => objectWith<EntryResponse>(body, ['entry', 'included', 'cv']);

function readPage(body: unknown): EntryPage | null {
  const page = objectWith<EntryPage>(body, ['items', 'included', 'nextCursor', 'total', 'cv']);
  // Pagination relies on these two.
  if (page === null || !Array.isArray(page.items)) return null;
  return typeof page.nextCursor === 'string' || page.nextCursor === null ? page : null;
}

export function entriesResource(ctx: ClientContext): EntriesResource {
  const read = (path: string, options: EntryReadOptions) =>
    ctx.transport.send({
      method: 'GET',
      path,
      query: new Query().entryRead(options, ctx.pinnedCv).params,
      signal: options.signal,
      read: readEntry,
    });
  return {
    byPath: (path, options = {}) => read(byPathRoute(path), options),
    get: (id, options = {}) => read(`/entries/${segment(id)}`, options),
    list(query = {}) {
      return new CursorList(
        (cursor) =>
          ctx.transport.send({
            method: 'GET',
            path: '/entries',
            query: new Query().entryList(query, ctx.pinnedCv).set('cursor', cursor).params,
            signal: query.signal,
            read: readPage,
          }),
        (page) => page.items,
      );
    },
  };
}

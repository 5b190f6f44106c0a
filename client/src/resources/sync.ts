import { objectWith } from '../parse.js';
import { type CallOptions, type LocaleOptions, type PinOptions, Query } from '../query.js';
import type { SyncChanged, SyncDeleted, SyncPage } from '../types.js';
import type { ClientContext } from './context.js';
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

/** One item of a sync: a document changed (or new) since `since`, or deleted. */
export type SyncChange = { change: 'changed'; item: SyncChanged } | { change: 'deleted'; item: SyncDeleted };

/**
 * What changed between `since` and the end cv (docs/api.md "Sync"), page by page. After the last page `toCv` is
 * the cv every page was read at: store it as the next `since`, and pin other reads with `client.at(toCv)`.
 */
export class SyncFeed implements AsyncIterable<SyncChange> {
  /** The end cv, once a page was read. */
  toCv: number | undefined;
  private readonly list: CursorList<SyncPage, SyncChange>;

  constructor(readPage: (cursor: string | undefined) => Promise<SyncPage>) {
    this.list = new CursorList(
      async (cursor) => {
        const page = await readPage(cursor);
        this.toCv = page.toCv;
        return page;
      },
      (page) => [
        ...page.changed.map((item): SyncChange => ({ change: 'changed', item })),
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

function readSyncPage(body: unknown): SyncPage | null {
  const page = objectWith<SyncPage>(body, ['changed', 'deleted', 'fromCv', 'toCv', 'nextCursor']);
  if (page === null || !Array.isArray(page.changed) || !Array.isArray(page.deleted)) return null;
  return typeof page.nextCursor === 'string' || page.nextCursor === null ? page : null;
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
      read: readSyncPage,
    }),
  );
}

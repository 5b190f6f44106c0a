import { FolioApiError } from '../errors.js';

/**
 * A listing read page by page along `nextCursor` (keyset pagination, docs/api.md "GET /entries"): the first page
 * fixes the cv, later pages are read at it, so publishes in between neither shift nor repeat items. Iterating it
 * (`for await`) yields every item of every page; `pages()` yields the pages (with `included`, `total`, `cv`);
 * `page()` reads one. Nothing is requested before it is asked for.
 */
export class CursorList<Page extends { nextCursor: string | null }, Item> implements AsyncIterable<Item> {
  constructor(
    private readonly readPage: (cursor: string | undefined) => Promise<Page>,
    private readonly itemsOf: (page: Page) => Iterable<Item>,
  ) {}

  /** One page: the first, or the one after a previous page's `nextCursor`. */
  page(cursor?: string): Promise<Page> {
    return this.readPage(cursor);
  }

  /** Every page, from the first (or from `cursor`) to the one whose `nextCursor` is null. */
  async *pages(cursor?: string): AsyncGenerator<Page, void, undefined> {
    let next = cursor;
    for (;;) {
      const page = await this.readPage(next);
      yield page;
      if (page.nextCursor === null) return;
      // A cursor that does not move would loop forever: not an answer the API gives.
      if (page.nextCursor === next)
        throw new FolioApiError({
          status: 200,
          code: 'invalid_response',
          message: 'nextCursor did not move',
        });
      next = page.nextCursor;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.pages()) yield* this.itemsOf(page);
  }
}

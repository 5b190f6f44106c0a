import { FolioApiError } from '../errors.js';
import { objectWith } from '../parse.js';
import { byPathRoute, type EntryListQuery, type EntryReadOptions, Query, segment } from '../query.js';
import type { EntryPage, EntryResponse } from '../types.js';
import type {
  ContentModel,
  EntryOf,
  EntryPageOf,
  EntryResponseOf,
  TypeKey,
  UntypedModel,
} from '../values.js';
import type { FieldKey, FilterOf, IncludeKey, ListKey, OneOrMany, PageKey, SortKey } from '../typed-keys.js';
import { type ClientContext, prefixed } from './context.js';
import { CursorList } from './cursor-list.js';

export type EntryList<M extends ContentModel = UntypedModel, K extends TypeKey<M> = TypeKey<M>> = CursorList<
  EntryPageOf<M, K>,
  EntryOf<M, K>
>;

/**
 * The common entry read parameters of an entry of type `K`: with a generated model, `include` takes the reference
 * fields it reaches and `fields` its root fields (the server answers 400 to keys it does not know).
 */
export interface EntryReadOptionsOf<K extends string, M extends ContentModel = UntypedModel> extends Omit<
  EntryReadOptions,
  'include' | 'fields'
> {
  /** Reference field keys whose entries go to `included.entries` (`findIncluded` reads them back). */
  include?: OneOrMany<IncludeKey<M, K>>;
  /** Only these root fields in `entry.content.fields`. */
  fields?: OneOrMany<FieldKey<M, K>>;
}

/** Reading options that may name the types the caller expects: the answer is checked against them. */
export interface TypedReadOptions<
  K extends string,
  M extends ContentModel = UntypedModel,
> extends EntryReadOptionsOf<K, M> {
  /** The type (or types) the entry must have; another type fails with `unexpected_type` (no content). */
  type?: K | readonly K[];
}

/**
 * `/entries` with its type typed: `list({ type: 'post' })` yields posts; with a generated model `filter` and
 * `sort` take the members the server accepts for that type (for every listed type without `type`).
 */
export interface TypedListQuery<K extends string, M extends ContentModel = UntypedModel>
  extends Omit<EntryListQuery, 'type' | 'include' | 'fields' | 'sort' | 'filter'>, EntryReadOptionsOf<K, M> {
  type?: K;
  /** `publishedAt`, `name`, `fields.<key>`, …; `-` descends. Default `-publishedAt`. */
  sort?: OneOrMany<SortKey<M, K>>;
  /** By member: `{ 'fields.category': 'news' }` (eq), `{ 'fields.rating': { gte: 3 } }`, `{ tags: { in: ['a'] } }`. */
  filter?: FilterOf<M, K>;
}

export interface EntriesResource<M extends ContentModel = UntypedModel> {
  /**
   * A page by its localized path (`/blog/hello`; `/` is the home page), without a locale prefix. An unknown path
   * fails with 404 `not_found`; an old path's error carries `redirect` (`{ to, status }`, spec 7.3).
   * `byPath<'post'>(path, { type: 'post' })` types the entry and checks it; without a type the entry is one of
   * the page types of a generated model.
   */
  byPath<K extends PageKey<M> = PageKey<M>>(
    path: string,
    options?: TypedReadOptions<K, M>,
  ): Promise<EntryResponseOf<M, K>>;
  /** An entry by id (`ent_…`). */
  get<K extends TypeKey<M> = TypeKey<M>>(
    id: string,
    options?: TypedReadOptions<K, M>,
  ): Promise<EntryResponseOf<M, K>>;
  /**
   * Entries matching `query` (spec 4.3). `for await (const entry of list)` reads every page along `nextCursor`;
   * `list.pages()` yields whole pages (with `included` and `total`); `list.page(cursor?)` reads one.
   */
  list<K extends ListKey<M> = ListKey<M>>(query?: TypedListQuery<K, M>): EntryList<M, K>;
}

function typesOf(option: string | readonly string[] | undefined): readonly string[] | undefined {
  return option === undefined ? undefined : typeof option === 'string' ? [option] : option;
}

/** Entries of a typed client: the server's answer, whose types the model describes. */
function readEntryAs<M extends ContentModel, K extends TypeKey<M>>(
  expected: readonly string[] | undefined,
): (body: unknown) => EntryResponseOf<M, K> | null {
  return (body) => {
    const answer = objectWith<EntryResponseOf<M, K>>(body, ['entry', 'included', 'cv']);
    if (answer === null || expected === undefined) return answer;
    const type: unknown = answer.entry.type;
    if (typeof type === 'string' && expected.includes(type)) return answer;
    throw new FolioApiError({
      status: 200,
      code: 'unexpected_type',
      message: `The entry is a "${String(type)}", not ${expected.map((t) => `"${t}"`).join(' or ')}.`,
    });
  };
}

function readPageAs<M extends ContentModel, K extends TypeKey<M>>(body: unknown): EntryPageOf<M, K> | null {
  const page = objectWith<EntryPageOf<M, K>>(body, ['items', 'included', 'nextCursor', 'total', 'cv']);
  // Pagination relies on these two.
  if (page === null || !Array.isArray(page.items)) return null;
  return typeof page.nextCursor === 'string' || page.nextCursor === null ? page : null;
}

export function entriesResource<M extends ContentModel = UntypedModel>(
  ctx: ClientContext,
): EntriesResource<M> {
  const read = <K extends TypeKey<M>>(path: string, options: TypedReadOptions<K, M>) =>
    ctx.transport.send({
      method: 'GET',
      path,
      query: new Query().entryRead(options, ctx.pinnedCv).params,
      signal: options.signal,
      read: prefixed(ctx, 'entry', options.locale, readEntryAs<M, K>(typesOf(options.type))),
    });
  return {
    byPath: (path, options = {}) => read(byPathRoute(path), options),
    get: (id, options = {}) => read(`/entries/${segment(id)}`, options),
    list<K extends ListKey<M>>(query: TypedListQuery<K, M> = {}) {
      return new CursorList(
        (cursor) =>
          ctx.transport.send({
            method: 'GET',
            path: '/entries',
            query: new Query().entryList(query, ctx.pinnedCv).set('cursor', cursor).params,
            signal: query.signal,
            read: prefixed(ctx, 'entries', query.locale, (body) => readPageAs<M, K>(body)),
          }),
        (page) => page.items,
      );
    },
  };
}

export type { EntryPage, EntryResponse };

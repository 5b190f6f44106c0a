import { objectWith } from '../parse.js';
import {
  type CallOptions,
  type EntryReadOptions,
  type LocaleOptions,
  type PinOptions,
  type PreviewOptions,
  Query,
  segment,
} from '../query.js';
import type {
  ContentModelResponse,
  GlobalsResponse,
  MenuResponse,
  MenusResponse,
  OptionListResponse,
  RedirectsResponse,
  SearchResponse,
  SitemapResponse,
  SpaceStatus,
  TreeResponse,
} from '../types.js';
import type { FieldKey, GlobalKey, IncludeKey, ListKey, MenuKey, OneOrMany, PageKey } from '../typed-keys.js';
import type { ContentModel, EntryResponseOf, UntypedModel } from '../values.js';
import type { PrefixedAnswer } from '../locale-prefixes.js';
import { type ClientContext, prefixed } from './context.js';
import type { EntryReadOptionsOf } from './entries.js';

/** Parameters of menus, option lists, the tree and the sitemap: locale, cv and previews. */
export interface ViewOptions extends CallOptions, PinOptions, PreviewOptions, LocaleOptions {}

export interface GlobalsOptions<M extends ContentModel = UntypedModel> extends EntryReadOptionsOf<
  GlobalKey<M>,
  M
> {
  /** At most 20, each with a published entry; without it every published global. */
  keys?: OneOrMany<GlobalKey<M>>;
}

export interface MenusOptions<M extends ContentModel = UntypedModel> extends ViewOptions {
  /** Each must exist; without it every menu. */
  keys?: OneOrMany<MenuKey<M>>;
}

export interface TreeOptions extends ViewOptions {
  /** A folder path: only what is below it. */
  under?: string;
  /** Levels, 1 to 10 (server default 3). */
  depth?: number;
}

export interface SitemapOptions<M extends ContentModel = UntypedModel> extends ViewOptions {
  /** Only these page types (with a generated model, typed: another type is 400). */
  types?: OneOrMany<PageKey<M>>;
}

export interface RedirectsOptions extends CallOptions, PinOptions, LocaleOptions {}

export interface SearchOptions<M extends ContentModel = UntypedModel>
  extends CallOptions, PinOptions, LocaleOptions {
  /** Only entries of this page or collection type. */
  type?: ListKey<M>;
  /** 1 to 20 (server default 10). */
  limit?: number;
  include?: OneOrMany<IncludeKey<M, ListKey<M>>>;
  fields?: OneOrMany<FieldKey<M, ListKey<M>>>;
}

export interface GlobalsResource<M extends ContentModel = UntypedModel> {
  /** The published entry of a global type: `{ entry, included, cv }`. */
  get<K extends GlobalKey<M>>(key: K, options?: EntryReadOptionsOf<K, M>): Promise<EntryResponseOf<M, K>>;
  /** Several globals: `{ globals: { <key>: entry }, included, cv }`. */
  all(options?: GlobalsOptions<M>): Promise<GlobalsResponse>;
}

/** Menus; with a generated model their keys are typed (an unknown key is 404). */
export interface MenusResource<M extends ContentModel = UntypedModel> {
  get(key: MenuKey<M>, options?: ViewOptions): Promise<MenuResponse>;
  all(options?: MenusOptions<M>): Promise<MenusResponse>;
}

export interface OptionListsResource {
  /** A shared option list with labels in the locale: `{ list: { key, name, options }, cv }`. */
  get(key: string, options?: ViewOptions): Promise<OptionListResponse>;
}

/** The reads of one GET route: its path, its parameters and the members its answer must have. */
export function reader(ctx: ClientContext) {
  return <T extends object>(
    path: string,
    query: Query,
    options: CallOptions,
    members: readonly (keyof T & string)[],
    /** The answer's paths get the client's locale prefixes. */
    paths?: { kind: PrefixedAnswer; locale: string | undefined },
  ): Promise<T> => {
    const read = (body: unknown) => objectWith<T>(body, members);
    return ctx.transport.send({
      method: 'GET',
      path,
      query: query.params,
      signal: options.signal,
      read: paths === undefined ? read : prefixed(ctx, paths.kind, paths.locale, read),
    });
  };
}

export function globalsResource<M extends ContentModel = UntypedModel>(
  ctx: ClientContext,
): GlobalsResource<M> {
  const get = reader(ctx);
  const q = (options: EntryReadOptions) => new Query().entryRead(options, ctx.pinnedCv);
  return {
    get: <K extends GlobalKey<M>>(key: K, options: EntryReadOptionsOf<K, M> = {}) =>
      get<EntryResponseOf<M, K>>(
        `/globals/${segment(key)}`,
        q(options),
        options,
        ['entry', 'included', 'cv'],
        { kind: 'entry', locale: options.locale },
      ),
    all: (options = {}) =>
      get<GlobalsResponse>('/globals', q(options).set('keys', options.keys), options, ['globals', 'cv'], {
        kind: 'globals',
        locale: options.locale,
      }),
  };
}

const view = (options: ViewOptions, pinnedCv: number | undefined) =>
  new Query().locale(options, pinnedCv).preview(options);

export function menusResource<M extends ContentModel = UntypedModel>(ctx: ClientContext): MenusResource<M> {
  const get = reader(ctx);
  return {
    get: (key, options = {}) =>
      get<MenuResponse>(`/menus/${segment(key)}`, view(options, ctx.pinnedCv), options, ['menu', 'cv'], {
        kind: 'menu',
        locale: options.locale,
      }),
    all: (options = {}) =>
      get<MenusResponse>(
        '/menus',
        view(options, ctx.pinnedCv).set('keys', options.keys),
        options,
        ['menus', 'cv'],
        { kind: 'menus', locale: options.locale },
      ),
  };
}

export function optionListsResource(ctx: ClientContext): OptionListsResource {
  const get = reader(ctx);
  return {
    get: (key, options = {}) =>
      get<OptionListResponse>(`/lists/${segment(key)}`, view(options, ctx.pinnedCv), options, ['list', 'cv']),
  };
}

/** The single reads: status, redirects, sitemap, tree, search. */
export function singleReads<M extends ContentModel = UntypedModel>(ctx: ClientContext) {
  const get = reader(ctx);
  const cv = ctx.pinnedCv;
  return {
    /** The space: its current cv, oldest kept cv, locales, and the search index. Never pinned (no `cv`). */
    status: (options: CallOptions = {}) =>
      get<SpaceStatus>('/status', new Query(), options, ['spaceId', 'cv', 'locales']),
    /** Every redirect of the locale, targets resolved: `{ redirects: [{ from, to, status }], cv }`. */
    redirects: (options: RedirectsOptions = {}) =>
      get<RedirectsResponse>('/redirects', new Query().locale(options, cv), options, ['redirects', 'cv'], {
        kind: 'redirects',
        locale: options.locale,
      }),
    /** Published, indexable pages with their paths in every locale: `{ locale, items, cv }`. */
    sitemap: (options: SitemapOptions<M> = {}) =>
      get<SitemapResponse>(
        '/sitemap',
        view(options, cv).set('types', options.types),
        options,
        ['locale', 'items', 'cv'],
        { kind: 'sitemap', locale: options.locale },
      ),
    /** The navigation tree: `{ locale, under, items: [node with children], cv }`. */
    tree: (options: TreeOptions = {}) =>
      get<TreeResponse>(
        '/tree',
        view(options, cv).set('under', options.under).set('depth', options.depth),
        options,
        ['locale', 'items', 'cv'],
        { kind: 'tree', locale: options.locale },
      ),
    /** Published entries ranked by meaning (spaces with AI switched on; otherwise 404 `not_found`). */
    search: (q: string, options: SearchOptions<M> = {}) =>
      get<SearchResponse>(
        '/search',
        new Query()
          .set('q', q)
          .locale(options, cv)
          .set('type', options.type)
          .set('limit', options.limit)
          .set('include', options.include)
          .set('fields', options.fields),
        options,
        ['items', 'included', 'cv'],
        { kind: 'search', locale: options.locale },
      ),
    /** The content model (`GET /types`): types with their fields, what `folio-types` reads. */
    types: (options: ViewOptions = {}) =>
      get<ContentModelResponse>('/types', new Query().set('cv', options.cv ?? cv).preview(options), options, [
        'types',
        'cv',
      ]),
  };
}

import { EtagCache } from './etag-cache.js';
import { type FetchLike, Transport } from './http.js';
import { checkLocalePrefixes, type LocalePrefixes } from './locale-prefixes.js';
import type { CallOptions } from './query.js';
import {
  globalsResource,
  type GlobalsResource,
  menusResource,
  type MenusResource,
  optionListsResource,
  type OptionListsResource,
  type RedirectsOptions,
  type SearchOptions,
  singleReads,
  type SitemapOptions,
  type TreeOptions,
  type ViewOptions,
} from './resources/content.js';
import type { ClientContext } from './resources/context.js';
import { entriesResource, type EntriesResource } from './resources/entries.js';
import { formsResource, type FormsResource } from './resources/forms.js';
import { type SyncFeed, syncFeed, type SyncOptions } from './resources/sync.js';
import { retryPolicy, type RetryOptions } from './retry.js';
import type { ContentModel, UntypedModel } from './values.js';
import type {
  ContentModelResponse,
  RedirectsResponse,
  SearchResponse,
  SitemapResponse,
  SpaceStatus,
  TreeResponse,
} from './types.js';

export interface ClientOptions {
  /** The service's address, e.g. `https://folio.example.com` (requests go to `<baseUrl>/v1/<spaceId>/…`). */
  baseUrl: string;
  /** The space id, `spc_…`. */
  spaceId: string;
  /** A public (`…_pub_…`) or, server-side only, a preview (`…_prv_…`) token. */
  token: string;
  /** `header` (default): `Authorization: Bearer`. `query`: `?token=`, public tokens only (no CORS preflight). */
  tokenIn?: 'header' | 'query';
  /** Default: the platform's `fetch`. */
  fetch?: FetchLike;
  /** Retries after 429 and 503 (default: 2 after 429, 1 after 503 for GETs, waits up to 10 s); `false`: none. */
  retry?: RetryOptions | false;
  /** ETag revalidation of GETs in memory (default: the 500 most recently used answers); `false`: none. */
  cache?: { maxEntries?: number } | false;
  /**
   * The site's URL prefix per locale, e.g. `{ en: '', de: '/de' }`: written into the paths of every answer
   * (entries' `path` and `alternates`, `included.links`, menu `href`s of pages, tree, sitemap, redirects and
   * sync items; client/README.md "Locale prefixes"), so they are the site's URLs. Locales not named keep Folio's
   * paths. `byPath` still takes Folio's path: `splitSitePath` turns a site URL back into locale and path.
   */
  localePrefixes?: LocalePrefixes;
}

/**
 * A client of one space. `M`, the content model as types (`createClient<FolioTypes>(…)` with the module
 * `folio-types` writes), types entries: `entries.byPath<'post'>(…)`, `entries.list({ type: 'post' })`.
 */
export interface FolioClient<M extends ContentModel = UntypedModel> {
  /** The cv every read of this client is pinned to (`at(cv)`), else undefined (current content). */
  readonly cv: number | undefined;
  /**
   * A client whose every read carries `cv` (spec 4.1: an immutable answer of that version), sharing this one's
   * fetch, retries and cache. Status, submissions and uploads are not versioned and carry no cv.
   */
  at(cv: number): FolioClient<M>;
  /** The `localePrefixes` option (checked), else undefined. */
  readonly localePrefixes: LocalePrefixes | undefined;
  readonly entries: EntriesResource<M>;
  readonly globals: GlobalsResource<M>;
  readonly menus: MenusResource<M>;
  /** Shared option lists (spec 2.8). */
  readonly lists: OptionListsResource;
  readonly forms: FormsResource;
  status(options?: CallOptions): Promise<SpaceStatus>;
  redirects(options?: RedirectsOptions): Promise<RedirectsResponse>;
  sitemap(options?: SitemapOptions<M>): Promise<SitemapResponse>;
  tree(options?: TreeOptions): Promise<TreeResponse>;
  search(q: string, options?: SearchOptions<M>): Promise<SearchResponse>;
  /** The content model: content, global, folder and block types with their fields (`GET /types`). */
  types(options?: ViewOptions): Promise<ContentModelResponse>;
  /** What changed since a cv, page by page (docs/api.md "Sync"); `toCv` once read. */
  sync(options?: SyncOptions): SyncFeed;
}

export const DEFAULT_CACHE_ENTRIES = 500;

/** A typed client of the delivery API of one space. */
export function createClient<M extends ContentModel = UntypedModel>(options: ClientOptions): FolioClient<M> {
  const tokenIn = options.tokenIn ?? 'header';
  if (options.spaceId === '') throw new TypeError('createClient: spaceId is required');
  if (options.token === '') throw new TypeError('createClient: token is required');
  // docs/api.md "Tokens in URLs": a preview token in a URL is always refused (401).
  if (tokenIn === 'query' && /_prv_/.test(options.token))
    throw new TypeError('createClient: preview tokens are sent in the Authorization header only');
  const maxEntries = options.cache === false ? 0 : (options.cache?.maxEntries ?? DEFAULT_CACHE_ENTRIES);
  if (!Number.isInteger(maxEntries) || maxEntries < 0)
    throw new RangeError('createClient: cache.maxEntries is a whole number ≥ 0');
  const userFetch = options.fetch;
  const transport = new Transport({
    baseUrl: baseUrlOf(options.baseUrl),
    spaceId: options.spaceId,
    token: options.token,
    tokenIn,
    // Called without a receiver: browsers refuse `fetch` called on another object ("Illegal invocation").
    fetch:
      userFetch === undefined
        ? (url, init) => globalThis.fetch(url, init)
        : (url, init) => userFetch(url, init),
    retry: retryPolicy(options.retry),
    cache: maxEntries === 0 ? null : new EtagCache(maxEntries),
  });
  const localePrefixes =
    options.localePrefixes === undefined ? null : checkLocalePrefixes(options.localePrefixes);
  return clientOf<M>({ transport, pinnedCv: undefined, localePrefixes });
}

function baseUrlOf(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`createClient: baseUrl is not an absolute URL: ${value}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`createClient: baseUrl is not an http(s) URL: ${value}`);
  if (url.search !== '' || url.hash !== '')
    throw new TypeError(`createClient: baseUrl has a query or fragment: ${value}`);
  return url.href.replace(/\/+$/, '');
}

function clientOf<M extends ContentModel>(ctx: ClientContext): FolioClient<M> {
  const reads = singleReads<M>(ctx);
  return {
    cv: ctx.pinnedCv,
    localePrefixes: ctx.localePrefixes ?? undefined,
    at(cv) {
      if (!Number.isInteger(cv) || cv < 1)
        throw new RangeError(`client.at: cv is a positive integer, not ${cv}`);
      return clientOf<M>({ ...ctx, pinnedCv: cv });
    },
    entries: entriesResource<M>(ctx),
    globals: globalsResource<M>(ctx),
    menus: menusResource<M>(ctx),
    lists: optionListsResource(ctx),
    forms: formsResource(ctx),
    status: reads.status,
    redirects: reads.redirects,
    sitemap: reads.sitemap,
    tree: reads.tree,
    search: reads.search,
    types: reads.types,
    sync: (options = {}) => syncFeed(ctx, options),
  };
}

// @folio/client: a typed client of Folio's delivery API (ESM, no dependencies; Node 20, browsers, edge runtimes).

export { createClient, DEFAULT_CACHE_ENTRIES, type ClientOptions, type FolioClient } from './client.js';
export { FolioApiError } from './errors.js';
export { findIncluded, type WithIncluded } from './included.js';
export {
  checkLocalePrefixes,
  type LocalePrefixes,
  type PrefixedAnswer,
  sitePath,
  splitSitePath,
} from './locale-prefixes.js';
export { responseInfo, type ResponseInfo } from './response-info.js';
export type { FetchLike } from './http.js';
export type {
  CallOptions,
  EntryListQuery,
  EntryReadOptions,
  FilterOps,
  FilterScalar,
  LocaleOptions,
  PinOptions,
  PreviewOptions,
} from './query.js';
export type {
  GlobalsOptions,
  GlobalsResource,
  MenusOptions,
  MenusResource,
  OptionListsResource,
  RedirectsOptions,
  SearchOptions,
  SitemapOptions,
  TreeOptions,
  ViewOptions,
} from './resources/content.js';
export type { CursorList } from './resources/cursor-list.js';
export type {
  EntriesResource,
  EntryList,
  EntryReadOptionsOf,
  TypedListQuery,
  TypedReadOptions,
} from './resources/entries.js';
export type { FormReadOptions, FormsResource, SubmitOptions, UploadOptions } from './resources/forms.js';
export type {
  SyncChange,
  SyncChangedItem,
  SyncDeletedItem,
  SyncFeed,
  SyncOptions,
  SyncPage,
} from './resources/sync.js';
export type { RetryOptions } from './retry.js';
export type * from './typed-keys.js';
export type * from './types.js';
export type * from './values.js';
export * from './render/index.js';

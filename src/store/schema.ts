import type { ColumnType } from 'kysely';

/** JSON columns: `jsonb` on PostgreSQL (returned parsed), `text` on SQLite (returned as a string). Written as a
 * JSON string on both; read through `dialect.parseJson`. Only objects and arrays are stored in them. */
export type JsonColumn = ColumnType<unknown, string, string>;
export type NullableJsonColumn = ColumnType<unknown, string | null, string | null>;

export interface SpacesTable {
  id: string;
  name: string;
  settings: JsonColumn;
  /** The current cache version; the only contended write (DESIGN.md "published log"). */
  cv: number;
  /** Oldest cv still answerable; older pinned requests get 410 cv_expired. */
  min_cv: number;
  created_at: string;
}

export interface TokensTable {
  id: string;
  space_id: string;
  kind: 'public' | 'preview' | 'management';
  /** sha256 of the token; the token itself is never stored. */
  hash: string;
  /** First characters of the token, to recognise it in listings. */
  hint: string;
  name: string | null;
  origins: JsonColumn;
  created_at: string;
}

export interface ContentTypesTable {
  space_id: string;
  key: string;
  kind: string;
  position: number;
  def: JsonColumn;
}

/** Authoring state of an entry: published fields (null = not published) beside the draft. */
export interface EntriesTable {
  space_id: string;
  id: string;
  type: string;
  name: string;
  slug: string;
  slugs: JsonColumn;
  parent_id: string | null;
  position: number;
  tags: JsonColumn;
  published_fields: NullableJsonColumn;
  draft_fields: NullableJsonColumn;
  published_at: string | null;
  first_published_at: string | null;
  created_at: string;
  updated_at: string;
}

/** The published log of entries: a version is visible at cv when cv_from <= cv < cv_to (or cv_to is null). */
export interface EntryVersionsTable {
  space_id: string;
  entry_id: string;
  cv_from: number;
  cv_to: number | null;
  type: string;
  type_kind: string;
  parent_id: string | null;
  position: number;
  name: string;
  published_at: string;
  first_published_at: string;
  doc: JsonColumn;
}

/** Derived from the log: the path of a published page per locale, lower-cased for matching. */
export interface EntryPathsTable {
  space_id: string;
  locale: string;
  path_key: string;
  entry_id: string;
  cv_from: number;
  cv_to: number | null;
}

export interface AssetsTable {
  space_id: string;
  id: string;
  blob_key: string;
  doc: JsonColumn;
  created_at: string;
}

/** Authoring documents that are not entries: menus, redirects, lists, forms, releases, webhooks. */
export interface DocsTable {
  space_id: string;
  kind: string;
  key: string;
  position: number;
  doc: JsonColumn;
  updated_at: string;
}

/** The published log of everything delivered that is not an entry: types, assets, lists, menus, forms, … */
export interface DocVersionsTable {
  space_id: string;
  kind: string;
  key: string;
  cv_from: number;
  cv_to: number | null;
  doc: JsonColumn;
}

export interface Database {
  spaces: SpacesTable;
  tokens: TokensTable;
  content_types: ContentTypesTable;
  entries: EntriesTable;
  entry_versions: EntryVersionsTable;
  entry_paths: EntryPathsTable;
  assets: AssetsTable;
  docs: DocsTable;
  doc_versions: DocVersionsTable;
  outbox: OutboxTable;
  secrets: SecretsTable;
}

export interface OutboxTable {
  id: string;
  space_id: string;
  /** What runs it: `event` (fans out to webhooks), `email`, `chat`, `webhook`, … */
  kind: string;
  payload: JsonColumn;
  status: 'pending' | 'done' | 'dead';
  attempts: number;
  run_at: string;
  locked_until: string | null;
  locked_by: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface SecretsTable {
  name: string;
  value: string;
}

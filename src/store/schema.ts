import type { ColumnType, Generated } from 'kysely';
import type {
  FormDraftsTable,
  SubmissionTalliesTable,
  SubmissionQuartersTable,
  InboxSessionsTable,
  SubmissionsTable,
  FormCountersTable,
  UploadsTable,
  NotificationSendsTable,
  SubmissionNotesTable,
  SubmissionAddressesTable,
  ActivityLogTable,
  SubmissionReadsTable,
  SubmissionOptionsTable,
  SubmissionOptionTalliesTable,
} from './forms-schema.js';

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
  /** Goes up with every token revocation (migration 0010): instances drop that space's cached token lookups. */
  token_gen: Generated<number>;
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
  /** Management tokens: JSON array of scopes; NULL = every scope (tokens from before migration 0009). */
  scopes: NullableJsonColumn;
  /** The person a management token stands for (migration 0027); null: a tool's token. */
  person_name: ColumnType<string | null, string | null | undefined, string | null>;
  person_email: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1: a public token made for a site's server, which may name its visitor (migration 0029); else 0. */
  server_side: ColumnType<number, number | undefined, number>;
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

/**
 * Derived from the log: what an entry version shows of other documents (`link`, `ref` with the reference field's
 * key in `field`, `asset`, `form`), plus one `version` row per indexed version; read backwards by `/sync`.
 */
export interface EntryDepsTable {
  space_id: string;
  entry_id: string;
  cv_from: number;
  cv_to: number | null;
  kind: 'version' | 'link' | 'ref' | 'asset' | 'form';
  target: string;
  field: string;
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
  list_entries: ListEntriesTable;
  list_values: ListValuesTable;
  list_rows: ListRowsTable;
  redirects: RedirectsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  submissions: SubmissionsTable;
  form_counters: FormCountersTable;
  uploads: UploadsTable;
  notification_sends: NotificationSendsTable;
  submission_notes: SubmissionNotesTable;
  submission_addresses: SubmissionAddressesTable;
  activity_log: ActivityLogTable;
  folio_reindex: ReindexTable;
  search_embeddings: SearchEmbeddingsTable;
  search_state: SearchStateTable;
  derived_images: DerivedImagesTable;
  inbox_sessions: InboxSessionsTable;
  submission_tallies: SubmissionTalliesTable;
  submission_quarters: SubmissionQuartersTable;
  form_drafts: FormDraftsTable;
  entry_deps: EntryDepsTable;
  submission_reads: SubmissionReadsTable;
  submission_options: SubmissionOptionsTable;
  submission_option_tallies: SubmissionOptionTalliesTable;
}

/**
 * A derived image kept in the blob store (migration 0018): what the budget counts and evicts,
 * least recently used first, and what the sweep drops once its asset (`source_key`: the original's blob) is gone.
 */
export interface DerivedImagesTable {
  blob_key: string;
  space_id: string;
  asset_id: string;
  source_key: string;
  size: number;
  /** ISO time of the last use written (uses are batched: src/assets/derived-images.ts). */
  used_at: string;
}

/** The version each reindex step last built (src/store/reindex.ts; migrations 0007, 0014). */
export interface ReindexTable {
  step: string;
  version: number;
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
  /**
   * The submission the job is about (migration 0019): its `form.submitted` event, the webhook deliveries of that
   * event, its notifications. Deleted with the submission; null for every other job.
   */
  submission_id: string | null;
}

export interface SecretsTable {
  name: string;
  value: string;
}

/** Redirects (spec 2.6), versioned like the published log: visible at cv when cv_from <= cv < cv_to. */
export interface RedirectsTable {
  space_id: string;
  id: string;
  cv_from: number;
  cv_to: number | null;
  /** null: shared by every locale. */
  locale: string | null;
  from_path: string;
  /** `pathKey(from_path)`: matching ignores case, a trailing slash and the query (spec 2.6 rule 5). */
  from_key: string;
  /** Target entry, resolved to its current path at read time (spec 2.6 rule 2: no chains). */
  to_entry: string | null;
  to_url: string | null;
  /** 301 or 302; 410 when the target entry was deleted. */
  status: number;
  source: 'manual' | 'auto';
  position: number;
  created_at: string;
}

/** Webhook endpoints (spec 6), signed per Standard Webhooks with their `whsec_` secret. */
export interface WebhooksTable {
  id: string;
  space_id: string;
  url: string;
  events: JsonColumn;
  secret: string;
  enabled: number;
  disabled_reason: string | null;
  position: number;
  created_at: string;
  updated_at: string;
}

/** One row per delivery attempt of an event to an endpoint. */
export interface WebhookDeliveriesTable {
  id: string;
  space_id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status_code: number | null;
  ok: number;
  duration_ms: number;
  error: string | null;
  at: string;
}

/** Entry lists (migration 0003): one narrow row per entry version, globals excluded; cv_to 2147483647 = open. */
export interface ListEntriesTable {
  id: Generated<number>;
  space_id: string;
  entry_id: string;
  cv_from: number;
  cv_to: number;
  type: string;
  kind: string;
  parent_id: string | null;
  position: number;
  name: string;
  published_at: string;
  first_published_at: string;
  /** JSON: locale → path (migration 0007); null without paths. */
  paths: string | null;
  /** JSON: the locales whose SEO field says noindex (spec 2.7); null when none. */
  noindex: string | null;
}

/** Filterable values of a list_entries row per locale (`*`: the same in every locale), see migration 0003. */
export interface ListValuesTable {
  space_id: string;
  vid: number;
  cv_from: number;
  cv_to: number;
  type: string;
  key: string;
  loc: string;
  str: string | null;
  num: number | null;
}

/** One wide row per list version and locale with its slotted field values, see migration 0007. */
export interface ListRowsTable {
  space_id: string;
  vid: number;
  loc: string;
  cv_from: number;
  cv_to: number;
  type: string;
  published_at: string;
  entry_id: string;
  s1: string | null;
  s2: string | null;
  s3: string | null;
  s4: string | null;
  n1: number | null;
  n2: number | null;
  n3: number | null;
  n4: number | null;
}

/** A chunk of an entry version's text in one locale, embedded by one model (migration 0015). */
export interface SearchEmbeddingsTable {
  /** PostgreSQL answers its bigint as a string. */
  seq: Generated<number | string>;
  space_id: string;
  model: string;
  locale: string;
  entry_id: string;
  cv_from: number;
  chunk: number;
  text_hash: string;
  /** Packed little-endian float32, unit length. */
  vector: Uint8Array;
}

/** How far a space's semantic index is (migration 0015). */
export interface SearchStateTable {
  space_id: string;
  model: string;
  indexed_cv: number;
  pruned_cv: number;
  revision: number;
  generation: number;
}

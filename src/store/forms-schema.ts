import type { ColumnType, Generated } from 'kysely';
import type { JsonColumn } from './schema.js';

/**
 * Tables of visitors' data and the work on it: submissions with their files, addresses, notes and counters, the
 * inbox's sessions and tallies, notification sends, plain posts' drafts and the activity log. Split from schema.ts
 * (which holds content, delivery and the `Database` map) so each file stays readable; `Database` names them all.
 */
/** A failed plain post's values, kept ten minutes for one read (migration 0023). */
export interface FormDraftsTable {
  id: string;
  space_id: string;
  form_key: string;
  /** JSON text: field key → value (no file fields). */
  values: string;
  expires_at: string;
}

/** Submissions per form, folder and status, kept by triggers on `submissions` (migration 0022). */
export interface SubmissionTalliesTable {
  space_id: string;
  form_key: string;
  folder: string;
  status: string;
  n: number;
}

/** Submissions per form, folder and UTC quarter hour (`YYYY-MM-DDTHH:q`), kept by triggers (migration 0022). */
export interface SubmissionQuartersTable {
  space_id: string;
  form_key: string;
  folder: string;
  quarter: string;
  n: number;
}

/** Browser sessions of the inbox (migration 0021): a management token's authority behind a cookie. */
export interface InboxSessionsTable {
  /** sha256 of the session id; the id itself is only in the browser's cookie. */
  id_hash: string;
  space_id: string;
  token_id: string;
  /** sha256 of the token, as `tokens.hash`: the session stands for that token and no other. */
  token_hash: string;
  created_at: string;
  last_seen_at: string;
  /** Idle limit: the session ends unless used before then. */
  expires_at: string;
}

/** A stored form submission (spec 2.13): visible values, page, language, user agent, consent; never the IP. */
export interface SubmissionsTable {
  id: string;
  space_id: string;
  form_key: string;
  folder: 'inbox' | 'spam';
  values: JsonColumn;
  page: string | null;
  locale: string;
  user_agent: string | null;
  consent: JsonColumn;
  unique_key: string | null;
  created_at: string;
  delete_after: string;
  /** Inbox status (migration 0009): new, read, done, archived. */
  status: Generated<'new' | 'read' | 'done' | 'archived'>;
  /** The person the submission is assigned to, as the caller named them. */
  assignee: string | null;
  /** The last inbox change (status, assignment, folder, notes); null until the first. */
  updated_at: string | null;
  /** The space's cv when it was accepted (migration 0018): its form version; null for older rows. */
  form_cv: ColumnType<number | null, number | null | undefined, number | null>;
  /** The person (a management token id) it is assigned to (migration 0027); null: unassigned. */
  assignee_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Its values folded for search (src/lib/search-fold.ts); null only for rows the reindex step has not reached. */
  search_text: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1: its addresses were written with it (migration 0030); null: stored by an older binary, the backfill's. */
  addresses_indexed: ColumnType<number | null, number | null | undefined, number | null>;
}

/** Who opened which submission (migration 0027); `folder` follows the submission's (triggers). */
export interface SubmissionReadsTable {
  submission_id: string;
  /** The reading management token's id: the person. */
  reader_id: string;
  space_id: string;
  form_key: string;
  folder: string;
  read_at: string;
}

/** An option a submission chose, per choice field (migration 0027); folder and status follow the submission's. */
export interface SubmissionOptionsTable {
  submission_id: string;
  space_id: string;
  form_key: string;
  field_key: string;
  value: string;
  folder: string;
  status: string;
  created_at: string;
}

/** Stored non-spam submissions per form: the capacity check locks this row (spec 3.1 "full"). */
export interface FormCountersTable {
  space_id: string;
  form_key: string;
  count: number;
}

/** A file uploaded for a form's file field (spec 2.14, 3.3); migration 0008. */
export interface UploadsTable {
  id: string;
  space_id: string;
  form_key: string;
  field_key: string;
  /** The file name as sent, made safe for display (never used as a path). */
  name: string;
  size: number;
  /** The sniffed media type (spec 4.4 rule 5: the file's actual content). */
  type: string;
  blob_key: string;
  created_at: string;
  /** Unclaimed uploads are deleted after this (spec 3.3: one day). */
  expires_at: string;
  /** The submission that claimed it; null while unclaimed. */
  submission_id: string | null;
}

/** One message of a submission's notifications per recipient (`id` = the outbox job id); migration 0008. */
export interface NotificationSendsTable {
  id: string;
  space_id: string;
  submission_id: string;
  channel: string;
  state: 'sending' | 'sent';
  message_id: string | null;
  updated_at: string;
}

/** A note on a submission: deleted with the submission. */
export interface SubmissionNotesTable {
  id: string;
  space_id: string;
  submission_id: string;
  text: string;
  author: string;
  created_at: string;
}

/**
 * An address in a submission's email fields, normalized as compared (migration 0020): erase finds
 * submissions by it. Deleted with the submission.
 */
export interface SubmissionAddressesTable {
  submission_id: string;
  space_id: string;
  address: string;
}

/** Management actions on forms, submissions and tokens: who, when, counts; never submission data. */
export interface ActivityLogTable {
  id: string;
  space_id: string;
  at: string;
  actor: string;
  action: string;
  subject: string | null;
  details: JsonColumn;
}

/** Chosen options per form, field, value, folder and status, kept by triggers on `submission_options` (0027). */
export interface SubmissionOptionTalliesTable {
  space_id: string;
  form_key: string;
  field_key: string;
  value: string;
  folder: string;
  status: string;
  n: number;
}

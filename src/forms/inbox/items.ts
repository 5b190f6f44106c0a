// What the inbox answers for a submission and a note, rebuilt from stored rows: JSON columns are checked, not cast
// (a row this version cannot read gives empty values rather than a wrong type).

import type { ConsentRecord } from '../submission/submissions-repo.js';
import { type InboxFolder, type SubmissionStatus, isFolder, isSubmissionStatus } from './statuses.js';

export interface InboxItem {
  id: string;
  form: string;
  folder: InboxFolder;
  status: SubmissionStatus;
  /** The person it is assigned to (a management token id), or null. */
  assignee: string | null;
  /** That person's name now; for an assignment made before people existed, the name given then; null: unassigned. */
  assigneeName: string | null;
  /** Whether the calling person has opened it (marks are per person). */
  read: boolean;
  values: Record<string, unknown>;
  page: string | null;
  locale: string;
  userAgent: string | null;
  consent: Record<string, ConsentRecord>;
  createdAt: string;
  updatedAt: string | null;
  deleteAfter: string;
  noteCount: number;
  /** The space's cv when it was accepted (its form version: `GET …/forms/<key>/published?cv=`); null before 0018. */
  formCv: number | null;
}

export interface InboxNote {
  id: string;
  text: string;
  author: string;
  createdAt: string;
}

/** A submissions row with its note count, as the inbox selects it. */
export interface ItemRow {
  id: string;
  form_key: string;
  folder: string;
  status: string;
  assignee: string | null;
  assignee_id?: string | null;
  is_read?: unknown;
  values: unknown;
  page: string | null;
  locale: string;
  user_agent: string | null;
  consent: unknown;
  created_at: string;
  updated_at: string | null;
  delete_after: string;
  note_count: unknown;
  form_cv?: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `parseJson` is the engine's JSON reading (text on SQLite, already parsed on PostgreSQL). */
export function toItem(
  row: ItemRow,
  parseJson: (value: unknown) => unknown,
  people: ReadonlyMap<string, string> = new Map(),
): InboxItem {
  // Written by this service only (CHECK-less columns): an unknown value is a bug worth a 500, not a guess.
  if (!isFolder(row.folder) || !isSubmissionStatus(row.status))
    throw new Error(`submission ${row.id} has folder "${row.folder}" and status "${row.status}"`);
  const values = parseJson(row.values);
  return {
    id: row.id,
    form: row.form_key,
    folder: row.folder,
    status: row.status,
    assignee: row.assignee_id ?? null,
    // A person whose token was revoked has no name left: the id stands in.
    assigneeName:
      row.assignee_id === null || row.assignee_id === undefined
        ? row.assignee
        : (people.get(row.assignee_id) ?? null),
    read: row.is_read === true || Number(row.is_read ?? 0) === 1,
    values: isRecord(values) ? values : {},
    page: row.page,
    locale: row.locale,
    userAgent: row.user_agent,
    consent: consentOf(parseJson(row.consent)),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deleteAfter: row.delete_after,
    noteCount: Number(row.note_count ?? 0),
    formCv: row.form_cv === null || row.form_cv === undefined ? null : Number(row.form_cv),
  };
}

/** The consent wording per consent field (spec 2.10); entries of another shape are left out. */
function consentOf(value: unknown): Record<string, ConsentRecord> {
  const out: Record<string, ConsentRecord> = {};
  if (!isRecord(value)) return out;
  for (const [key, entry] of Object.entries(value)) {
    if (!isRecord(entry) || typeof entry.label !== 'string') continue;
    const link = entry.link;
    out[key] =
      isRecord(link) && typeof link.label === 'string' && typeof link.url === 'string'
        ? { label: entry.label, link: { label: link.label, url: link.url } }
        : { label: entry.label };
  }
  return out;
}

export function toNote(row: { id: string; text: string; author: string; created_at: string }): InboxNote {
  return { id: row.id, text: row.text, author: row.author, createdAt: row.created_at };
}

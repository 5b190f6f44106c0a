// Request bodies of the inbox, parsed member by member into typed values (STYLE.md rule 13): wrong types,
// out-of-range lengths and unknown members answer 400 `invalid_body` with `details.member`.

import { ID_PATTERN } from '../../lib/ids.js';
import { FolioError, invalidBody } from '../../errors/errors.js';
import { hasUnstorableText } from '../submission/controls.js';
import { type InboxFilter, parseInboxFilter } from './filter.js';
import { SUBMISSION_STATUSES, type SubmissionStatus, isSubmissionStatus } from './statuses.js';

export const MAX_NOTE_LENGTH = 5000;
export const MAX_AUTHOR_LENGTH = 200;
/** Ids one bulk call may name. */
export const MAX_BULK_IDS = 1000;

export interface SubmissionChange {
  status?: SubmissionStatus;
  /** A person's id (their management token's); null: unassigned. Checked against the space's people by the caller. */
  assignee?: string | null;
}

export interface NoteInput {
  text: string;
  /** As the caller names the author; undefined: the person of the calling token. */
  author?: string;
}

export type BulkAction =
  | { kind: 'status'; status: SubmissionStatus }
  | { kind: 'assign'; assignee: string | null }
  | { kind: 'delete' }
  | { kind: 'spam' }
  | { kind: 'not_spam' }
  | { kind: 'read' }
  | { kind: 'unread' };

export type BulkTarget = { kind: 'ids'; ids: string[] } | { kind: 'filter'; filter: InboxFilter };

export interface BulkInput {
  action: BulkAction;
  target: BulkTarget;
}

export const BULK_ACTIONS = ['status', 'assign', 'delete', 'spam', 'not_spam', 'read', 'unread'] as const;

const invalid = (member: string, message: string): FolioError =>
  invalidBody(message, { details: { member } });

function objectBody(body: unknown, allowed: readonly string[], shape: string): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalid('', `Send a JSON object: ${shape}.`);
  const record = body as Record<string, unknown>;
  const unknown = Object.keys(record).find((k) => !allowed.includes(k));
  if (unknown !== undefined)
    throw invalid(unknown.slice(0, 60), `Unknown member "${unknown.slice(0, 60)}"; send ${shape}.`);
  return record;
}

/** A name or text of 1 to `max` characters that is not blank; `trim` drops surrounding spaces first. */
function textMember(record: Record<string, unknown>, member: string, max: number, trim: boolean): string {
  const raw = record[member];
  if (typeof raw !== 'string') throw invalid(member, `"${member}" must be a string.`);
  const value = trim ? raw.trim() : raw;
  if (value.trim() === '') throw invalid(member, `"${member}" must not be empty.`);
  if ([...value].length > max) throw invalid(member, `"${member}" has more than ${max} characters.`);
  // PostgreSQL's text refuses NUL and unpaired surrogates: refused here for both engines alike.
  if (hasUnstorableText(value)) throw invalid(member, `"${member}" holds characters that cannot be stored.`);
  return value;
}

function statusMember(record: Record<string, unknown>): SubmissionStatus {
  const raw = record.status;
  if (!isSubmissionStatus(raw))
    throw invalid('status', `"status" must be one of ${SUBMISSION_STATUSES.join(', ')}.`);
  return raw;
}

/** An assignee is a person of the space, by id (`tok_…`: people are on management tokens), or null to unassign. */
function assigneeMember(record: Record<string, unknown>): string | null {
  const raw = record.assignee;
  if (raw === null) return null;
  if (typeof raw !== 'string' || !ID_PATTERN.test(raw))
    throw invalid('assignee', '"assignee" must be a person\'s id (tok_…, from GET /people) or null.');
  return raw;
}

/** `PATCH …/submissions/<id>`: `{ status?, assignee? }`, at least one. */
export function parseChange(body: unknown): SubmissionChange {
  const record = objectBody(body, ['status', 'assignee'], '{ status?, assignee? }');
  const change: SubmissionChange = {};
  if (record.status !== undefined) change.status = statusMember(record);
  if (record.assignee !== undefined) change.assignee = assigneeMember(record);
  if (change.status === undefined && change.assignee === undefined)
    throw invalid('', 'Send "status", "assignee" or both.');
  return change;
}

/** `POST …/notes`: `{ text, author? }`; the text is kept as written, the author trimmed. */
export function parseNote(body: unknown): NoteInput {
  const record = objectBody(body, ['text', 'author'], '{ text, author? }');
  const text = textMember(record, 'text', MAX_NOTE_LENGTH, false);
  return record.author === undefined
    ? { text }
    : { text, author: textMember(record, 'author', MAX_AUTHOR_LENGTH, true) };
}

/**
 * `POST …/submissions/bulk`: `{ action, status?, assignee?, ids? | filter? }`. `status` belongs to (and is needed
 * by) `status`, `assignee` to `assign`; exactly one of `ids` (1–1000 submission ids) and `filter` (the list's
 * query parameters as an object of strings).
 */
export function parseBulk(body: unknown): BulkInput {
  const record = objectBody(
    body,
    ['action', 'status', 'assignee', 'ids', 'filter'],
    '{ action, status?, assignee?, ids? | filter? }',
  );
  const kind = BULK_ACTIONS.find((a) => a === record.action);
  if (kind === undefined) throw invalid('action', `"action" must be one of ${BULK_ACTIONS.join(', ')}.`);
  if (kind !== 'status' && record.status !== undefined)
    throw invalid('status', '"status" belongs to the action "status" only.');
  if (kind !== 'assign' && record.assignee !== undefined)
    throw invalid('assignee', '"assignee" belongs to the action "assign" only.');
  let action: BulkAction;
  if (kind === 'status') action = { kind, status: statusMember(record) };
  else if (kind === 'assign') {
    if (record.assignee === undefined)
      throw invalid('assignee', '"assign" needs "assignee" (a person\'s id or null).');
    action = { kind, assignee: assigneeMember(record) };
  } else action = { kind };
  return { action, target: parseTarget(record) };
}

function parseTarget(record: Record<string, unknown>): BulkTarget {
  const { ids, filter } = record;
  if ((ids === undefined) === (filter === undefined))
    throw invalid('ids', 'Send exactly one of "ids" and "filter".');
  if (ids !== undefined) {
    if (!Array.isArray(ids) || ids.length === 0 || ids.length > MAX_BULK_IDS)
      throw invalid('ids', `"ids" must be a list of 1 to ${MAX_BULK_IDS} submission ids.`);
    const list: string[] = [];
    for (const [i, id] of ids.entries()) {
      if (typeof id !== 'string' || !ID_PATTERN.test(id))
        throw invalid(`ids[${i}]`, `"ids[${i}]" is not a submission id.`);
      list.push(id);
    }
    return { kind: 'ids', ids: list };
  }
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter))
    throw invalid('filter', '"filter" must be an object of the list\'s query parameters.');
  try {
    return { kind: 'filter', filter: parseInboxFilter(filter as Record<string, unknown>) };
  } catch (err) {
    // The filter's own messages name the parameter; in a body it is a member of `filter`.
    if (err instanceof FolioError && err.code === 'invalid_query') {
      const parameter = err.details?.parameter;
      throw invalid(`filter.${typeof parameter === 'string' ? parameter : ''}`, `filter: ${err.message}`);
    }
    throw err;
  }
}

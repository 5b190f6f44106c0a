// The inbox's filters (spec 4.5 "read the inbox (statuses, search, …)"): parsed from a query string (the
// list, the export) or from a bulk call's `filter` object, then added to a Kysely select on `submissions`
// (filter-repo.ts, re-exported here so callers import one module). Parsing imports no SQL and no Fastify.

import { invalidQuery } from '../../errors/errors.js';
import { hasUnstorableText } from '../submission/controls.js';
import { KEY_FORMAT } from '../definition/index.js';
import { ID_PATTERN } from '../../lib/ids.js';
import { foldForSearch } from '../../lib/search-fold.js';
import {
  type InboxFolder,
  SUBMISSION_STATUSES,
  type SubmissionStatus,
  isFolder,
  isSubmissionStatus,
} from './statuses.js';

export { applyInboxFilter } from './filter-repo.js';

/** Search text, in characters (code points). */
export const MAX_SEARCH_LENGTH = 200;
/** `field[<key>]=<value>` parameters per call. */
export const MAX_FIELD_FILTERS = 10;
/** A `field[…]` value, in characters: longer values are not worth comparing exactly. */
export const MAX_FIELD_VALUE_LENGTH = 500;
/** `any`: no condition; `unassigned`: `assignee=` (empty); `is`: assigned to this person (a token id). */
export type AssigneeFilter = { kind: 'any' } | { kind: 'unassigned' } | { kind: 'is'; id: string };

/** Which of one form's submissions a list, an export or a bulk action covers (space and form are the caller's). */
export interface InboxFilter {
  folder: InboxFolder;
  /** Any of these statuses; null: every status. */
  statuses: readonly SubmissionStatus[] | null;
  /** A substring of a stored value (not of a field key), folded (src/lib/search-fold.ts); null: no search. */
  q: string | null;
  /** `created_at >= from`, as a UTC ISO timestamp (the stored format, so text order is time order); null: open. */
  from: string | null;
  /** `created_at < to` (exclusive); null: open. */
  to: string | null;
  assignee: AssigneeFilter;
  /** Each: the stored value equals `value`, or the stored list contains it. All must hold. */
  fields: readonly { key: string; value: string }[];
}

/** The parameter names parseInboxFilter reads (besides `field[<key>]`). */
export const INBOX_FILTER_PARAMS = ['folder', 'status', 'q', 'from', 'to', 'assignee'] as const;

const FIELD_PARAM = /^field\[(.*)\]$/s;

/** Whether a query parameter (or bulk `filter` member) is one of the filters. */
export function isInboxFilterParam(name: string): boolean {
  return (INBOX_FILTER_PARAMS as readonly string[]).includes(name) || FIELD_PARAM.test(name);
}

/**
 * Parses the filters from a query string (as Fastify parses it: strings, arrays for repeated names) or a bulk
 * `filter` object with the same members. Every member must be a filter: callers take their own parameters out
 * first (the list its `limit` and `cursor`, the export its `format`), so a typo answers 400 instead of a wider
 * result. Throws `invalid_query` (with `details.parameter`) on anything else.
 */
export function parseInboxFilter(query: Record<string, unknown>): InboxFilter {
  const fields: { key: string; value: string }[] = [];
  for (const name of Object.keys(query)) {
    if ((INBOX_FILTER_PARAMS as readonly string[]).includes(name)) continue;
    const m = FIELD_PARAM.exec(name);
    if (!m) throw invalidQuery(`Unknown parameter "${name.slice(0, 60)}".`, name);
    const key = m[1] ?? '';
    if (!KEY_FORMAT.test(key)) throw invalidQuery(`"${name.slice(0, 60)}" does not name a field key.`, name);
    const value = text(query, name, MAX_FIELD_VALUE_LENGTH) ?? '';
    fields.push({ key, value });
  }
  if (fields.length > MAX_FIELD_FILTERS)
    throw invalidQuery(`At most ${MAX_FIELD_FILTERS} field[…] filters.`, 'field');
  return {
    folder: parseFolder(query),
    statuses: parseStatuses(query),
    q: parseSearch(query),
    ...parseRange(query),
    assignee: parseAssignee(query),
    fields,
  };
}

/** One string of the parameter: repeated names (arrays) and non-strings (bulk bodies) are refused. */
function text(query: Record<string, unknown>, name: string, max: number): string | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw invalidQuery(`Parameter "${name}" must be one string.`, name);
  // PostgreSQL's text refuses NUL and unpaired surrogates: a 400 here, not a 500 there.
  if (hasUnstorableText(v))
    throw invalidQuery(`Parameter "${name}" holds characters that cannot be stored.`, name);
  if ([...v].length > max) throw invalidQuery(`Parameter "${name}" has more than ${max} characters.`, name);
  return v;
}

function parseFolder(query: Record<string, unknown>): InboxFolder {
  const raw = text(query, 'folder', 10) ?? 'inbox';
  if (!isFolder(raw)) throw invalidQuery('Parameter "folder" must be inbox or spam.', 'folder');
  return raw;
}

function parseStatuses(query: Record<string, unknown>): SubmissionStatus[] | null {
  const raw = text(query, 'status', 100);
  if (raw === undefined) return null;
  const out: SubmissionStatus[] = [];
  for (const part of raw.split(',').map((s) => s.trim())) {
    if (!isSubmissionStatus(part))
      throw invalidQuery(
        `Parameter "status" takes a comma list of ${SUBMISSION_STATUSES.join(', ')}.`,
        'status',
      );
    if (!out.includes(part)) out.push(part);
  }
  return out;
}

/**
 * Folded as the stored copy is (case, accents, width, invisible characters), surrounding spaces dropped; an empty
 * `q` (a cleared search box) is no search.
 */
function parseSearch(query: Record<string, unknown>): string | null {
  const raw = text(query, 'q', MAX_SEARCH_LENGTH);
  const q = foldForSearch(raw ?? '').trim();
  return q === '' ? null : q;
}

function parseAssignee(query: Record<string, unknown>): AssigneeFilter {
  const raw = text(query, 'assignee', 100);
  if (raw === undefined) return { kind: 'any' };
  if (raw === '') return { kind: 'unassigned' };
  if (!ID_PATTERN.test(raw))
    throw invalidQuery(
      'Parameter "assignee" must be a person\'s id (tok_…), or empty for unassigned.',
      'assignee',
    );
  return { kind: 'is', id: raw };
}

function parseRange(query: Record<string, unknown>): { from: string | null; to: string | null } {
  const from = instant(query, 'from');
  const to = instant(query, 'to');
  if (from !== null && to !== null && from > to)
    throw invalidQuery('Parameter "from" must not be after "to".', 'from');
  return { from, to };
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * A date (`2026-03-15`: midnight UTC) or a timestamp with a zone (`2026-03-15T09:30:00+01:00`, `…Z`), as the
 * stored UTC format. A timestamp without a zone is refused rather than read in some server's time zone; calendar
 * checks are ours, since `Date.parse` rolls 2026-02-30 over into March.
 */
function instant(query: Record<string, unknown>, name: 'from' | 'to'): string | null {
  const raw = text(query, name, 40);
  if (raw === undefined) return null;
  const bad = () =>
    invalidQuery(
      `Parameter "${name}" must be a date (YYYY-MM-DD) or a timestamp with a zone (…T10:00:00Z).`,
      name,
    );
  const m = DATE.exec(raw) ?? TIMESTAMP.exec(raw);
  if (!m) throw bad();
  const part = (i: number): number => Number(m[i] ?? 0);
  const [year, month, day, hour, minute, second] = [part(1), part(2), part(3), part(4), part(5), part(6)];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 59)
    throw bad();
  const millis = (m[7] ?? '').padEnd(3, '0').slice(0, 3);
  const zone = (m[8] ?? 'Z').toUpperCase();
  const pad = (n: number) => String(n).padStart(2, '0');
  const iso = `${m[1]}-${m[2]}-${m[3]}T${pad(hour)}:${pad(minute)}:${pad(second)}.${millis}${zone}`;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw bad();
  const out = new Date(ms).toISOString();
  // An offset can move year 0000 or 9999 out of the four-digit years that order as text.
  if (!/^\d{4}-/.test(out)) throw bad();
  return out;
}

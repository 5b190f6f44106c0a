/**
 * The inbox, exports, files and erasure (docs/api.md "Inbox", "Exports", "Files of submissions", "POST
 * …/forms/erase"), for the OpenAPI document. Bodies and filters are checked by hand (400 `invalid_body` with
 * `details.member`, 400 `invalid_query` with `details.parameter`); these schemas only describe them.
 */
import {
  MANAGEMENT_ERRORS,
  MANAGEMENT_SECURITY,
  object,
  operation,
  pathParams,
  Q,
  S,
  SPACE_ID,
} from '../../lib/api-schema.js';
import { FOLDERS, SUBMISSION_STATUSES } from './statuses.js';

/** What `from` and `to` take (src/forms/inbox/filter.ts): a date, or a timestamp with a zone. */
const INSTANT_PATTERN =
  '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?([Zz]|[+-]\\d{2}:\\d{2}))?$';

/** Stored submissions: a management token with `forms.read` (tag `inbox`). */
export const inboxOperation = operation({
  tags: ['inbox'],
  security: MANAGEMENT_SECURITY,
  errors: MANAGEMENT_ERRORS,
});

const KEY = "The form's key (a deleted form's submissions stay until their `deleteAfter`).";
export const INBOX_PARAMS = pathParams({ spaceId: SPACE_ID, key: KEY });
export const SUBMISSION_PARAMS = pathParams({
  spaceId: SPACE_ID,
  key: KEY,
  id: 'The submission id (`sub_…`).',
});
export const NOTE_PARAMS = pathParams({
  spaceId: SPACE_ID,
  key: KEY,
  id: 'The submission id (`sub_…`).',
  noteId: 'The note id (`nte_…`).',
});
export const FILE_PARAMS = pathParams({
  spaceId: SPACE_ID,
  key: KEY,
  submissionId: 'The submission id (`sub_…`).',
  uploadId: 'The upload id (`fup_…`) the submission names.',
});

const status = { type: 'string', enum: [...SUBMISSION_STATUSES] };
const folder = { type: 'string', enum: [...FOLDERS] };

/** The inbox filters: query parameters of the list and the export, members of a bulk `filter`. */
export const INBOX_FILTERS = {
  folder: Q.oneOf(FOLDERS, '`inbox` (default) or `spam`.'),
  status: {
    ...Q.pattern(
      `^\\s*(${SUBMISSION_STATUSES.join('|')})\\s*(,\\s*(${SUBMISSION_STATUSES.join('|')})\\s*)*$`,
      `A comma list of statuses (${SUBMISSION_STATUSES.join(', ')}): any of them.`,
    ),
    maxLength: 100,
  },
  q: {
    type: 'string',
    maxLength: 200,
    description:
      'Text, at most 200 characters: a stored value containing it, ignoring case, accents and width.',
  },
  from: Q.pattern(
    INSTANT_PATTERN,
    '`YYYY-MM-DD` (midnight UTC) or a timestamp with a zone: `createdAt >= from`; a real calendar day.',
  ),
  to: Q.pattern(
    INSTANT_PATTERN,
    '`YYYY-MM-DD` or a timestamp with a zone: `createdAt < to`; a real calendar day.',
  ),
  assignee: "A person's id (`tok_…`, from `GET /people`): assigned to them; empty: unassigned.",
} as const;

/** `field[<key>]=value` filters cannot be listed: the route's description names them. */
export const FIELD_FILTERS =
  'Field filters: `field[<key>]=value` (at most 10, each at most 500 characters): the stored value is it, or the stored list holds it.';

export const inboxItem = object(
  {
    id: S.string,
    form: S.string,
    folder,
    status,
    assignee: S.describe(S.nullableString, "The person's id (`tok_…`) it is assigned to; null: unassigned."),
    assigneeName: S.describe(
      S.nullableString,
      "That person's name (null when their token is gone); for an assignment made before people existed, the name given then.",
    ),
    read: S.describe(S.boolean, 'Whether the calling person has opened it (marks are per person).'),
    values: S.describe(S.anyObject, 'As stored (spam: the raw values it was caught with).'),
    page: S.nullableString,
    locale: S.string,
    userAgent: S.nullableString,
    consent: S.describe(S.anyObject, 'The wording agreed to per consent field (`{ label, link }`).'),
    createdAt: S.dateTime,
    updatedAt: S.describe(S.nullableDateTime, 'The last inbox change; null before the first.'),
    deleteAfter: S.dateTime,
    noteCount: S.integer,
    formCv: S.describe(
      S.nullableInteger,
      'The cv the form was read at when it was accepted: its version (`GET …/forms/<key>/published?cv=`); null for submissions stored before it was recorded.',
    ),
  },
  undefined,
  'A stored submission.',
);

export const note = object({
  id: S.describe(S.string, '`nte_…`'),
  text: S.string,
  author: S.string,
  createdAt: S.dateTime,
});

export const inboxPage = object({
  items: S.arrayOf(inboxItem),
  nextCursor: S.describe(S.nullableString, 'Pass as `cursor` for the next page; null on the last.'),
  total: S.describe(
    S.integer,
    'Submissions the filter matches, every page together; with `totalExact: false`, a lower bound.',
  ),
  totalExact: S.describe(
    S.boolean,
    'False when counting stopped at 1,000 (a search, a text answer or several answers): more than `total` submissions match.',
  ),
  unread: S.describe(
    S.integer,
    "The caller's unread submissions in the form's inbox folder (whatever the filter).",
  ),
});

export const readMark = object({ id: S.string, read: S.boolean });

export const submissionBody = object({
  submission: {
    ...inboxItem,
    properties: { ...inboxItem.properties, notes: S.arrayOf(note, 'Oldest first.') },
  },
});

export const changeBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    status,
    assignee: S.describe(
      S.nullableString,
      "A person's id (`tok_…`, from `GET /people`), or null to unassign.",
    ),
  },
};

export const noteBody = {
  type: 'object',
  additionalProperties: false,
  required: ['text'],
  properties: {
    text: S.describe(S.string, '1 to 5,000 characters, kept as written.'),
    author: S.describe(
      S.string,
      "1 to 200 characters (trimmed): the person, as the caller names them; left out, the calling token's person.",
    ),
  },
};

export const bulkBody = {
  type: 'object',
  additionalProperties: false,
  required: ['action'],
  description: 'Exactly one of `ids` and `filter`; `status` and `assignee` belong to their action only.',
  properties: {
    action: { type: 'string', enum: ['status', 'assign', 'delete', 'spam', 'not_spam', 'read', 'unread'] },
    status,
    assignee: S.nullableString,
    ids: S.arrayOf(S.string, '1 to 1,000 submission ids (others of the form are ignored).'),
    filter: S.mapOf(
      S.string,
      'The filters above as strings; `{}` is the whole inbox (at most 10,000 matches).',
    ),
  },
};

export const bulkResult = object(
  { count: S.integer, skipped: S.describe(S.integer, 'Spam moves: submissions left where they were.') },
  ['count'],
);

export const deletedSubmission = object({
  id: S.string,
  deleted: { type: 'boolean', const: true },
  files: S.describe(S.integer, 'Files deleted with it.'),
});

export const deletedNote = object({ id: S.string, deleted: { type: 'boolean', const: true } });

export const fileLink = object({
  url: S.describe(S.string, 'The download, signed for ten minutes: usable without the token.'),
  expiresAt: S.dateTime,
});

export const eraseBody = {
  type: 'object',
  additionalProperties: false,
  required: ['email'],
  properties: {
    email: S.describe(S.string, 'The address to forget (trimmed, any case).'),
    dryRun: S.describe(S.boolean, 'Only count (default false).'),
  },
};

export const eraseResult = object({
  dryRun: S.boolean,
  submissions: S.describe(S.integer, 'Submissions holding the address (deleted unless dryRun).'),
  files: S.integer,
  forms: S.arrayOf(object({ form: S.string, inbox: S.integer, spam: S.integer }), 'Per form key.'),
  items: S.arrayOf(
    object({ id: S.string, form: S.string, folder, createdAt: S.dateTime }),
    'Dry run: the submissions it would delete, newest first, at most 100 (the counts cover every one); empty otherwise.',
  ),
});

// The inbox statuses of a submission (spec 3.2 "Inbox statuses of a submission: not shown"), the values
// of `submissions.status` (migration 0009). Every submission starts `new`; any status may follow any other.

export const SUBMISSION_STATUSES = ['new', 'read', 'done', 'archived'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

export function isSubmissionStatus(value: unknown): value is SubmissionStatus {
  return typeof value === 'string' && (SUBMISSION_STATUSES as readonly string[]).includes(value);
}

export const FOLDERS = ['inbox', 'spam'] as const;
export type InboxFolder = (typeof FOLDERS)[number];

export function isFolder(value: unknown): value is InboxFolder {
  return value === 'inbox' || value === 'spam';
}

import type { TypedKey } from '../../src/forms/submission/chosen-options.js';
import { insertSubmission, type SubmissionRecord } from '../../src/forms/submission/submissions-repo.js';
import type { Queryable } from '../../src/store/spaces-repo.js';

/** What a stored submission is when a test does not say: in the inbox, English, nothing a visitor's browser sent. */
const DEFAULTS = {
  folder: 'inbox',
  page: null,
  locale: 'en',
  userAgent: null,
  consent: {},
  uniqueKey: null,
  deleteAfter: '2099-01-01T00:00:00.000Z',
} as const satisfies Partial<SubmissionRecord>;

/** Stores a submission as submit would, with `DEFAULTS` for what the test leaves out. */
export function storeSubmission(
  db: Queryable,
  s: Pick<SubmissionRecord, 'id' | 'spaceId' | 'form' | 'values' | 'createdAt'> & Partial<SubmissionRecord>,
  choiceFields?: readonly TypedKey[],
): Promise<void> {
  return insertSubmission(db, { ...DEFAULTS, ...s }, choiceFields);
}

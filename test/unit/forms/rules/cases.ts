// The submission case table: one or more cases per field type × setting × error code of spec 7.4.
// Exported as data so the HTTP tests replay it through JSON, urlencoded and multipart bodies
// (STYLE: "one test table drives both"). file_type and file_too_large come from upload checks on
// the server (spec 4.4 rule 5), not from validateSubmission, so they are not in this table.

import { CHOICE_CASES } from './cases/choices.js';
import { CONDITION_CASES } from './cases/conditions.js';
import { TEXT_CASES } from './cases/text.js';
import type { SubmissionCase } from './cases/table.js';
import { BOOLEAN_CASES, DATE_TIME_CASES, FILE_CASES, NUMBER_CASES } from './cases/values.js';

export type { CaseExpectation, SubmissionCase } from './cases/table.js';
export {
  CASE_NOW,
  CASE_TIME_ZONE,
  TURNSTILE_TEST_SETTINGS,
  caseDefinition,
  toFormEntries,
} from './cases/table.js';

export const SUBMISSION_CASES: readonly SubmissionCase[] = [
  ...TEXT_CASES,
  ...NUMBER_CASES,
  ...DATE_TIME_CASES,
  ...CHOICE_CASES,
  ...BOOLEAN_CASES,
  ...FILE_CASES,
  ...CONDITION_CASES,
];

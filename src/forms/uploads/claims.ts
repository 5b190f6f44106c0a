// Submissions with file fields (spec 2.10, 3.3, 4.4): a value names uploads made for this form and field, not
// yet claimed and not expired; accepting the submission claims them in its own transaction.

import type { Transaction } from 'kysely';
import type { Database } from '../../store/schema.js';
import type { Queryable } from '../../store/spaces-repo.js';
import { fieldError, type FieldError } from '../rules/codes.js';
import type { FormField, SubmittedValue } from '../rules/index.js';
import { claimUploads, readUploads } from './uploads-repo.js';

export interface FileValue {
  fieldKey: string;
  ids: string[];
}

/** The upload ids of a validated submission, per file field. */
export function fileValuesOf(
  fields: readonly FormField[],
  values: Readonly<Record<string, SubmittedValue>>,
): FileValue[] {
  const out: FileValue[] = [];
  for (const field of fields) {
    if (field.type !== 'file' || !Object.hasOwn(values, field.key)) continue;
    const value = values[field.key];
    const ids = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
    if (ids.length > 0) out.push({ fieldKey: field.key, ids });
  }
  return out;
}

const invalidFile = (): FieldError => fieldError('invalid_file');

/**
 * The fields whose uploads cannot be claimed: an id that does not exist in this space, was made for another form
 * or field, is already claimed, has expired, is still arriving, or is named twice. Read before the transaction so
 * the visitor gets field errors (and keeps their Turnstile token); the claim checks again under the transaction.
 */
export async function uploadProblems(
  db: Queryable,
  k: { spaceId: string; formKey: string; files: readonly FileValue[]; now: Date },
): Promise<Record<string, FieldError>> {
  const problems = Object.create(null) as Record<string, FieldError>;
  const uploads = await readUploads(
    db,
    k.spaceId,
    k.files.flatMap((f) => f.ids),
  );
  const now = k.now.toISOString();
  for (const file of k.files) {
    const fine =
      new Set(file.ids).size === file.ids.length &&
      file.ids.every((id) => {
        const u = uploads.get(id);
        return (
          u !== undefined &&
          u.formKey === k.formKey &&
          u.fieldKey === file.fieldKey &&
          u.submissionId === null &&
          u.type !== '' &&
          u.expiresAt > now
        );
      });
    if (!fine) problems[file.fieldKey] = invalidFile();
  }
  return problems;
}

/** Claims every upload of the submission; the fields where a claim fell short (a concurrent claim won). */
export async function claimSubmissionUploads(
  tx: Transaction<Database>,
  k: { spaceId: string; formKey: string; files: readonly FileValue[]; submissionId: string; now: Date },
): Promise<Record<string, FieldError>> {
  const problems = Object.create(null) as Record<string, FieldError>;
  for (const file of k.files) {
    const claimed = await claimUploads(tx, {
      spaceId: k.spaceId,
      formKey: k.formKey,
      fieldKey: file.fieldKey,
      ids: file.ids,
      submissionId: k.submissionId,
      now: k.now.toISOString(),
    });
    if (claimed !== file.ids.length) problems[file.fieldKey] = invalidFile();
  }
  return problems;
}

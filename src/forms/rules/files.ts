// File fields (spec 2.10, 4.4 rule 5): a submission carries upload ids, never files. Whether an upload
// exists, belongs to this form and field, and fits `accept` and `maxSize` is the server's job (it has
// the storage); this module only knows the id syntax and the `accept` matching both sides can share.

import type { FieldError } from './codes.js';
import type { FormField } from './types.js';

/** spec 2.14: `fup_<id>`; the id part is opaque, so we only bound its alphabet and length. */
export const UPLOAD_ID = /^fup_[A-Za-z0-9]{8,64}$/;

/** spec 2.10: files per field default to one; at most 10 (spec 8). */
export const DEFAULT_MAX_FILES = 1;

export function isUploadId(value: string): boolean {
  return UPLOAD_ID.test(value);
}

export function maxFilesOf(field: Pick<FormField, 'maxFiles'>): number {
  return field.maxFiles ?? DEFAULT_MAX_FILES;
}

/**
 * Whether a file fits a field's `accept` list: exact media types (`application/pdf`), wildcards
 * (`image/*`) and extensions (`.pdf`, matched against the file name). No `accept` means any type.
 * Checking the file's actual content (spec 4.4 rule 5) is the server's job before it calls this
 * with the detected media type.
 */
export function matchesAccept(
  accept: readonly string[] | undefined,
  mediaType: string,
  fileName: string,
): boolean {
  if (!accept || accept.length === 0) return true;
  const type = mediaType.toLowerCase().split(';')[0]?.trim() ?? '';
  const name = fileName.toLowerCase();
  return accept.some((entry) => {
    const a = entry.trim().toLowerCase();
    if (a.startsWith('.')) return name.endsWith(a);
    if (a.endsWith('/*')) return type.startsWith(a.slice(0, -1));
    return type === a;
  });
}

/**
 * Hook through which the server checks the uploads a valid submission references (existence,
 * ownership, type and size). Returns the field error to report (`invalid_file`, `file_type`,
 * `file_too_large`), or null when all uploads are fine.
 */
export type UploadVerifier = (field: FormField, uploadIds: readonly string[]) => Promise<FieldError | null>;

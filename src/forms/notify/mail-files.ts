// Notification email written without SMTP_URL (./mailer.ts: DATA_DIR/outbox-mail) holds a visitor's name, address
// and answers. The files are part of the store: they go with their submission (retention, erase,
// the inbox's delete), and the retention sweep removes any whose submission is gone (a file written while its
// submission was being erased, or by another machine's worker).

import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** `<time>-<Message-ID, @ and unsafe characters as _>.eml`; the time has no `:` or `.` (file systems, sorting). */
export function mailFileName(at: Date, messageId: string): string {
  const stamp = at.toISOString().replace(/[:.]/g, '-');
  return `${stamp}-${messageId.replace(/[^A-Za-z0-9._-]/g, '_')}.eml`;
}

/** The file being written (renamed into place when whole): hidden, so a watcher of the directory skips it. */
export const mailTempName = (name: string): string => `.${name}.tmp`;

/**
 * The submission a mail file (or its temp file) was written for, or null for a name Folio did not write. Message-IDs
 * are `<job id>@<domain>` and a notification's job id is the submission id, then dot-separated atoms
 * (./jobs.ts, ./message-id.ts), so the id runs from after the time to the first dot.
 */
export function submissionOfMailFile(name: string): string | null {
  const m = /^\.?\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z-([a-z]{3}_[A-Za-z0-9_-]+)\.[^/]*\.eml(?:\.tmp)?$/.exec(
    name,
  );
  return m?.[1] ?? null;
}

/** The mail files in `dir` by submission id; a directory that does not exist holds none. */
export async function mailFilesBySubmission(dir: string): Promise<Map<string, string[]>> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw err;
  }
  const out = new Map<string, string[]>();
  for (const name of names) {
    const id = submissionOfMailFile(name);
    if (id === null) continue;
    out.set(id, [...(out.get(id) ?? []), name]);
  }
  return out;
}

/** Deletes the files named (as `mailFilesBySubmission` listed them); returns how many. */
export async function removeMailFiles(dir: string, names: readonly string[]): Promise<number> {
  for (const name of names) await rm(join(dir, name), { force: true });
  return names.length;
}

/** Deletes the mail files of these submissions; returns how many. */
export async function deleteMailFiles(dir: string, submissionIds: readonly string[]): Promise<number> {
  if (submissionIds.length === 0) return 0;
  const files = await mailFilesBySubmission(dir);
  return removeMailFiles(
    dir,
    submissionIds.flatMap((id) => files.get(id) ?? []),
  );
}

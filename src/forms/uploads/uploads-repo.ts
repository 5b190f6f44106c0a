import type { Transaction } from 'kysely';
import type { Database } from '../../store/schema.js';
import type { Queryable } from '../../store/spaces-repo.js';

/** A stored upload (spec 2.14): what the visitor sent, with the type found in its content. */
export interface UploadRow {
  id: string;
  spaceId: string;
  formKey: string;
  fieldKey: string;
  name: string;
  size: number;
  type: string;
  blobKey: string;
  createdAt: string;
  expiresAt: string;
  submissionId: string | null;
}

type Row = Database['uploads'];

function fromRow(r: Row): UploadRow {
  return {
    id: r.id,
    spaceId: r.space_id,
    formKey: r.form_key,
    fieldKey: r.field_key,
    name: r.name,
    size: Number(r.size),
    type: r.type,
    blobKey: r.blob_key,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    submissionId: r.submission_id,
  };
}

/**
 * Records an upload before its bytes are stored, with an empty type (not claimable: claims require a type), so a
 * crash while the file streams in leaves a row that expires and is swept with whatever part of the blob exists.
 */
export async function insertPendingUpload(
  db: Queryable,
  u: Omit<UploadRow, 'size' | 'type' | 'submissionId'>,
): Promise<void> {
  await db
    .insertInto('uploads')
    .values({
      id: u.id,
      space_id: u.spaceId,
      form_key: u.formKey,
      field_key: u.fieldKey,
      name: u.name,
      size: 0,
      type: '',
      blob_key: u.blobKey,
      created_at: u.createdAt,
      expires_at: u.expiresAt,
      submission_id: null,
    })
    .execute();
}

/** Completes a pending upload once its bytes are stored and checked. */
export async function completeUpload(db: Queryable, id: string, size: number, type: string): Promise<void> {
  await db.updateTable('uploads').set({ size, type }).where('id', '=', id).execute();
}

export async function deleteUploadRow(db: Queryable, id: string): Promise<void> {
  await db.deleteFrom('uploads').where('id', '=', id).execute();
}

/** Uploads of a space by id (any state); the caller decides which may be claimed. */
export async function readUploads(
  db: Queryable,
  spaceId: string,
  ids: readonly string[],
): Promise<Map<string, UploadRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('uploads')
    .selectAll()
    .where('space_id', '=', spaceId)
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [r.id, fromRow(r)]));
}

/**
 * Claims uploads for a submission in its transaction (spec 3.3): only completed, unclaimed, unexpired uploads of
 * this form and field. Returns how many were claimed; fewer than asked means another submission took one first
 * (or it expired meanwhile), and the caller rolls back.
 */
export async function claimUploads(
  tx: Transaction<Database>,
  c: {
    spaceId: string;
    formKey: string;
    fieldKey: string;
    ids: readonly string[];
    submissionId: string;
    now: string;
  },
): Promise<number> {
  const r = await tx
    .updateTable('uploads')
    .set({ submission_id: c.submissionId })
    .where('space_id', '=', c.spaceId)
    .where('form_key', '=', c.formKey)
    .where('field_key', '=', c.fieldKey)
    .where('id', 'in', [...c.ids])
    .where('submission_id', 'is', null)
    .where('type', '<>', '')
    .where('expires_at', '>', c.now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** One file of a stored submission, for the management download. */
export async function readSubmissionUpload(
  db: Queryable,
  k: { spaceId: string; formKey: string; submissionId: string; uploadId: string },
): Promise<UploadRow | null> {
  const row = await db
    .selectFrom('uploads')
    .selectAll()
    .where('space_id', '=', k.spaceId)
    .where('form_key', '=', k.formKey)
    .where('submission_id', '=', k.submissionId)
    .where('id', '=', k.uploadId)
    .executeTakeFirst();
  return row ? fromRow(row) : null;
}

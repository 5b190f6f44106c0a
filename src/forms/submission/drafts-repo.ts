// `form_drafts` (migration 0023): a failed plain post's values for ten minutes, read as often as the error page
// is shown again in that time (a reload must not empty the form).

import type { Queryable } from '../../store/spaces-repo.js';

export interface NewDraft {
  id: string;
  spaceId: string;
  formKey: string;
  /** JSON text of the kept values. */
  values: string;
  expiresAt: Date;
}

/** Stores a draft; drafts already expired go in the same breath, so none outlives its ten minutes for long. */
export async function insertDraft(db: Queryable, draft: NewDraft, now: Date): Promise<void> {
  await deleteExpiredDrafts(db, now);
  await db
    .insertInto('form_drafts')
    .values({
      id: draft.id,
      space_id: draft.spaceId,
      form_key: draft.formKey,
      values: draft.values,
      expires_at: draft.expiresAt.toISOString(),
    })
    .execute();
}

/** The draft's values, if it exists for this form and has not expired; reading leaves it for the next reload. */
export async function findDraft(
  db: Queryable,
  key: { spaceId: string; formKey: string; id: string },
  now: Date,
): Promise<string | null> {
  const row = await db
    .selectFrom('form_drafts')
    .select('values')
    .where('id', '=', key.id)
    .where('space_id', '=', key.spaceId)
    .where('form_key', '=', key.formKey)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return row?.values ?? null;
}

/** Drafts past their ten minutes (run on every new draft and by the retention sweep). */
export async function deleteExpiredDrafts(db: Queryable, now: Date): Promise<number> {
  const r = await db
    .deleteFrom('form_drafts')
    .where('expires_at', '<=', now.toISOString())
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

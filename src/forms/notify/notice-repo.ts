import type { Store } from '../../store/open-store.js';
import type { NoticeFile } from './load-notice.js';

/** What a notification reads of its submission (load-notice.ts): the row, and the names and sizes of its files. */
export async function readSubmissionRow(store: Store, spaceId: string, submissionId: string) {
  return store.db
    .selectFrom('submissions')
    .select(['id', 'form_key', 'folder', 'values', 'page', 'locale', 'created_at'])
    .where('space_id', '=', spaceId)
    .where('id', '=', submissionId)
    .executeTakeFirst();
}

export async function readFiles(
  store: Store,
  spaceId: string,
  submissionId: string,
): Promise<Map<string, NoticeFile>> {
  const rows = await store.db
    .selectFrom('uploads')
    .select(['id', 'name', 'size'])
    .where('space_id', '=', spaceId)
    .where('submission_id', '=', submissionId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return new Map(rows.map((r) => [r.id, { name: r.name, size: Number(r.size) }]));
}

// A form's published versions as the inbox reads them: the version a submission was made to
// (visible at the cv it recorded), or the newest one (a deleted form's last).

import type { Store } from '../../store/open-store.js';
import { visibleAt } from '../../store/log-repo.js';
import type { FormDefinition } from '../rules/index.js';

/** The published log's kind for form definitions (src/forms/forms-repo.ts). */
const PUBLISHED_FORM = 'form';

export interface PublishedForm {
  definition: FormDefinition;
  cvFrom: number;
  /** null while it is the form's current version. */
  cvTo: number | null;
}

/** The version visible at `cv`, or (`cv` null) the newest one kept, open or closed; null when there is none. */
export async function readPublishedForm(
  store: Store,
  spaceId: string,
  key: string,
  cv: number | null,
): Promise<PublishedForm | null> {
  const row = await store.db
    .selectFrom('doc_versions')
    .select(['doc', 'cv_from', 'cv_to'])
    .where('space_id', '=', spaceId)
    .where('kind', '=', PUBLISHED_FORM)
    .where('key', '=', key)
    .$if(cv !== null, (q) => q.where(visibleAt(cv ?? 0)))
    .orderBy('cv_from', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  return {
    // Written by publishForm from a validated definition (the delivery path reads it the same way).
    definition: store.dialect.parseJson<FormDefinition>(row.doc),
    cvFrom: Number(row.cv_from),
    cvTo: row.cv_to === null ? null : Number(row.cv_to),
  };
}

import { sql } from 'kysely';
import { prepared } from '../../../store/dialect/pg-named-statements.js';
import type { Store } from '../../../store/open-store.js';
import { NUM_SLOTS, STR_SLOTS } from '../slots.js';
import type { LoadedRow } from './table.js';

/** What one chunk of a rows table load selects: a list_rows row at a cv, in (published_at, entry_id) order. */
export interface RowsChunkQuery {
  spaceId: string;
  type: string;
  /** The row locale (../slots.ts rowLocale). */
  loc: string;
  cv: number;
  /** The last row of the previous chunk: (published_at, entry_id). */
  after: { publishedAt: string; entryId: string } | null;
  limit: number;
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

/**
 * One chunk of the list rows of a type at a cv, walking list_rows_walk (migration 0007: space, type, locale,
 * published_at, entry_id, then every column read here), so a chunk is one index range read and needs no sort.
 */
export async function loadRowsChunk(store: Store, q: RowsChunkQuery): Promise<LoadedRow[]> {
  const after =
    q.after === null
      ? sql`1 = 1`
      : // The first bound is a range the index seeks to; with the OR alone SQLite read each chunk from the first row.
        sql`r.published_at >= ${q.after.publishedAt}
          and (r.published_at > ${q.after.publishedAt} or r.entry_id > ${q.after.entryId})`;
  const slots = [...STR_SLOTS, ...NUM_SLOTS].map((s) => sql.ref(`r.${s}`));
  const { rows } = await prepared(
    sql<Record<string, unknown>>`select r.cv_from, r.published_at, r.entry_id, ${sql.join(slots)}
      from list_rows r
      where r.space_id = ${q.spaceId} and r.type = ${q.type} and r.loc = ${q.loc}
        and r.cv_from <= ${q.cv} and r.cv_to > ${q.cv} and ${after}
      order by r.published_at, r.entry_id limit ${q.limit}`,
  ).execute(store.db);
  return rows.map((r) => ({
    cvFrom: Number(r.cv_from),
    publishedAt: String(r.published_at),
    entryId: String(r.entry_id),
    str: STR_SLOTS.map((s) => str(r[s])),
    num: NUM_SLOTS.map((s) => num(r[s])),
  }));
}

import { type Kysely, sql } from 'kysely';

// The slot columns as migration 0007 created them (frozen).
const STR_SLOTS = ['s1', 's2', 's3', 's4'] as const;
const NUM_SLOTS = ['n1', 'n2', 'n3', 'n4'] as const;

/**
 * A string slot's index of 0007 ordered a slot value's rows by visibility (`cv_to, cv_from`), so a page newest
 * first of one category had to walk `list_rows_walk` (every row of the type in publish order) and skip the other
 * categories' rows: about 700 index entries for a page of 20 of a category holding 5 % of the posts (0.2–0.3 ms
 * on SQLite). Ordered by `published_at, entry_id` after the slot value, the index hands one value's rows over in
 * publish order: the page reads its 21 rows and stops (0.06 ms). Counts read the same range as before: the rows
 * of closed versions they now pass over are bounded by the published log's retention (prunePublished).
 *
 * Still every slot column in every index, so lists never leave the index. Frozen: spells out the DDL.
 */
export async function up0016SlotWalkOrder(db: Kysely<unknown>): Promise<void> {
  const slots = [...STR_SLOTS, ...NUM_SLOTS];
  for (const s of STR_SLOTS) {
    await db.schema.dropIndex(`list_rows_${s}`).execute();
    await db.schema
      .createIndex(`list_rows_${s}`)
      .on('list_rows')
      .columns([
        'space_id',
        'type',
        'loc',
        s,
        'published_at',
        'entry_id',
        'cv_to',
        'cv_from',
        ...slots.filter((o) => o !== s),
        'vid',
      ])
      .where(sql.ref(s), 'is not', null)
      .execute();
  }
}

import type { Kysely } from 'kysely';

/**
 * Closing an entry's open version (`where space_id = ? and entry_id = ? and cv_to is null`) must find it by the
 * entry. Since 0011 added `(space_id, cv_to)`, SQLite's planner (no statistics) took that index and scanned every
 * open version of the space per closed entry: a publish of n entries cost O(n × space) (a 20k-entry import took
 * minutes). entry_paths and list_entries already have this shape of index.
 *
 * Frozen: spells out its own schema and never calls repository code.
 */
export async function up0012EntryCloseIndex(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('entry_versions_entry')
    .on('entry_versions')
    .columns(['space_id', 'entry_id', 'cv_to'])
    .execute();
}

import type { Kysely } from 'kysely';

/**
 * Closing an entry's open version finds it by the entry (`space_id = ? and entry_id = ? and cv_to …`). SQLite's
 * planner has no statistics, and took the wrong index for both tables that lacked a fitting one: on
 * entry_versions the `(space_id, cv_to)` index of 0011, on list_entries the covering `list_entries_parent`
 * (only `space_id` bound). Either way it scanned every open version of the space per closed entry, so a publish
 * of n entries cost O(n × space size) (an 8k-entry import took 30 s). entry_versions gets the index entry_paths
 * already has; list_entries' entry index gains `cv_from`, so it covers the close query and wins.
 *
 * Frozen: spells out its own schema and never calls repository code.
 */
export async function up0012EntryCloseIndex(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('entry_versions_entry')
    .on('entry_versions')
    .columns(['space_id', 'entry_id', 'cv_to'])
    .execute();
  await db.schema.dropIndex('list_entries_entry').execute();
  await db.schema
    .createIndex('list_entries_entry')
    .on('list_entries')
    .columns(['space_id', 'entry_id', 'cv_to', 'cv_from'])
    .execute();
}

import { sql } from 'kysely';
import type { Store } from '../../src/store/open-store.js';

/**
 * What each migration since 0015 added, undone: upgrade tests make a store look as earlier code left it, then let
 * `openStore` migrate it again. A new migration adds its undo here, or every upgrade test fails when the migrator
 * runs it a second time over its own tables.
 */
const UNDO: Record<string, (store: Store) => Promise<void>> = {
  '0015': async (store) => {
    await store.db.schema.dropTable('search_embeddings').execute();
    await store.db.schema.dropTable('search_state').execute();
  },
  // 0016 rebuilt indexes that exist without it.
  '0016': async () => {},
  '0017': async (store) => {
    for (const n of ['n1', 'n2', 'n3', 'n4']) await store.db.schema.dropIndex(`list_rows_${n}`).execute();
  },
  '0018': async (store) => store.db.schema.dropTable('derived_images').execute(),
  '0019': async (store) => {
    await store.db.schema.dropIndex('outbox_submission').execute();
    await store.db.schema.alterTable('outbox').dropColumn('submission_id').execute();
  },
  '0020': async (store) => store.db.schema.dropTable('submission_addresses').execute(),
  '0021': async (store) => {
    await store.db.schema.dropTable('inbox_sessions').execute();
    await store.db.schema.alterTable('submissions').dropColumn('form_cv').execute();
  },
  '0022': async (store) => {
    const sqlite = store.dialect.engine === 'sqlite';
    const triggers = sqlite
      ? [
          'submissions_count_insert',
          'submissions_count_delete',
          'submissions_count_status',
          'submissions_count_folder',
        ]
      : ['submissions_insert_counts', 'submissions_delete_counts', 'submissions_update_counts'];
    for (const name of triggers)
      await sql
        .raw(sqlite ? `drop trigger ${name}` : `drop trigger ${name} on submissions`)
        .execute(store.db);
    await store.db.schema.dropTable('submission_tallies').execute();
    await store.db.schema.dropTable('submission_quarters').execute();
  },
  '0023': async (store) => store.db.schema.dropTable('form_drafts').execute(),
  '0027': async (store) => {
    const sqlite = store.dialect.engine === 'sqlite';
    for (const name of ['submissions_side_update', 'submissions_side_delete'])
      await sql
        .raw(sqlite ? `drop trigger ${name}` : `drop trigger ${name} on submissions`)
        .execute(store.db);
    await store.db.schema.dropTable('submission_reads').execute();
    // Its tally triggers go with the table.
    await store.db.schema.dropTable('submission_options').execute();
    await store.db.schema.dropTable('submission_option_tallies').execute();
    await store.db.schema.dropIndex('submissions_assignee').execute();
    for (const column of ['assignee_id', 'search_text'])
      await store.db.schema.alterTable('submissions').dropColumn(column).execute();
    for (const column of ['person_name', 'person_email'])
      await store.db.schema.alterTable('tokens').dropColumn(column).execute();
  },
  '0028': async (store) => store.db.schema.dropTable('entry_deps').execute(),
  '0029': async (store) => store.db.schema.alterTable('tokens').dropColumn('server_side').execute(),
  '0030': async (store) => {
    await store.db.schema.dropIndex('submissions_addresses_unindexed').execute();
    await store.db.schema.alterTable('submissions').dropColumn('addresses_indexed').execute();
  },
  '0031': async (store) => {
    if (store.dialect.engine === 'postgres') {
      // Absent where pg_trgm could not be installed; the extension itself stays (other stores may use it).
      await sql`drop index if exists submissions_search_trgm`.execute(store.db);
      return;
    }
    for (const name of ['submission_search_insert', 'submission_search_update', 'submission_search_delete'])
      await sql.raw(`drop trigger ${name}`).execute(store.db);
    await sql`drop table submission_search_vocab`.execute(store.db);
    await sql`drop table submission_search`.execute(store.db);
    await sql`drop table submission_search_rows`.execute(store.db);
  },
};

/** Undoes every migration from `first` (e.g. `'0019'`) on, newest first, and forgets that they ran. */
export async function undoMigrationsFrom(store: Store, first: string): Promise<void> {
  const ran = await sql<{
    name: string;
  }>`select name from folio_migration where name >= ${first} order by name desc`.execute(store.db);
  for (const { name } of ran.rows) {
    const undo = UNDO[name.slice(0, 4)];
    if (!undo) throw new Error(`test/helpers/undo-migrations.ts has no undo for migration ${name}`);
    await undo(store);
  }
  await sql`delete from folio_migration where name >= ${first}`.execute(store.db);
}

import { type Kysely, sql } from 'kysely';
import type { Engine } from '../dialect/dialect.js';

/**
 * The inbox a team opens every morning.
 *
 * - `tokens.person_name`, `tokens.person_email`: the person a management token stands for (null: a tool's token).
 *   A person's id is their token's id: assignments and read marks name it.
 * - `submissions.assignee_id`: the person a submission is assigned to (a token id); `assignee` keeps the free-text
 *   names given before people existed, shown until the submission is assigned again.
 * - `submissions.search_text`: the submission's values folded as people compare them (case, accents, width),
 *   written with the row by the application (JavaScript folds the same way on every engine); rows stored before
 *   this migration get it from the reindex step `inbox-search`.
 * - `submission_reads`: who has opened which submission. A row per reader and submission, deleted with either
 *   (the token by foreign key, the submission by the triggers below). `folder` follows the submission's, so a
 *   reader's unread count is the folder's tally less an index range of their reads.
 * - `submission_options`: the options a submission chose, one row per choice field and value (select, radio,
 *   checkboxes, checkbox), written with it; `folder`, `status` and `created_at` follow the submission's, so a filter
 *   by an option is counted and paged from one index range, never by reading every submission's JSON.
 *
 * - `submission_option_tallies`: chosen options per form, field, value, folder and status, kept by triggers on
 *   `submission_options` as migration 0022 keeps `submission_tallies`: the total of a list filtered by an option and
 *   statuses is a few counter rows, whatever the form's size (counting the option's index range read 33k entries
 *   of 100k submissions per request).
 *
 * Triggers on `submissions` keep both side tables in step with every writer (bulk actions, spam moves, retention,
 * erasure): an update of folder or status is copied to them, a delete removes their rows. On PostgreSQL they run
 * once per statement from transition tables, as migration 0022's counters do (a bulk move of 10,000 rows is one
 * UPDATE of each side table, not 10,000).
 *
 * Frozen: spells out its own schema and SQL per engine and never calls repository code.
 */
export async function up0027InboxPeople(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema.alterTable('tokens').addColumn('person_name', 'text').execute();
  await db.schema.alterTable('tokens').addColumn('person_email', 'text').execute();
  await db.schema.alterTable('submissions').addColumn('assignee_id', 'text').execute();
  await db.schema.alterTable('submissions').addColumn('search_text', 'text').execute();
  await db.schema
    .createIndex('submissions_assignee')
    .on('submissions')
    .columns(['space_id', 'form_key', 'folder', 'assignee_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('submission_reads')
    .addColumn('submission_id', 'text', (c) => c.notNull())
    .addColumn('reader_id', 'text', (c) => c.notNull().references('tokens.id').onDelete('cascade'))
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('form_key', 'text', (c) => c.notNull())
    .addColumn('folder', 'text', (c) => c.notNull())
    .addColumn('read_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('submission_reads_pk', ['submission_id', 'reader_id'])
    .execute();
  await db.schema
    .createIndex('submission_reads_reader')
    .on('submission_reads')
    .columns(['reader_id', 'space_id', 'form_key', 'folder'])
    .execute();

  await db.schema
    .createTable('submission_options')
    .addColumn('submission_id', 'text', (c) => c.notNull())
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('form_key', 'text', (c) => c.notNull())
    .addColumn('field_key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('folder', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('submission_options_pk', ['submission_id', 'field_key', 'value'])
    .execute();
  // In list order within one option and folder; `status` last, so a status filter is read from the index too.
  await db.schema
    .createIndex('submission_options_list')
    .on('submission_options')
    .columns([
      'space_id',
      'form_key',
      'field_key',
      'value',
      'folder',
      'created_at',
      'submission_id',
      'status',
    ])
    .execute();

  await db.schema
    .createTable('submission_option_tallies')
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('form_key', 'text', (c) => c.notNull())
    .addColumn('field_key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('folder', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('submission_option_tallies_pk', [
      'space_id',
      'form_key',
      'field_key',
      'value',
      'folder',
      'status',
    ])
    .execute();

  const keys = 'space_id, form_key, field_key, value, folder, status';
  // One row's change of the option tallies (`d` is 1 or -1) for the row image `r` (NEW or OLD).
  const tally = (r: string, d: number) =>
    `insert into submission_option_tallies (${keys}, n)
     values (${r}.space_id, ${r}.form_key, ${r}.field_key, ${r}.value, ${r}.folder, ${r}.status, ${d})
     on conflict (${keys}) do update set n = submission_option_tallies.n + excluded.n;`;

  if (engine === 'sqlite') {
    await sql
      .raw(
        `create trigger submission_options_count_insert after insert on submission_options begin ${tally('new', 1)} end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger submission_options_count_delete after delete on submission_options begin ${tally('old', -1)} end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger submission_options_count_update after update of folder, status on submission_options
         when old.folder is not new.folder or old.status is not new.status
         begin ${tally('old', -1)} ${tally('new', 1)} end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger submissions_side_update after update of folder, status on submissions
         when old.folder is not new.folder or old.status is not new.status
         begin
           update submission_options set folder = new.folder, status = new.status where submission_id = new.id;
           update submission_reads set folder = new.folder where submission_id = new.id and folder is not new.folder;
         end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger submissions_side_delete after delete on submissions
         begin
           delete from submission_options where submission_id = old.id;
           delete from submission_reads where submission_id = old.id;
         end`,
      )
      .execute(db);
    return;
  }
  await sql
    .raw(
      `create or replace function folio_submission_side_update() returns trigger language plpgsql as $$
       begin
         update submission_options o set folder = n.folder, status = n.status
           from old_rows p join new_rows n on n.id = p.id
           where o.submission_id = n.id and (p.folder is distinct from n.folder or p.status is distinct from n.status);
         update submission_reads r set folder = n.folder
           from old_rows p join new_rows n on n.id = p.id
           where r.submission_id = n.id and p.folder is distinct from n.folder;
         return null;
       end
       $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger submissions_side_update after update on submissions
       referencing old table as old_rows new table as new_rows for each statement
       execute function folio_submission_side_update()`,
    )
    .execute(db);
  await sql
    .raw(
      `create or replace function folio_submission_side_delete() returns trigger language plpgsql as $$
       begin
         delete from submission_options where submission_id in (select id from old_rows);
         delete from submission_reads where submission_id in (select id from old_rows);
         return null;
       end
       $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger submissions_side_delete after delete on submissions
       referencing old table as old_rows for each statement execute function folio_submission_side_delete()`,
    )
    .execute(db);

  // The option tallies on PostgreSQL, as 0022's: an insert counts at commit (a deferred constraint trigger, so
  // submissions to one form do not wait on each other for the counter rows); updates and deletes once per
  // statement from transition tables, counter rows written in key order.
  await sql
    .raw(
      `create or replace function folio_option_insert_counts() returns trigger language plpgsql as $$
       begin ${tally('new', 1)} return null; end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create constraint trigger submission_options_insert_counts after insert on submission_options
       deferrable initially deferred for each row execute function folio_option_insert_counts()`,
    )
    .execute(db);
  const apply = (rows: string) =>
    `insert into submission_option_tallies (${keys}, n)
     select ${keys}, sum(d) from (${rows}) as changes group by ${keys}
     having sum(d) <> 0 order by ${keys}
     on conflict (${keys}) do update set n = submission_option_tallies.n + excluded.n;`;
  await sql
    .raw(
      `create or replace function folio_option_delete_counts() returns trigger language plpgsql as $$
       begin ${apply(`select ${keys}, -1 as d from old_rows`)} return null; end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger submission_options_delete_counts after delete on submission_options
       referencing old table as old_rows for each statement execute function folio_option_delete_counts()`,
    )
    .execute(db);
  const side = (image: 'o' | 'n', d: number) =>
    `select ${image}.space_id, ${image}.form_key, ${image}.field_key, ${image}.value, ${image}.folder, ${image}.status, ${d} as d
     from old_rows o join new_rows n
       on n.submission_id = o.submission_id and n.field_key = o.field_key and n.value = o.value
     where o.folder is distinct from n.folder or o.status is distinct from n.status`;
  await sql
    .raw(
      `create or replace function folio_option_update_counts() returns trigger language plpgsql as $$
       begin ${apply(`${side('o', -1)} union all ${side('n', 1)}`)} return null; end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger submission_options_update_counts after update on submission_options
       referencing old table as old_rows new table as new_rows for each statement
       execute function folio_option_update_counts()`,
    )
    .execute(db);
}

import { type Kysely, sql } from 'kysely';
import type { Engine } from '../dialect/dialect.js';

/**
 * What the inbox overview counts, kept by the store itself so opening it reads a few hundred rows, not
 * every submission: counting 100k submissions per request took 270 ms on SQLite and 660 ms on PostgreSQL
 * (`npm run bench -- inbox`).
 *
 * - `submission_tallies`: submissions per space, form, folder and status.
 * - `submission_quarters`: submissions per space, form, folder and quarter hour of `created_at` (UTC, keyed
 *   `YYYY-MM-DDTHH:q`, q = 0–3, which sorts as time): every time zone's offset is a multiple of 15 minutes, so
 *   each quarter lies within one local day and the days of any zone are sums of whole quarters.
 *
 * Triggers on `submissions` keep both exact whatever writes the rows (the submission pipeline, spam moves, status
 * changes, deletes, retention, erasure), with no code of the app involved. On PostgreSQL an insert counts at
 * commit (a deferred constraint trigger), so submissions to one form do not wait on each other's transactions for
 * the counter rows; updates and deletes count per statement (below). SQLite writes one transaction at a time
 * anyway. Rows at 0 stay (a form's quarters are few). The existing submissions are counted here.
 *
 * Frozen: spells out its own schema and SQL per engine and never calls repository code.
 */
export async function up0022SubmissionCounts(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable('submission_tallies')
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('form_key', 'text', (c) => c.notNull())
    .addColumn('folder', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('submission_tallies_pk', ['space_id', 'form_key', 'folder', 'status'])
    .execute();
  await db.schema
    .createTable('submission_quarters')
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('form_key', 'text', (c) => c.notNull())
    .addColumn('folder', 'text', (c) => c.notNull())
    .addColumn('quarter', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('submission_quarters_pk', ['space_id', 'form_key', 'folder', 'quarter'])
    .execute();

  const quarterOf = (col: string) =>
    `substr(${col}, 1, 14) || cast(cast(substr(${col}, 15, 2) as integer) / 15 as text)`;
  await sql
    .raw(
      `insert into submission_tallies (space_id, form_key, folder, status, n)
       select space_id, form_key, folder, status, count(*) from submissions group by space_id, form_key, folder, status`,
    )
    .execute(db);
  await sql
    .raw(
      `insert into submission_quarters (space_id, form_key, folder, quarter, n)
       select space_id, form_key, folder, ${quarterOf('created_at')}, count(*) from submissions
       group by space_id, form_key, folder, ${quarterOf('created_at')}`,
    )
    .execute(db);

  // One row's change of the counters (`d` is 1 or -1), for the row image `r` (NEW or OLD).
  const tally = (r: string, d: number) =>
    `insert into submission_tallies (space_id, form_key, folder, status, n)
     values (${r}.space_id, ${r}.form_key, ${r}.folder, ${r}.status, ${d})
     on conflict (space_id, form_key, folder, status) do update set n = submission_tallies.n + excluded.n;`;
  const quarter = (r: string, d: number) =>
    `insert into submission_quarters (space_id, form_key, folder, quarter, n)
     values (${r}.space_id, ${r}.form_key, ${r}.folder, ${quarterOf(`${r}.created_at`)}, ${d})
     on conflict (space_id, form_key, folder, quarter) do update set n = submission_quarters.n + excluded.n;`;

  if (engine === 'sqlite') {
    await sql
      .raw(
        `create trigger submissions_count_insert after insert on submissions begin ${tally('new', 1)} ${quarter('new', 1)} end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger submissions_count_delete after delete on submissions begin ${tally('old', -1)} ${quarter('old', -1)} end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger submissions_count_status after update of folder, status on submissions
         when old.folder is not new.folder or old.status is not new.status
         begin ${tally('old', -1)} ${tally('new', 1)} end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger submissions_count_folder after update of folder on submissions
         when old.folder is not new.folder
         begin ${quarter('old', -1)} ${quarter('new', 1)} end`,
      )
      .execute(db);
    return;
  }
  // PostgreSQL: a submission's insert counts at commit (a deferred constraint trigger), so the counter rows are
  // locked only while it commits. Updates and deletes come in bulk (a bulk action, a sweep, an erasure: up to
  // 10,000 rows in one statement) and count once per statement from its transition tables: a counter row updated
  // once per row in one transaction grows a chain of versions that each later update walks (quadratic).
  await sql
    .raw(
      `create or replace function folio_submission_insert_counts() returns trigger language plpgsql as $$
       begin
         ${tally('new', 1)} ${quarter('new', 1)}
         return null;
       end
       $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create constraint trigger submissions_insert_counts after insert on submissions
       deferrable initially deferred for each row execute function folio_submission_insert_counts()`,
    )
    .execute(db);
  // Counter rows are written in key order, so two bulk statements on one form lock them in the same order.
  const apply = (table: 'submission_tallies' | 'submission_quarters', key: string, rows: string) =>
    `insert into ${table} (space_id, form_key, folder, ${key}, n)
     select space_id, form_key, folder, k, sum(d) from (${rows}) as changes group by space_id, form_key, folder, k
     having sum(d) <> 0 order by space_id, form_key, folder, k
     on conflict (space_id, form_key, folder, ${key}) do update set n = ${table}.n + excluded.n;`;
  await sql
    .raw(
      `create or replace function folio_submission_delete_counts() returns trigger language plpgsql as $$
       begin
         ${apply('submission_tallies', 'status', 'select space_id, form_key, folder, status as k, -1 as d from old_rows')}
         ${apply('submission_quarters', 'quarter', `select space_id, form_key, folder, ${quarterOf('created_at')} as k, -1 as d from old_rows`)}
         return null;
       end
       $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger submissions_delete_counts after delete on submissions
       referencing old table as old_rows for each statement execute function folio_submission_delete_counts()`,
    )
    .execute(db);
  const moved = (cols: string, d: number, side: 'o' | 'n', changed: string) =>
    `select ${side}.space_id, ${side}.form_key, ${side}.folder, ${cols} as k, ${d} as d
     from old_rows o join new_rows n on n.id = o.id where ${changed}`;
  const statusOrFolder = 'o.folder is distinct from n.folder or o.status is distinct from n.status';
  const folderOnly = 'o.folder is distinct from n.folder';
  await sql
    .raw(
      `create or replace function folio_submission_update_counts() returns trigger language plpgsql as $$
       begin
         ${apply('submission_tallies', 'status', `${moved('o.status', -1, 'o', statusOrFolder)} union all ${moved('n.status', 1, 'n', statusOrFolder)}`)}
         ${apply('submission_quarters', 'quarter', `${moved(quarterOf('o.created_at'), -1, 'o', folderOnly)} union all ${moved(quarterOf('n.created_at'), 1, 'n', folderOnly)}`)}
         return null;
       end
       $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger submissions_update_counts after update on submissions
       referencing old table as old_rows new table as new_rows for each statement
       execute function folio_submission_update_counts()`,
    )
    .execute(db);
}

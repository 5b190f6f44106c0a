import { type Kysely, sql } from 'kysely';
import type { Engine } from '../dialect/dialect.js';

/**
 * An index for the inbox's folded search (`submissions.search_text`, migration 0027): a substring search read every
 * submission of the form (90–160 ms at 100k). Both engines index trigrams, which answer a substring of three or
 * more characters from the index; shorter ones still scan.
 *
 * - PostgreSQL: a GIN `gin_trgm_ops` index on `search_text` (extension pg_trgm, in contrib; trusted since
 *   PostgreSQL 13, so a database owner may create it). LIKE `%…%` uses it directly. Where pg_trgm is not installed
 *   and cannot be (not shipped, or the role may not create it), no index is made and search keeps scanning
 *   (docs/operations.md). The extension goes in whatever schema already holds it, else `public`, else the store's
 *   own, and the operator class is named with that schema so a store in another schema finds it.
 * - SQLite: an FTS5 table with the trigram tokenizer, contentless (the text is not stored twice) with FTS5's
 *   secure delete, its vocabulary in `submission_search_vocab`, keyed by `submission_search_rows` (an integer key per submission: FTS5 rows are addressed by integer, and a
 *   submission's own rowid is not stable across VACUUM). Triggers keep both in step with every writer; rows that
 *   exist now are copied in here.
 *
 * Frozen: spells out its own schema and SQL per engine and never calls repository code.
 */
export async function up0031SubmissionSearchIndex(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine === 'postgres') await postgresIndex(db);
  else await sqliteIndex(db);
}

async function postgresIndex(db: Kysely<unknown>): Promise<void> {
  // Stores in other schemas of the same database migrate at the same time (one extension per database).
  await sql`select pg_advisory_xact_lock(7305202631)`.execute(db);
  const installed = await sql<{ schema: string }>`
    select n.nspname as schema from pg_catalog.pg_extension e
    join pg_catalog.pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
  let schema = installed.rows[0]?.schema;
  if (schema === undefined) {
    const allowed = await sql<{ ok: boolean }>`
      select (r.rolsuper or (v.trusted and has_database_privilege(current_database(), 'CREATE'))) as ok
      from pg_catalog.pg_available_extension_versions v, pg_catalog.pg_roles r
      where v.name = 'pg_trgm' and v.version = (select default_version from pg_catalog.pg_available_extensions
        where name = 'pg_trgm') and r.rolname = current_user`.execute(db);
    if (allowed.rows[0]?.ok !== true) return;
    // `public` where the role may create in it (where extensions usually live, and a schema nobody drops with a
    // tenant's: an extension goes with its schema, and every index on its operator class with it), else the own.
    const target = await sql<{ schema: string }>`
      select case when exists (select 1 from pg_catalog.pg_namespace where nspname = 'public')
        and has_schema_privilege('public', 'CREATE') then 'public' else current_schema() end as schema`.execute(
      db,
    );
    schema = target.rows[0]?.schema;
    if (schema === undefined) return;
    await sql`create extension if not exists pg_trgm with schema ${sql.id(schema)}`.execute(db);
  }
  await sql`create index submissions_search_trgm on submissions
    using gin (search_text ${sql.id(schema, 'gin_trgm_ops')})`.execute(db);
}

async function sqliteIndex(db: Kysely<unknown>): Promise<void> {
  await sql`create table submission_search_rows (
    rowid integer primary key,
    submission_id text not null unique
  )`.execute(db);
  await sql`create virtual table submission_search using fts5(search_text, content='', tokenize='trigram')`.execute(
    db,
  );
  // A delete rewrites the index pages that held the row's trigrams, rather than leaving them behind a delete
  // marker until a merge: an erased visitor's text must not stay readable in the file.
  await sql`insert into submission_search (submission_search, rank) values ('secure-delete', 1)`.execute(db);
  // How many submissions hold each trigram: a search reads the rarest ones from the index.
  await sql`create virtual table submission_search_vocab using fts5vocab(submission_search, row)`.execute(db);
  await sql`insert into submission_search_rows (submission_id)
    select id from submissions where search_text is not null`.execute(db);
  await sql`insert into submission_search (rowid, search_text)
    select r.rowid, s.search_text from submission_search_rows r join submissions s on s.id = r.submission_id`.execute(
    db,
  );
  // A contentless table is told what a deleted row held (`'delete'` with the old text): exactly what was indexed,
  // since only these triggers write it.
  const forget = `insert into submission_search (submission_search, rowid, search_text)
        select 'delete', rowid, old.search_text from submission_search_rows
        where submission_id = old.id and old.search_text is not null;
      delete from submission_search_rows where submission_id = old.id;`;
  await sql`create trigger submission_search_insert after insert on submissions
    when new.search_text is not null begin
      insert into submission_search_rows (submission_id) values (new.id);
      insert into submission_search (rowid, search_text)
        values ((select rowid from submission_search_rows where submission_id = new.id), new.search_text);
    end`.execute(db);
  await sql
    .raw(
      `create trigger submission_search_update after update of search_text on submissions begin
      ${forget}
      insert into submission_search_rows (submission_id) select new.id where new.search_text is not null;
      insert into submission_search (rowid, search_text)
        select rowid, new.search_text from submission_search_rows
        where submission_id = new.id and new.search_text is not null;
    end`,
    )
    .execute(db);
  await sql
    .raw(`create trigger submission_search_delete after delete on submissions begin ${forget} end`)
    .execute(db);
}

import { type Kysely, sql } from 'kysely';
import type { Engine } from '../dialect/dialect.js';

/**
 * Reindex steps (src/store/reindex.ts) record the version they last built in `folio_reindex`, created by 0007.
 * A store migrated past 0007 before that table existed ran the list rebuild inside 0007 itself, with the code of
 * its day, which is the `lists` step's version 1: it gets the table here with that version recorded, so nothing
 * is rebuilt. A store that ran today's 0007 has the table, with no rows: every step is due.
 *
 * Frozen: spells out its own schema and never calls repository code.
 */
export async function up0014ReindexSteps(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const { rows } =
    engine === 'postgres'
      ? await sql<{ found: string | null }>`select to_regclass('folio_reindex')::text as found`.execute(db)
      : await sql<{ found: string | null }>`select name as found from sqlite_master
          where type = 'table' and name = 'folio_reindex'`.execute(db);
  if (rows[0]?.found != null) return;
  await db.schema
    .createTable('folio_reindex')
    .addColumn('step', 'text', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();
  await sql`insert into folio_reindex (step, version) values ('lists', 1)`.execute(db);
}

import { type Kysely, sql } from 'kysely';
import type { Engine } from '../dialect/dialect.js';

/**
 * PostgreSQL: every change of a space's cv, min_cv or settings sends `NOTIFY folio_cv` on commit, whoever wrote
 * it (a server's publish, `folio import` in another process, a prune), so every instance learns the new cv at
 * once (spec 1.2; src/cluster/pg-cv-listener.ts). The payload is `<schema> <cv> <min_cv> <space id>`: schemas
 * share the channel, listeners keep their own. SQLite has no NOTIFY: there the cv fan-out is Redis pub/sub or
 * the poll, so this migration has nothing to do.
 */
export async function up0006CvNotify(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== 'postgres') return;
  await sql`
    create or replace function folio_cv_notify() returns trigger language plpgsql as $$
    begin
      perform pg_notify('folio_cv', tg_table_schema || ' ' || new.cv || ' ' || new.min_cv || ' ' || new.id);
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger spaces_cv_notify after insert or update of cv, min_cv, settings, name on spaces
    for each row execute function folio_cv_notify()`.execute(db);
}

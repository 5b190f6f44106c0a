import { type Kysely, sql } from 'kysely';
import type { Engine } from '../dialect/dialect.js';

/**
 * Revocation reaches every instance within the cv fan-out bound: `spaces.token_gen` goes up by one with
 * every token revocation, in the revoking transaction. Instances read it with the cv poll and, on PostgreSQL, hear
 * it at once: a trigger sends `NOTIFY folio_tokens '<schema> <token_gen> <space id>'` on commit (the id last, as in
 * migration 0006, so it may hold any character). It is a channel of its own and a column of its own on purpose:
 * a revocation must not move `cv` (that would empty every cached response of the space), and instances that
 * listen only to `folio_cv` are not disturbed by a payload they do not know.
 *
 * Frozen: spells out its own schema and never calls repository code.
 */
export async function up0010TokenGeneration(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .alterTable('spaces')
    .addColumn('token_gen', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  if (engine !== 'postgres') return;
  await sql`
    create or replace function folio_tokens_notify() returns trigger language plpgsql as $$
    begin
      perform pg_notify('folio_tokens', tg_table_schema || ' ' || new.token_gen || ' ' || new.id);
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger spaces_tokens_notify after update of token_gen on spaces
    for each row execute function folio_tokens_notify()`.execute(db);
}

import { type Kysely, sql } from 'kysely';
import type { Engine } from '../dialect/dialect.js';

/**
 * `submissions.addresses_indexed`: 1 on every submission whose normalized addresses (`submission_addresses`,
 * migration 0020) were written with it. A binary from before this migration does not know the column, so what it
 * stores (an old instance still running beside a new one during an upgrade) keeps null, and the reindex step
 * `submission-addresses` finds those rows at every start through the partial index below and writes their
 * addresses; without the mark, erase would never find them.
 *
 * Frozen: spells out its own schema and never calls repository code.
 */
export async function up0030SubmissionAddressMarks(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema.alterTable('submissions').addColumn('addresses_indexed', 'integer').execute();
  await db.schema
    .createIndex('submissions_addresses_unindexed')
    .on('submissions')
    .columns(['space_id', 'created_at', 'id'])
    .where(sql.ref('addresses_indexed'), 'is', null)
    .execute();
}

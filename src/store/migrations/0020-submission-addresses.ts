import type { Kysely } from 'kysely';
import type { Engine } from '../dialect/dialect.js';

/**
 * The addresses of a submission: one row per email-field address, normalized as compared (NFKC,
 * lower case, invisible characters removed; src/forms/rules/email.ts), written in the submission's transaction and
 * deleted with it. `POST /forms/erase` finds a visitor's submissions by it, exactly and through an index, instead of
 * scanning every submission's values of the space.
 *
 * Rows of submissions stored before are written by the reindex step `submission-addresses`
 * (src/forms/addresses-repo.ts), which also normalizes their `uniqueField` keys: normalizing needs today's code.
 *
 * Frozen: spells out its own schema and never calls repository code.
 */
export async function up0020SubmissionAddresses(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema
    .createTable('submission_addresses')
    .addColumn('submission_id', 'text', (c) => c.notNull())
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('submission_addresses_pk', ['submission_id', 'address'])
    .execute();
  await db.schema
    .createIndex('submission_addresses_lookup')
    .on('submission_addresses')
    .columns(['space_id', 'address', 'submission_id'])
    .execute();
}

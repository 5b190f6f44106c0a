import type { Kysely } from 'kysely';

/**
 * The sync feed asks the published log "what opened or closed between cv A and cv B": one index per
 * edge of a version's life, per table, so a delta of a few changes in a large space reads a few rows.
 *
 * Frozen: spells out its own schema and never calls repository code.
 */
export async function up0011SyncIndexes(db: Kysely<unknown>): Promise<void> {
  for (const table of ['entry_versions', 'doc_versions', 'redirects']) {
    for (const edge of ['cv_from', 'cv_to']) {
      await db.schema.createIndex(`${table}_${edge}`).on(table).columns(['space_id', edge]).execute();
    }
  }
}

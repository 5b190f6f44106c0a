import type { Kysely, Transaction } from 'kysely';
import type { StoreDialect } from './dialect/dialect.js';
import type { Database } from './schema.js';

/**
 * A data backfill run with today's code after the migrations (STYLE.md rule 14: migrations are frozen and never
 * call live code). Derived tables, such as the entry-list tables the list domain rebuilds from the published log,
 * are built by a step; when what it builds changes, its `version` goes up and every store runs it once more.
 * Steps are handed to `openStore` by the composition root: the store knows none of them.
 */
export interface ReindexStep {
  /** Its row in `folio_reindex`. */
  readonly step: string;
  /** The version this code builds; a store that recorded a lower one (or none) runs `run`. */
  readonly version: number;
  /** Rebuilds, in the transaction it is given; it must give the same result however often it runs. */
  run(tx: Transaction<Database>, dialect: StoreDialect): Promise<void>;
  /**
   * Finds and fixes rows an older binary wrote without what this code derives (during a rolling upgrade an old
   * instance keeps writing after a new one migrated), at every open, not once: returns how many it fixed. Must be
   * cheap when there is nothing to fix (an index range of marked-missing rows).
   */
  repair?(tx: Transaction<Database>, dialect: StoreDialect): Promise<number>;
}

/**
 * Runs each step whose recorded version is below its own, each in one transaction that also records the new
 * version, then each step's `repair`, and returns the names of those that ran or repaired a row. Concurrent starts
 * run a step once: the step's row is locked first (PostgreSQL row lock, SQLite write lock), and a start that waited
 * finds the version recorded (and nothing left to repair).
 */
export async function reindexIfDue(
  db: Kysely<Database>,
  dialect: StoreDialect,
  steps: readonly ReindexStep[],
): Promise<string[]> {
  const ran: string[] = [];
  for (const step of steps) {
    const done = await db.transaction().execute(async (tx) => {
      await dialect.lockForWrite(tx);
      await tx
        .insertInto('folio_reindex')
        .values({ step: step.step, version: 0 })
        .onConflict((oc) => oc.column('step').doNothing())
        .execute();
      const row = await tx
        .selectFrom('folio_reindex')
        .select('version')
        .where('step', '=', step.step)
        .$if(dialect.rowLocks, (qb) => qb.forUpdate())
        .executeTakeFirstOrThrow();
      if (Number(row.version) >= step.version)
        return step.repair ? (await step.repair(tx, dialect)) > 0 : false;
      await step.run(tx, dialect);
      await tx
        .updateTable('folio_reindex')
        .set({ version: step.version })
        .where('step', '=', step.step)
        .execute();
      return true;
    });
    if (done) ran.push(step.step);
  }
  return ran;
}

/** The version a step last built in this store (0: never), for tests and `folio migrate`'s report. */
export async function reindexVersion(db: Kysely<Database>, step: string): Promise<number> {
  const row = await db
    .selectFrom('folio_reindex')
    .select('version')
    .where('step', '=', step)
    .executeTakeFirst();
  return row ? Number(row.version) : 0;
}

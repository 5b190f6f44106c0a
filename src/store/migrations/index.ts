import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { StoreDialect } from '../dialect/dialect.js';
import { up0001Initial } from './0001-initial.js';
import { up0002Outbox } from './0002-outbox.js';

type Up = (db: Kysely<unknown>, dialect: StoreDialect) => Promise<void>;

/**
 * Migrations are code, built per dialect (the JSON column type differs). Append only: one file per migration,
 * one line here; never edit a shipped one.
 */
const MIGRATIONS: [name: string, up: Up][] = [
  ['0001-initial', up0001Initial],
  ['0002-outbox', up0002Outbox],
];

export async function migrateToLatest(db: Kysely<unknown>, dialect: StoreDialect): Promise<void> {
  const migrations: Record<string, Migration> = {};
  for (const [name, up] of MIGRATIONS) migrations[name] = { up: (d: Kysely<unknown>) => up(d, dialect) };
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  const migrator = new Migrator({
    db,
    provider,
    migrationTableName: 'folio_migration',
    migrationLockTableName: 'folio_migration_lock',
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${(error as Error).message}`, { cause: error });
  }
}

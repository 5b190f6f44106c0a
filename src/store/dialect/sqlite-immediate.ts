import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from 'kysely';

/**
 * Kysely's SQLite transactions start with a plain `BEGIN`, which takes no lock until the first statement. Where
 * several processes write one file (`WORKERS`, `folio worker`, `folio import`), a transaction that reads and then
 * writes can then find its snapshot stale at its first write: SQLite fails it at once with SQLITE_BUSY_SNAPSHOT,
 * without waiting (busy_timeout does not apply). `BEGIN IMMEDIATE` takes the write lock first, so the transaction
 * waits for the other writer (busy_timeout) and then reads what it committed. Within one process Kysely's single
 * connection already runs one transaction at a time, so nothing changes there.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

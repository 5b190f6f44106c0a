import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { type CompiledQuery, Kysely } from 'kysely';
import pg from 'pg';
import Cursor from 'pg-cursor';
import type { StoreConfig } from '../config/config.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../lib/file-modes.js';
import type { StoreDialect } from './dialect/dialect.js';
import { namingPool } from './dialect/pg-named-statements.js';
import { OwnSchemaPostgresDialect } from './dialect/pg-own-schema.js';
import { postgresDialect } from './dialect/postgres.js';
import { sqliteDialect } from './dialect/sqlite.js';
import { withStatementCache } from './dialect/sqlite-statements.js';
import { ImmediateSqliteDialect } from './dialect/sqlite-immediate.js';
import { SqliteReader } from './dialect/sqlite-reader.js';
import { migrateToLatest } from './migrations/index.js';
import { reindexIfDue, type ReindexStep } from './reindex.js';
import type { Database } from './schema.js';

/** Called after a publish commits, in this process (the cv fan-out carries it to other instances). */
export type PublishListener = (spaceId: string, cv: number) => void;

export class PublishSignal {
  private readonly listeners = new Set<PublishListener>();
  on(listener: PublishListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  emit(spaceId: string, cv: number): void {
    for (const l of this.listeners) l(spaceId, cv);
  }
}

export interface Store {
  readonly db: Kysely<Database>;
  readonly dialect: StoreDialect;
  /** Every committed publish (cv bump) of this process. */
  readonly published: PublishSignal;
  /** Published history kept, in cache versions behind the current one (KEEP_VERSIONS); older is pruned. */
  keepVersions: number;
  /** The migrations and backfill steps this open applied (`folio migrate` reports them). */
  opened: { migrations: readonly string[]; reindexed: readonly string[] };
  /**
   * Set once a newer Folio migrated the store under this running process (src/store/schema-guard.ts): why writes
   * are refused from then on. Null: this binary knows the store's schema.
   */
  writesRefused: string | null;
  /** Checks the store answers (readiness). */
  ping(): Promise<void>;
  /** The PostgreSQL pool's clients (`/metrics`); null on SQLite, which has one connection and no pool. */
  poolStats(): { total: number; idle: number; waiting: number } | null;
  /**
   * SQLite: an online copy of the database into `file` (SQLite's backup API: consistent while writers go on;
   * `folio backup`). PostgreSQL: null, its dumps are `pg_dump`'s (docs/operations.md "Backup and restore").
   */
  readonly backup: ((file: string) => Promise<void>) | null;
  /**
   * Runs a read-only statement off the event loop: on SQLite, whose driver runs a statement synchronously, on a
   * reader thread with a connection of its own (src/store/dialect/sqlite-reader.ts), for statements that can take
   * tens of milliseconds in one call. Null where reads are I/O already (PostgreSQL) or the database is in memory
   * (no second connection can open it): run those on `db`.
   */
  readonly readApart: ((query: CompiledQuery) => Promise<Record<string, unknown>[]>) | null;
  close(): Promise<void>;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Opens the configured engine and brings it up to date: migrations run on start, then the reindex steps given
 * (src/store/reindex.ts: backfills with today's code, such as the list domain's `LIST_REINDEX`) that are due.
 */
export async function openStore(
  config: StoreConfig,
  options: {
    migrate?: boolean;
    keepVersions?: number;
    reindex?: readonly ReindexStep[];
    /** One line per migration applied and per backfill that ran (the CLI passes the console). */
    log?: (line: string) => void;
  } = {},
): Promise<Store> {
  const store =
    config.engine === 'sqlite'
      ? openSqlite(config.file)
      : await openPostgres(config).catch((err: unknown) => {
          throw unreachable(config.url, err);
        });
  store.keepVersions = options.keepVersions ?? 1000;
  if (options.migrate !== false) {
    try {
      const started = performance.now();
      const migrations = await migrateToLatest(store.db as Kysely<unknown>, store.dialect);
      // Kysely applies them in one go and reports afterwards: the time is the whole batch's, on the last line.
      const ms = Math.round(performance.now() - started);
      migrations.forEach((name, i) =>
        options.log?.(
          i < migrations.length - 1
            ? `Migration ${name} applied.`
            : `Migration ${name} applied (${migrations.length} in ${ms} ms).`,
        ),
      );
      const reindexed = await reindexIfDue(store.db, store.dialect, options.reindex ?? []);
      for (const step of reindexed) options.log?.(`Backfill ${step} ran.`);
      store.opened = { migrations, reindexed };
    } catch (err) {
      await store.close();
      throw config.engine === 'postgres' ? unreachable(config.url, err) : err;
    }
  }
  return store;
}

/** Errors of reaching PostgreSQL at all (network, login, database name), as opposed to an SQL error. */
const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ECONNRESET',
  '28000', // invalid authorization
  '28P01', // invalid password
  '3D000', // no such database
]);

/**
 * A failure to reach PostgreSQL names DATABASE_URL and where it points (never its password), so an operator knows
 * which setting to check; any other error passes unchanged.
 */
function unreachable(url: string, err: unknown): unknown {
  const code = typeof err === 'object' && err !== null ? Reflect.get(err, 'code') : undefined;
  const message = err instanceof Error ? err.message : String(err);
  const timedOut = /timeout exceeded when trying to connect|Connection terminated/i.test(message);
  if (!(typeof code === 'string' && CONNECT_CODES.has(code)) && !timedOut) return err;
  let where = 'the server it names';
  try {
    const u = new URL(url);
    where = `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    // Checked by loadConfig; kept generic rather than echoing a URL that may hold a password.
  }
  return new Error(`DATABASE_URL: cannot connect to PostgreSQL at ${where} (${message || String(code)}).`, {
    cause: err,
  });
}

function openSqlite(file: string): Store {
  if (file !== ':memory:') {
    mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
    // Created 0600 before SQLite opens it: SQLite would create it 0644 under umask 022, and it gives the -wal and
    // -shm files the database file's mode. An existing file keeps its mode (docs/operations.md "Privacy").
    closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  }
  const database = new BetterSqlite3(file);
  // WAL lets readers run beside the single writer; NORMAL is durable across process crashes in WAL mode.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  // Deleted content is overwritten with zeros in the database file (an erased address must not be
  // readable from free pages); the WAL's copies go at the next dialect.purgeDeleted (after an erase or a sweep).
  database.pragma('secure_delete = ON');
  database.pragma('busy_timeout = 5000');
  // The default page cache is 2 MB; the list tables' indexes are wide, and a large publish (an import) touches
  // pages all over them. 64 MB (negative: KiB) is a bound, allocated only as pages are used.
  database.pragma('cache_size = -65536');
  database.pragma('temp_store = MEMORY');
  const db = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database: withStatementCache(database) }),
  });
  const reader = file === ':memory:' ? null : new SqliteReader(file);
  return {
    db,
    dialect: sqliteDialect,
    published: new PublishSignal(),
    keepVersions: 1000,
    opened: { migrations: [], reindexed: [] },
    writesRefused: null,
    async ping() {
      database.prepare('select 1').get();
    },
    poolStats: () => null,
    backup: async (target) => {
      await database.backup(target);
    },
    readApart: reader === null ? null : (query) => reader.all(query),
    async close() {
      await reader?.close();
      await db.destroy();
    },
  };
}

async function openPostgres(config: Extract<StoreConfig, { engine: 'postgres' }>): Promise<Store> {
  const schema = config.schema;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) throw new Error(`Invalid schema name "${schema}"`);
  if (schema !== undefined) {
    const admin = new pg.Client({ connectionString: config.url });
    await admin.connect();
    try {
      await admin.query(`create schema if not exists ${schema}`);
    } finally {
      await admin.end();
    }
  }
  const named = config.namedStatements !== false;
  // Settings of every connection, sent when it starts. No parallel plans: Folio's statements read a page, a count
  // up to a limit or a cursor's batch, and starting parallel workers cost more than they saved (30-40 ms before
  // the first row of a 5 ms inbox page on a 2-core host, chosen because generic plans guess thousands of rows).
  const options = [
    '-c max_parallel_workers_per_gather=0',
    ...(schema === undefined ? [] : [`-c search_path=${schema}`]),
  ].join(' ');
  const pool = new pg.Pool({
    connectionString: config.url,
    max: 10,
    // An unreachable server fails a request in bounded time (503 unavailable), never hangs it.
    connectionTimeoutMillis: 5000,
    options,
  });
  // An idle client's error (server restart) must not crash the process; the pool replaces the client.
  pool.on('error', () => {});
  // Nor may a connection lost while a client is checked out (the pool listens only to idle ones): the running
  // query fails (503 unavailable) and the pool drops the client when it comes back.
  pool.on('connect', (client) => {
    client.on('error', () => {});
    // Named statements plan generically (src/store/dialect/pg-named-statements.ts). The setting is the session's:
    // an unnamed statement with parameters is planned generically too (measured: a LIKE whose pattern decides the
    // plan took the index for a term in every row), so a query whose best plan depends on a value writes that
    // value into its text (the inbox search). pg queues it before the client's first query.
    if (named) client.query('set plan_cache_mode = force_generic_plan').catch(() => {});
  });
  const db = new Kysely<Database>({
    dialect: new OwnSchemaPostgresDialect({
      pool: namingPool(pool, named),
      cursor: Cursor,
    }),
  });
  return {
    db,
    dialect: postgresDialect,
    published: new PublishSignal(),
    keepVersions: 1000,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    backup: null,
    readApart: null,
    opened: { migrations: [], reindexed: [] },
    writesRefused: null,
    async ping() {
      const client = await pool.connect();
      try {
        await client.query('select 1');
      } finally {
        client.release();
      }
    },
    async close() {
      await db.destroy();
    },
  };
}

import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/**
 * Kysely's SQLite driver prepares every query anew, and preparing (parsing, planning) costs as much as running a
 * small insert. better-sqlite3 statements are reusable, so the database handed to Kysely keeps the most recently
 * used ones by SQL text. Safe with Kysely's single connection: its mutex lets one query (or stream) run at a time,
 * so a cached statement is never busy when it is reused; SQLite re-prepares a statement itself after a schema change.
 */
export function withStatementCache(database: BetterSqlite3.Database, max = 256): SqliteDatabase {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => {
      cache.clear();
      database.close();
    },
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (statement) {
        // Map order is insertion order: re-inserting marks it most recently used.
        cache.delete(sql);
        cache.set(sql, statement);
        return statement;
      }
      statement = database.prepare(sql);
      cache.set(sql, statement);
      if (cache.size > max) {
        const oldest = cache.keys().next().value;
        if (oldest !== undefined) cache.delete(oldest);
      }
      return statement;
    },
  };
}

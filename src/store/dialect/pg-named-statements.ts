import { createHash } from 'node:crypto';
import {
  type PostgresCursor,
  type PostgresPool,
  type PostgresPoolClient,
  type PostgresQueryResult,
  type RawBuilder,
  sql,
} from 'kysely';
import type pg from 'pg';

/**
 * Named prepared statements for the hot fixed-shape reads on PostgreSQL (issue 17).
 *
 * Kysely sends every query as an unnamed statement, which PostgreSQL parses and plans on each execution. For the
 * small reads of uncached delivery that planning is most of the statement's cost: by-path's join plans in 0.3–0.8 ms
 * and runs in 0.05 ms. A named statement is parsed once per connection, and after five executions PostgreSQL keeps a
 * generic plan when it costs no more than the custom ones (measured: the by-path statement 468 generic plans of 473;
 * a list page statement, whose plan depends on its values, stayed on custom plans, so lists are not marked).
 *
 * Only statements marked with `prepared()` are named, by a hash of their text: each distinct text stays prepared on
 * every connection for the connection's life, so mark only statements with a bounded number of texts (values are
 * always parameters, never part of the text). SQLite ignores the mark (its statements are cached by text anyway).
 */
const MARK = '/* folio:prepared */';

/** Marks a statement to run as a named prepared statement on PostgreSQL (see above: bounded texts only). */
export function prepared<T>(statement: RawBuilder<T>): RawBuilder<T> {
  return sql<T>`${sql.raw(MARK)} ${statement}`;
}

/** The mark, for a query builder's `modifyFront` (`select /* folio:prepared *\/ …`). */
export const PREPARED_MARK = sql.raw(MARK);

const nameOf = (text: string): string =>
  `folio_${createHash('sha1').update(text).digest('base64url').slice(0, 27)}`;

/** One per pg client, so Kysely (which keeps its connection objects by client) sees the same client each time. */
class NamingClient implements PostgresPoolClient {
  constructor(private readonly client: pg.PoolClient) {}

  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(
    query: string | PostgresCursor<R>,
    parameters?: ReadonlyArray<unknown>,
  ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    // A cursor (Kysely's streams) is pg-cursor's Submittable: pg returns it as it is.
    if (typeof query !== 'string') return (this.client as unknown as PostgresPoolClient).query(query);
    const values = [...(parameters ?? [])];
    const config: pg.QueryConfig = query.includes(MARK)
      ? { name: nameOf(query), text: query, values }
      : { text: query, values };
    // pg types `command` as any string; Kysely reads it only to count affected rows of writes.
    return this.client.query(config) as unknown as Promise<PostgresQueryResult<R>>;
  }

  release(): void {
    this.client.release();
  }
}

/** The pool Kysely gets: marked statements run named (`enabled`), every other one as before. */
export function namingPool(pool: pg.Pool, enabled: boolean): PostgresPool {
  if (!enabled) return pool;
  const clients = new WeakMap<pg.PoolClient, NamingClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let named = clients.get(client);
      if (!named) clients.set(client, (named = new NamingClient(client)));
      return named;
    },
    end: () => pool.end(),
  };
}

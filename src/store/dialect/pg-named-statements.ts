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
 * Named prepared statements for the hot fixed-shape reads on PostgreSQL.
 *
 * Kysely sends every query as an unnamed statement, which PostgreSQL parses and plans on each execution. For the
 * small reads of uncached delivery that planning is most of the statement's cost (docs/operations.md, "Figures
 * behind the code"). A named statement is parsed once per connection, and after five executions PostgreSQL keeps a
 * generic plan when it costs no more than the custom ones (the by-path statement nearly always did; a list page
 * statement, whose plan depends on its values, stayed on custom plans, so lists are not marked).
 *
 * Only statements marked with `prepared()` are named, by a hash of their text: each distinct text stays prepared on
 * every connection for the connection's life, so mark only statements with a bounded number of texts (values are
 * always parameters, never part of the text). SQLite ignores the mark (its statements are cached by text anyway).
 *
 * `preparedShape()` marks statements whose text follows a request's shape (a list's filters and sort: many texts,
 * each repeated): a connection keeps the 64 it used last and deallocates the one that falls out. Connections with
 * named statements plan them generically (`plan_cache_mode = force_generic_plan`): PostgreSQL kept custom plans for
 * list statements, planning each execution again (planning took longer than executing), while
 * the list_rows statements this is for have one good plan whatever the values: their SQL already says which index
 * drives (list-sources-repo.ts). Measured generic against custom on 100k posts: no statement slower.
 */
const MARK = '/* folio:prepared */';
const SHAPE_MARK = '/* folio:prepared-shape */';
/** Shape statements a connection keeps prepared; the least recently used past it is deallocated. */
export const SHAPES_PER_CONNECTION = 64;

/** Marks a statement to run as a named prepared statement on PostgreSQL (see above: bounded texts only). */
export function prepared<T>(statement: RawBuilder<T>): RawBuilder<T> {
  return sql<T>`${sql.raw(MARK)} ${statement}`;
}

/** Marks a statement whose text follows a request's shape: named while among a connection's 64 last used. */
export function preparedShape<T>(statement: RawBuilder<T>): RawBuilder<T> {
  return sql<T>`${sql.raw(SHAPE_MARK)} ${statement}`;
}

/** The mark, for a query builder's `modifyFront` (`select /* folio:prepared *\/ …`). */
export const PREPARED_MARK = sql.raw(MARK);

const nameOf = (text: string): string =>
  `folio_${createHash('sha1').update(text).digest('base64url').slice(0, 27)}`;

/**
 * pg's record of the statements it parsed on a connection (it skips Parse for a name it holds): a deallocated
 * statement must leave it, or pg would bind to a statement the server no longer has. Not part of pg's types; null
 * where a pg version lacks it, and then shape statements run unnamed.
 */
function parsedStatements(client: pg.PoolClient): Record<string, unknown> | null {
  const connection = (client as unknown as { connection?: { parsedStatements?: unknown } }).connection;
  const parsed = connection?.parsedStatements;
  return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : null;
}

/** One per pg client, so Kysely (which keeps its connection objects by client) sees the same client each time. */
class NamingClient implements PostgresPoolClient {
  /** Names of the shape statements prepared on this connection, least recently used first. */
  private readonly shapes = new Map<string, true>();

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
    if (query.includes(SHAPE_MARK)) return this.shapeQuery<R>(query, values);
    const config: pg.QueryConfig = query.includes(MARK)
      ? { name: nameOf(query), text: query, values }
      : { text: query, values };
    // pg types `command` as any string; Kysely reads it only to count affected rows of writes.
    return this.client.query(config) as unknown as Promise<PostgresQueryResult<R>>;
  }

  private async shapeQuery<R>(text: string, values: unknown[]): Promise<PostgresQueryResult<R>> {
    const name = nameOf(text);
    const parsed = parsedStatements(this.client);
    if (this.shapes.delete(name)) this.shapes.set(name, true);
    else if (parsed === null) {
      return this.client.query({ text, values }) as unknown as Promise<PostgresQueryResult<R>>;
    } else {
      const oldest = this.shapes.size >= SHAPES_PER_CONNECTION ? this.shapes.keys().next().value : undefined;
      if (oldest !== undefined) {
        this.shapes.delete(oldest);
        delete parsed[oldest];
        // The name is folio_ and base64url: quoted, since it may hold '-' and capitals.
        await this.client.query(`deallocate "${oldest}"`);
      }
      this.shapes.set(name, true);
    }
    return this.client.query({ name, text, values }) as unknown as Promise<PostgresQueryResult<R>>;
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

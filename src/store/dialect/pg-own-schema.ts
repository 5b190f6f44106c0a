import {
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  type Kysely,
  PostgresDialect,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from 'kysely';

/**
 * Kysely's PostgreSQL introspector (its migrator asks it whether the migration tables exist) reads the columns of
 * every schema and calls `has_schema_privilege(nspname, …)` on each name it read: a schema another connection
 * drops meanwhile fails the call with "schema … does not exist", so a store migrating beside another being
 * dropped (parallel test files, or any tenant schema removed during a deploy) failed its start. A store only
 * ever needs its own tables, so this one reads the tables of `current_schema()` and never another schema's name.
 */
class OwnSchemaIntrospector implements DatabaseIntrospector {
  // Kysely's own introspectors take the untyped instance: they query the catalogs, not the app's tables.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the catalogs are not in the app's schema type
  constructor(private readonly db: Kysely<any>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace`.execute(
      this.db,
    );
    return rows.map((r) => ({ name: r.name }));
  }

  /** Tables and views of the current schema, without their columns (the migrator asks for names only). */
  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string; schema: string; kind: string }>`
      select c.relname as name, n.nspname as schema, c.relkind as kind
      from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind in ('r', 'v', 'p')
      order by c.relname`.execute(this.db);
    return rows.map((r) => ({ name: r.name, schema: r.schema, isView: r.kind === 'v', columns: [] }));
  }

  async getMetadata(_options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}

/** Kysely's PostgreSQL dialect with an introspector that reads the store's own schema only. */
export class OwnSchemaPostgresDialect extends PostgresDialect {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the signature Kysely's Dialect declares
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new OwnSchemaIntrospector(db);
  }
}

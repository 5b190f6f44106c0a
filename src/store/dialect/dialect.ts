/** What differs between the two engines, kept small (STYLE.md rule 2). */
export interface StoreDialect {
  readonly engine: 'sqlite' | 'postgres';
  /** Column type for JSON documents. */
  readonly jsonType: 'jsonb' | 'text';
  /**
   * Whether a query can stream its rows (Kysely `.stream()`) on a connection of its own. PostgreSQL can, through
   * a server-side cursor on one pooled connection; SQLite has a single connection, and a stream would hold it,
   * and with it every other query, for as long as the client reads.
   */
  readonly streamsRows: boolean;
  /** Reads a JSON column as returned by the driver. */
  parseJson<T>(value: unknown): T;
}

/** What differs between the two engines, kept small (STYLE.md rule 2). */
export interface StoreDialect {
  readonly engine: 'sqlite' | 'postgres';
  /** Column type for JSON documents. */
  readonly jsonType: 'jsonb' | 'text';
  /** Reads a JSON column as returned by the driver. */
  parseJson<T>(value: unknown): T;
}

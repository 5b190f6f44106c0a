import type { StoreDialect } from './dialect.js';

export const postgresDialect: StoreDialect = {
  engine: 'postgres',
  jsonType: 'jsonb',
  streamsRows: true,
  // node-postgres parses jsonb already; objects and arrays are the only values stored.
  parseJson<T>(value: unknown): T {
    return value as T;
  },
};

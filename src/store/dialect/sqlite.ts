import type { StoreDialect } from './dialect.js';

export const sqliteDialect: StoreDialect = {
  engine: 'sqlite',
  jsonType: 'text',
  streamsRows: false,
  parseJson<T>(value: unknown): T {
    return (typeof value === 'string' ? JSON.parse(value) : value) as T;
  },
};

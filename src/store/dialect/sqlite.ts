import type { StoreDialect } from './dialect.js';

export const sqliteDialect: StoreDialect = {
  engine: 'sqlite',
  jsonType: 'text',
  parseJson<T>(value: unknown): T {
    return (typeof value === 'string' ? JSON.parse(value) : value) as T;
  },
};

import type { StoreDialect } from '../../../store/dialect/dialect.js';
import type { InboxSql } from './inbox-sql.js';
import { postgresInboxSql } from './postgres.js';
import { sqliteInboxSql } from './sqlite.js';

export type { InboxSql } from './inbox-sql.js';

/** The one place the inbox picks its engine's SQL. */
export function inboxSql(dialect: StoreDialect): InboxSql {
  return dialect.engine === 'postgres' ? postgresInboxSql : sqliteInboxSql;
}

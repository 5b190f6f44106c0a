import { parseScopes, type Scope } from '../auth/scopes.js';
import type { Store } from './open-store.js';
import type { Selectable } from 'kysely';
import type { Database } from './schema.js';
import type { Queryable } from './spaces-repo.js';

export type TokenKind = 'public' | 'preview' | 'management';

export interface TokenRow {
  id: string;
  spaceId: string;
  kind: TokenKind;
  hash: string;
  hint: string;
  name: string | null;
  origins: string[];
  createdAt: string;
  /** Management tokens: the scopes it has; null = every scope (src/auth/scopes.ts). */
  scopes: readonly Scope[] | null;
}

/** A token to store; `scopes` left out or null is every scope (only management tokens have scopes). */
export type NewToken = Omit<TokenRow, 'scopes'> & { scopes?: readonly Scope[] | null };

export async function insertToken(db: Queryable, token: NewToken): Promise<void> {
  await db
    .insertInto('tokens')
    .values({
      id: token.id,
      space_id: token.spaceId,
      kind: token.kind,
      hash: token.hash,
      hint: token.hint,
      name: token.name,
      origins: JSON.stringify(token.origins),
      created_at: token.createdAt,
      scopes: token.scopes === undefined || token.scopes === null ? null : JSON.stringify(token.scopes),
    })
    .execute();
}

export async function findTokenByHash(store: Store, hash: string): Promise<TokenRow | null> {
  const row = await store.db.selectFrom('tokens').selectAll().where('hash', '=', hash).executeTakeFirst();
  return row ? tokenOf(store, row) : null;
}

export async function listTokens(
  store: Store,
  spaceId: string,
  db: Queryable = store.db,
): Promise<TokenRow[]> {
  const rows = await db
    .selectFrom('tokens')
    .selectAll()
    .where('space_id', '=', spaceId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => tokenOf(store, row));
}

function tokenOf(store: Store, row: Selectable<Database['tokens']>): TokenRow {
  const stored = row.scopes === null ? null : parseScopes(store.dialect.parseJson<unknown>(row.scopes));
  return {
    id: row.id,
    spaceId: row.space_id,
    kind: row.kind,
    hash: row.hash,
    hint: row.hint,
    name: row.name,
    origins: store.dialect.parseJson<string[]>(row.origins),
    createdAt: row.created_at,
    // Unreadable scopes grant nothing rather than everything (fail closed).
    scopes: stored === null ? null : stored.ok ? stored.scopes : [],
  };
}

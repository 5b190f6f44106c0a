import type { Store } from './open-store.js';
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
}

export async function insertToken(db: Queryable, token: TokenRow): Promise<void> {
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
    })
    .execute();
}

export async function findTokenByHash(store: Store, hash: string): Promise<TokenRow | null> {
  const row = await store.db.selectFrom('tokens').selectAll().where('hash', '=', hash).executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    spaceId: row.space_id,
    kind: row.kind,
    hash: row.hash,
    hint: row.hint,
    name: row.name,
    origins: store.dialect.parseJson<string[]>(row.origins),
    createdAt: row.created_at,
  };
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
  return rows.map((row) => ({
    id: row.id,
    spaceId: row.space_id,
    kind: row.kind,
    hash: row.hash,
    hint: row.hint,
    name: row.name,
    origins: store.dialect.parseJson<string[]>(row.origins),
    createdAt: row.created_at,
  }));
}

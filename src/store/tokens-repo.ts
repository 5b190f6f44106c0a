import { parseScopes, type Scope } from '../lib/scope-names.js';
import type { Store } from './open-store.js';
import type { Selectable, Transaction } from 'kysely';
import type { Database } from './schema.js';
import type { Queryable } from './spaces-repo.js';

export type TokenKind = 'public' | 'preview' | 'management';

/** The person a management token stands for (migration 0027): their id is the token's. */
export interface TokenPerson {
  name: string;
  email: string | null;
}

export interface TokenRow {
  id: string;
  spaceId: string;
  kind: TokenKind;
  hash: string;
  hint: string;
  name: string | null;
  origins: string[];
  createdAt: string;
  /** Management tokens: the scopes it has; null = every scope (src/lib/scope-names.ts). */
  scopes: readonly Scope[] | null;
  /** Management tokens: the person it stands for; null for a tool's token (and every other kind). */
  person: TokenPerson | null;
  /**
   * Public tokens: made for a site's server (server-side rendering; migration 0029), so it may name its visitor in
   * `Folio-Visitor-Ip` (src/ratelimit/visitors.ts). Always false for other kinds.
   */
  serverSide: boolean;
}

/** A token to store; `scopes` left out or null is every scope (only management tokens have scopes). */
export type NewToken = Omit<TokenRow, 'scopes' | 'person' | 'serverSide'> & {
  scopes?: readonly Scope[] | null;
  person?: TokenPerson | null;
  serverSide?: boolean;
};

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
      person_name: token.person?.name ?? null,
      person_email: token.person?.email ?? null,
      server_side: token.kind === 'public' && token.serverSide === true ? 1 : 0,
    })
    .execute();
}

/** Sets or clears the person of one management token of the space; false when there is no such token. */
export async function updateTokenPerson(
  db: Queryable,
  spaceId: string,
  id: string,
  person: TokenPerson | null,
): Promise<boolean> {
  const r = await db
    .updateTable('tokens')
    .set({ person_name: person?.name ?? null, person_email: person?.email ?? null })
    .where('space_id', '=', spaceId)
    .where('id', '=', id)
    .where('kind', '=', 'management')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** A person of the space: a management token that carries one. */
export interface Person extends TokenPerson {
  id: string;
}

/** The space's people (management tokens with a person), by name then id. */
export async function listPeople(db: Queryable, spaceId: string): Promise<Person[]> {
  const rows = await db
    .selectFrom('tokens')
    .select(['id', 'person_name', 'person_email'])
    .where('space_id', '=', spaceId)
    .where('kind', '=', 'management')
    .where('person_name', 'is not', null)
    .orderBy('person_name')
    .orderBy('id')
    .execute();
  return rows.flatMap((r) =>
    r.person_name === null ? [] : [{ id: r.id, name: r.person_name, email: r.person_email }],
  );
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

/** Deletes one token of the space; false when the space has no token with that id. */
export async function deleteToken(db: Queryable, spaceId: string, id: string): Promise<boolean> {
  const r = await db
    .deleteFrom('tokens')
    .where('space_id', '=', spaceId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/**
 * Runs `work` in one transaction with the space's token generation incremented first (migration 0010), the way
 * `withPublish` does with cv: the UPDATE takes the space row's lock, so changes to a space's tokens are serialised
 * (two revocations cannot each leave the other as the last admin), and every instance that sees the new
 * generation drops its cached lookups of the space's tokens. Null when the space does not exist.
 */
export async function withTokenChange<T>(
  store: Store,
  spaceId: string,
  work: (tx: Transaction<Database>) => Promise<T>,
): Promise<{ gen: number; result: T } | null> {
  return store.db.transaction().execute(async (tx) => {
    const row = await tx
      .updateTable('spaces')
      .set((eb) => ({ token_gen: eb('token_gen', '+', 1) }))
      .where('id', '=', spaceId)
      .returning('token_gen')
      .executeTakeFirst();
    if (!row) return null;
    return { gen: Number(row.token_gen), result: await work(tx) };
  });
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
    person:
      row.kind === 'management' && row.person_name !== null
        ? { name: row.person_name, email: row.person_email }
        : null,
    serverSide: row.kind === 'public' && Number(row.server_side) === 1,
  };
}

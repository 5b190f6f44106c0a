// The inbox's browser sessions (migration 0021): rows keyed by the sha256 of the session id, standing for one
// management token (its id and hash, never its value).

import type { Store } from '../store/open-store.js';

export interface SessionRow {
  idHash: string;
  spaceId: string;
  tokenId: string;
  tokenHash: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
}

export async function insertSession(store: Store, row: SessionRow): Promise<void> {
  await store.db
    .insertInto('inbox_sessions')
    .values({
      id_hash: row.idHash,
      space_id: row.spaceId,
      token_id: row.tokenId,
      token_hash: row.tokenHash,
      created_at: row.createdAt,
      last_seen_at: row.lastSeenAt,
      expires_at: row.expiresAt,
    })
    .execute();
}

/** The session with this id hash, unless it expired before `now` or was opened before `bornAfter`. */
export async function findLiveSession(
  store: Store,
  idHash: string,
  now: string,
  bornAfter: string,
): Promise<SessionRow | null> {
  const row = await store.db
    .selectFrom('inbox_sessions')
    .selectAll()
    .where('id_hash', '=', idHash)
    .where('expires_at', '>', now)
    .where('created_at', '>', bornAfter)
    .executeTakeFirst();
  if (!row) return null;
  return {
    idHash: row.id_hash,
    spaceId: row.space_id,
    tokenId: row.token_id,
    tokenHash: row.token_hash,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    expiresAt: row.expires_at,
  };
}

/** Moves the idle limit on (the session was used). */
export async function touchSession(
  store: Store,
  idHash: string,
  lastSeenAt: string,
  expiresAt: string,
): Promise<void> {
  await store.db
    .updateTable('inbox_sessions')
    .set({ last_seen_at: lastSeenAt, expires_at: expiresAt })
    .where('id_hash', '=', idHash)
    .execute();
}

export async function deleteSession(store: Store, idHash: string): Promise<boolean> {
  const r = await store.db.deleteFrom('inbox_sessions').where('id_hash', '=', idHash).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/**
 * Forgets sessions idle past their limit or opened before `bornAfter` (run at each sign-in: sessions are few, the
 * index makes the first a range).
 */
export async function deleteExpiredSessions(store: Store, now: string, bornAfter: string): Promise<number> {
  const r = await store.db
    .deleteFrom('inbox_sessions')
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('created_at', '<=', bornAfter)]))
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

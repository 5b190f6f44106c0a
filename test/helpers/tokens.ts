import type { Scope } from '../../src/auth/scopes.js';
import { generateToken, hashToken, tokenHint } from '../../src/auth/tokens.js';
import { newId } from '../../src/lib/ids.js';
import type { Store } from '../../src/store/open-store.js';
import { insertToken } from '../../src/store/tokens-repo.js';

/** Stores a new management token of the space with exactly these scopes and answers its value. */
export async function storeScopedToken(
  store: Store,
  spaceId: string,
  scopes: readonly Scope[],
): Promise<string> {
  const value = generateToken('management');
  await insertToken(store.db, {
    id: newId('tok'),
    spaceId,
    kind: 'management',
    hash: hashToken(value),
    hint: tokenHint(value),
    name: null,
    origins: [],
    createdAt: new Date().toISOString(),
    scopes,
  });
  return value;
}

/** Stores a management token standing for a person (every scope unless given) and answers its id and value. */
export async function storePerson(
  store: Store,
  spaceId: string,
  name: string,
  email: string | null = null,
  scopes: readonly Scope[] | null = null,
): Promise<{ id: string; token: string }> {
  const value = generateToken('management');
  const id = newId('tok');
  await insertToken(store.db, {
    id,
    spaceId,
    kind: 'management',
    hash: hashToken(value),
    hint: tokenHint(value),
    name: null,
    origins: [],
    createdAt: new Date().toISOString(),
    scopes,
    person: { name, email },
  });
  return { id, token: value };
}

// Who an activity entry's actor is, in words: the person a management token stands for, else the
// token's own name. Tokens are read once per answer; a revoked token's entries keep their id and get no name.

import type { Store } from '../store/open-store.js';
import { listTokens } from '../store/tokens-repo.js';

export async function actorNames(store: Store, spaceId: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const t of await listTokens(store, spaceId)) {
    const name = t.person?.name ?? t.name;
    if (name !== null && name !== '') out.set(t.id, name);
  }
  return out;
}

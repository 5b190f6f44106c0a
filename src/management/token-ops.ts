// The token API: list, create and revoke a space's tokens. A token's value is shown once, when it is
// created; the store keeps its sha256, and neither the value nor the hash ever leaves in an answer or a log.

import { recordActivity } from '../activity/activity-repo.js';
import { hasScope, parseScopes, type Scope, scopesOf } from '../auth/scopes.js';
import type { TokenCache } from '../auth/token-cache.js';
import { generateToken, hashToken, tokenHint } from '../auth/tokens.js';
import { newId } from '../lib/ids.js';
import { conflict, forbidden, invalidBody, notFound } from '../errors/errors.js';
import type { Store } from '../store/open-store.js';
import {
  deleteToken,
  insertToken,
  listTokens,
  type TokenKind,
  type TokenPerson,
  type TokenRow,
  updateTokenPerson,
  withTokenChange,
} from '../store/tokens-repo.js';
import { isEmail } from '../forms/rules/index.js';
import { requireSpace } from '../content/context.js';
import { enqueueEvent } from '../jobs/outbox-repo.js';

export interface TokenOpsDeps {
  store: Store;
  tokens: TokenCache;
}

/**
 * A token as answered. `scopes` is what a management token may do; a token stored without scopes (every token
 * from before migration 0009) lists every scope and says `allScopes: true` (it also gets scopes later versions
 * add). Public and preview tokens have no scopes: `scopes: null`, `allScopes: false`.
 */
export interface TokenView {
  id: string;
  kind: TokenKind;
  name: string | null;
  hint: string;
  origins: string[];
  scopes: Scope[] | null;
  allScopes: boolean;
  createdAt: string;
  /** Management tokens: the person it stands for (their id is the token's); null for a tool's token. */
  person: TokenPerson | null;
  /** Public tokens made for a site's server: it may name its visitor in `Folio-Visitor-Ip` (docs/api.md). */
  serverSide: boolean;
}

export function tokenView(t: TokenRow): TokenView {
  const management = t.kind === 'management';
  return {
    id: t.id,
    kind: t.kind,
    name: t.name,
    hint: t.hint,
    origins: [...t.origins],
    scopes: management ? [...scopesOf(t)] : null,
    allScopes: management && t.scopes === null,
    createdAt: t.createdAt,
    person: t.person === null ? null : { ...t.person },
    serverSide: t.serverSide,
  };
}

/** A person's name: 1–200 characters once trimmed; their email, when given, an address (kept as written, trimmed). */
export const MAX_PERSON_NAME = 200;

/** `person` of a create or change body: `{ name, email? }`, or null for none. Throws 400 `invalid_body`. */
export function parsePerson(raw: unknown): TokenPerson | null {
  if (raw === null) return null;
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw invalidBody('"person" must be { name, email? } or null.', { details: { member: 'person' } });
  const { name, email, ...rest } = raw as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined)
    throw invalidBody(`"person" takes name and email, not "${extra.slice(0, 40)}".`, {
      details: { member: `person.${extra.slice(0, 40)}` },
    });
  const trimmed = typeof name === 'string' ? name.trim() : '';
  if (trimmed === '' || [...trimmed].length > MAX_PERSON_NAME || /[\p{Cc}]/u.test(trimmed))
    throw invalidBody(`"person.name" must be 1 to ${MAX_PERSON_NAME} characters.`, {
      details: { member: 'person.name' },
    });
  if (email === undefined || email === null) return { name: trimmed, email: null };
  if (typeof email !== 'string' || !isEmail(email.trim()) || email.length > 320)
    throw invalidBody('"person.email" must be an email address.', { details: { member: 'person.email' } });
  return { name: trimmed, email: email.trim() };
}

/** A create request, checked: the route's JSON schema checked the shape, this rebuilds it typed. */
export interface NewTokenRequest {
  kind: TokenKind;
  name: string | null;
  origins: string[];
  /** Undefined: the creating token's own scopes. */
  scopes: Scope[] | undefined;
  /** Management tokens only: the person it stands for. */
  person: TokenPerson | null;
  /** Public tokens only: made for a site's server (set once, at creation). */
  serverSide: boolean;
}

const KINDS: readonly TokenKind[] = ['public', 'preview', 'management'];
/** Whether `value` is an origin like https://example.com (no path, no trailing slash). */
export const isOrigin = (value: string): boolean => {
  try {
    return new URL(value).origin === value;
  } catch {
    return false;
  }
};

export function parseNewToken(body: Record<string, unknown>): NewTokenRequest {
  const { kind, name, origins, scopes, person, serverSide } = body;
  const knownKind = KINDS.find((k) => k === kind);
  if (knownKind === undefined) throw invalidBody(`"kind" must be one of ${KINDS.join(', ')}.`);
  if (name !== undefined && name !== null && typeof name !== 'string')
    throw invalidBody('"name" must be a string.');
  const originList: string[] = [];
  if (origins !== undefined) {
    if (!Array.isArray(origins)) throw invalidBody('"origins" must be an array of origins.');
    for (const o of origins) {
      if (typeof o !== 'string' || !isOrigin(o))
        throw invalidBody(
          `"origins": "${String(o).slice(0, 80)}" is not an origin like https://example.com.`,
        );
      originList.push(o);
    }
  }
  let scopeList: Scope[] | undefined;
  if (scopes !== undefined) {
    if (knownKind !== 'management') throw invalidBody('"scopes" apply to management tokens only.');
    const parsed = parseScopes(scopes);
    if (!parsed.ok) throw invalidBody(`"scopes" ${parsed.problem}.`);
    scopeList = parsed.scopes;
  }
  if (person !== undefined && person !== null && knownKind !== 'management')
    throw invalidBody('"person" applies to management tokens only.', { details: { member: 'person' } });
  if (serverSide !== undefined && typeof serverSide !== 'boolean')
    throw invalidBody('"serverSide" must be true or false.', { details: { member: 'serverSide' } });
  // A server-side token vouches for the visitor address it forwards: it must never sit in a page (a page's token
  // can be copied by anyone), so it is a public token without origins (origins are for tokens in pages).
  if (serverSide === true && knownKind !== 'public')
    throw invalidBody('"serverSide" applies to public tokens only.', { details: { member: 'serverSide' } });
  if (serverSide === true && originList.length > 0)
    throw invalidBody('A server-side token is used by a server, not a page: it takes no "origins".', {
      details: { member: 'serverSide' },
    });
  return {
    kind: knownKind,
    name: typeof name === 'string' ? name : null,
    origins: originList,
    scopes: scopeList,
    person: person === undefined ? null : parsePerson(person),
    serverSide: serverSide === true,
  };
}

export async function listTokenViews(deps: TokenOpsDeps, spaceId: string): Promise<TokenView[]> {
  await requireSpace(deps.store, spaceId);
  return (await listTokens(deps.store, spaceId)).map(tokenView);
}

/** Activity details of a token: its kind and scopes (`all` for every scope), never its value or hash. */
const detailsOf = (t: TokenRow) => ({
  kind: t.kind,
  scopes: t.kind !== 'management' ? null : t.scopes === null ? 'all' : t.scopes.join(','),
  ...(t.serverSide ? { serverSide: true } : {}),
});

/**
 * What a token can do, in scopes, for the rule that a token handles only tokens that can do no more than it can: a
 * management token's scopes (every one when stored without), a preview token's drafts and releases count as
 * `content.write` (whoever may author them may preview them), a public token reads what is published to anyone.
 */
export function powerOf(t: Pick<TokenRow, 'kind' | 'scopes'>): readonly Scope[] {
  if (t.kind === 'management') return scopesOf(t);
  return t.kind === 'preview' ? ['content.write'] : [];
}

/** 403 unless `actor` has every scope `target` has: no token creates or revokes one that can do more. */
function requireWithin(actor: TokenRow, target: readonly Scope[], what: string): void {
  const lacking = target.filter((s) => !hasScope(actor, s));
  if (lacking.length > 0) {
    throw forbidden(`A token cannot ${what} a token with scopes it lacks: ${lacking.join(', ')}.`, {
      details: { missingScopes: lacking },
    });
  }
}

/**
 * Creates a token and answers its value, the only time it is shown. No privilege escalation: a management token
 * gets only scopes the creating token has; left out, it gets the creator's own (every scope only from a token
 * that has every scope, `allScopes`). A preview token needs `content.write` (powerOf).
 */
export async function createToken(
  deps: TokenOpsDeps,
  spaceId: string,
  creator: TokenRow,
  request: NewTokenRequest,
): Promise<{ token: TokenView; value: string }> {
  await requireSpace(deps.store, spaceId);
  let scopes: readonly Scope[] | null = null;
  // Null (every scope, also later ones) comes only from a creator that has it: the default below.
  if (request.kind === 'management') scopes = request.scopes ?? creator.scopes;
  requireWithin(creator, powerOf({ kind: request.kind, scopes }), 'create');
  const { row, value } = await issueToken(deps.store, spaceId, creator.id, { ...request, scopes });
  return { token: tokenView(row), value };
}

/**
 * Stores a new token with its `token.created` activity (in one transaction) and answers its value, the only time
 * it is shown. The checks are the caller's: `createToken` for the API, `folio token create` (src/cli/) for the
 * operator, whose token may have every scope (`scopes: null`).
 */
export async function issueToken(
  store: Store,
  spaceId: string,
  actor: string,
  request: {
    kind: TokenKind;
    name: string | null;
    origins: string[];
    scopes: readonly Scope[] | null;
    person?: TokenPerson | null;
    serverSide?: boolean;
  },
): Promise<{ row: TokenRow; value: string }> {
  const value = generateToken(request.kind);
  const row: TokenRow = {
    id: newId('tok'),
    spaceId,
    kind: request.kind,
    hash: hashToken(value),
    hint: tokenHint(value),
    name: request.name,
    origins: request.origins,
    createdAt: new Date().toISOString(),
    scopes: request.scopes,
    person: request.kind === 'management' ? (request.person ?? null) : null,
    serverSide: request.kind === 'public' && request.serverSide === true,
  };
  await store.db.transaction().execute(async (tx) => {
    await insertToken(tx, row);
    await recordActivity(tx, {
      spaceId,
      actor,
      action: 'token.created',
      subject: row.id,
      details: detailsOf(row),
    });
  });
  return { row, value };
}

const isAdmin = (t: TokenRow): boolean => t.kind === 'management' && hasScope(t, 'tokens.admin');

/**
 * Revokes (deletes) a token. The revoking token may revoke itself, but not a token that can do more than it can
 * (403, powerOf: a `tokens.admin` token cannot take an editor's or a wider admin's access away), and the space
 * keeps at least one management token with `tokens.admin` (409), so it is never locked out of its own tokens. The
 * space's token generation goes up in the same transaction: this instance forgets the token at once, the others
 * within the cv fan-out bound.
 */
export async function revokeToken(
  deps: TokenOpsDeps,
  spaceId: string,
  tokenId: string,
  actor: TokenRow,
): Promise<{ revoked: string }> {
  await requireSpace(deps.store, spaceId);
  const out = await withTokenChange(deps.store, spaceId, async (tx) => {
    // Read after the generation bump took the space row's lock: concurrent revocations see each other.
    const tokens = await listTokens(deps.store, spaceId, tx);
    const target = tokens.find((t) => t.id === tokenId);
    if (!target) throw notFound(`Token "${tokenId}" not found.`);
    requireWithin(actor, powerOf(target), 'revoke');
    if (isAdmin(target) && !tokens.some((t) => t.id !== target.id && isAdmin(t))) {
      throw conflict(
        'This is the last token with the scope tokens.admin; create another one before revoking it.',
      );
    }
    await deleteToken(tx, spaceId, tokenId);
    // What a CDN keeps of the token's answers goes with it: the event's keys purge the token's tag.
    await enqueueEvent(tx, spaceId, 'token.revoked', { tokenId });
    await recordActivity(tx, {
      spaceId,
      actor: actor.id,
      action: 'token.revoked',
      subject: tokenId,
      details: detailsOf(target),
    });
  });
  if (!out) throw notFound(`Space "${spaceId}" not found.`);
  deps.tokens.revokedHere(spaceId, out.gen);
  return { revoked: tokenId };
}

/**
 * Sets or clears the person a management token stands for (`tokens.admin`, and like revoking, only on a token that
 * can do no more than the caller: a name is what others trust when they assign work). Recorded without the name or
 * address (`token.updated`, `{ person: "set" | "removed" }`).
 */
export async function changeTokenPerson(
  deps: TokenOpsDeps,
  spaceId: string,
  tokenId: string,
  actor: TokenRow,
  person: TokenPerson | null,
): Promise<TokenView> {
  await requireSpace(deps.store, spaceId);
  return deps.store.db.transaction().execute(async (tx) => {
    const target = (await listTokens(deps.store, spaceId, tx)).find((t) => t.id === tokenId);
    if (!target) throw notFound(`Token "${tokenId}" not found.`);
    if (target.kind !== 'management')
      throw invalidBody('Only management tokens carry a person.', { details: { member: 'person' } });
    requireWithin(actor, powerOf(target), 'change');
    await updateTokenPerson(tx, spaceId, tokenId, person);
    await recordActivity(tx, {
      spaceId,
      actor: actor.id,
      action: 'token.updated',
      subject: tokenId,
      details: { person: person === null ? 'removed' : 'set' },
    });
    return tokenView({ ...target, person });
  });
}

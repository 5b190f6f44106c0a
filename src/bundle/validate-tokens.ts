import { parseScopes } from '../auth/scopes.js';
import { hashToken } from '../auth/tokens.js';
import type { BundleToken } from './format.js';
import { at, type Problems } from '../lib/problems.js';

const TOKEN_VALUE = /^folio_(pub|prv|mgt)_[A-Za-z0-9]{16,128}$/;
const HASH = /^sha256:[0-9a-f]{64}$/;
const PREFIX = { public: 'pub', preview: 'prv', management: 'mgt' } as const;
const isKind = (k: unknown): k is BundleToken['kind'] =>
  k === 'public' || k === 'preview' || k === 'management';

/**
 * The bundle's `tokens`, each `{ kind, value | hash, name?, origins?, scopes?, serverSide? }`; a value and a hash
 * never both.
 */
export function parseTokens(raw: readonly Record<string, unknown>[], p: Problems): BundleToken[] {
  // One token, two spellings (its value, and the hash an export writes) would break the store's unique index.
  const hashes = new Map<string, number>();
  return raw.flatMap((t, i) => {
    const before = p.count;
    const tp = at('tokens', i);
    const { kind, value, hash, name, origins, scopes, serverSide } = t;
    if (!isKind(kind)) p.add(at(tp, 'kind'), 'must be public, preview or management');
    if ((value === undefined) === (hash === undefined)) p.add(tp, 'must have exactly one of value and hash');
    let digest: string | undefined;
    if (value !== undefined) {
      const prefix = isKind(kind) ? PREFIX[kind] : '…';
      if (typeof value !== 'string' || !TOKEN_VALUE.test(value) || !value.startsWith(`folio_${prefix}_`))
        p.add(at(tp, 'value'), `must be folio_${prefix}_ followed by 16 to 128 letters and digits`);
      else digest = hashToken(value);
    }
    if (hash !== undefined) {
      if (typeof hash !== 'string' || !HASH.test(hash))
        p.add(at(tp, 'hash'), 'must be sha256:<64 hex digits>');
      else digest = hash.slice('sha256:'.length);
    }
    if (digest !== undefined) {
      const first = hashes.get(digest);
      if (first !== undefined)
        p.add(
          value === undefined ? at(tp, 'hash') : at(tp, 'value'),
          `duplicate token (also tokens[${first}])`,
        );
      else hashes.set(digest, i);
    }
    if (name !== undefined && name !== null && typeof name !== 'string')
      p.add(at(tp, 'name'), 'must be a string');
    const originList = parseOrigins(origins, at(tp, 'origins'), p);
    let scopeList: BundleToken['scopes'];
    if (scopes !== undefined) {
      // A narrow token must stay narrow through export and import.
      const parsed = parseScopes(scopes);
      if (kind !== 'management') p.add(at(tp, 'scopes'), 'only management tokens have scopes');
      else if (!Array.isArray(scopes)) p.add(at(tp, 'scopes'), 'must be an array');
      else if (!parsed.ok) p.add(at(tp, 'scopes'), parsed.problem);
      else scopeList = parsed.scopes;
    }
    if (serverSide !== undefined) {
      // As on POST /tokens: only a public token kept on a server (no origins) may vouch for its visitors.
      if (typeof serverSide !== 'boolean') p.add(at(tp, 'serverSide'), 'must be true or false');
      else if (serverSide && kind !== 'public')
        p.add(at(tp, 'serverSide'), 'only public tokens are server-side');
      else if (serverSide && originList !== undefined && originList.length > 0)
        p.add(at(tp, 'serverSide'), 'a server-side token takes no origins');
    }
    if (p.count !== before || !isKind(kind)) return [];
    const token: BundleToken = { kind };
    if (typeof value === 'string') token.value = value;
    if (typeof hash === 'string') token.hash = hash;
    if (typeof name === 'string') token.name = name;
    if (originList !== undefined) token.origins = originList;
    if (scopeList !== undefined) token.scopes = scopeList;
    if (serverSide === true) token.serverSide = true;
    return [token];
  });
}

function parseOrigins(origins: unknown, path: string, p: Problems): string[] | undefined {
  if (origins === undefined) return undefined;
  if (!Array.isArray(origins)) {
    p.add(path, 'must be an array of origins');
    return undefined;
  }
  return origins.flatMap((o: unknown, j) => {
    let ok = false;
    try {
      const u = new URL(String(o));
      ok = typeof o === 'string' && (u.protocol === 'https:' || u.protocol === 'http:') && u.origin === o;
    } catch {
      ok = false;
    }
    if (ok && typeof o === 'string') return [o];
    p.add(at(path, j), 'must be an origin like https://example.com (no path)');
    return [];
  });
}

import { createHash, timingSafeEqual } from 'node:crypto';
import { randomBase62 } from '../lib/ids.js';
import type { TokenKind } from '../store/tokens-repo.js';

const PREFIX: Record<TokenKind, string> = {
  public: 'folio_pub_',
  preview: 'folio_prv_',
  management: 'folio_mgt_',
};

export function generateToken(kind: TokenKind): string {
  return `${PREFIX[kind]}${randomBase62(32)}`;
}

/** Tokens are stored as sha256: a leaked database holds no usable token. */
export function hashToken(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

export function tokenKindOf(value: string): TokenKind | null {
  for (const [kind, prefix] of Object.entries(PREFIX) as [TokenKind, string][])
    if (value.startsWith(prefix)) return kind;
  return null;
}

/** Constant-time comparison of two hex digests of equal length. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

export const tokenHint = (value: string): string => `${value.slice(0, 14)}…`;

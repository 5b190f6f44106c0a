import { createHmac, timingSafeEqual } from 'node:crypto';
import { invalidQuery } from '../../errors/errors.js';
import type { Scalar } from './plan.js';

/**
 * Opaque, tamper-evident list cursors (spec 4.3 `cursor`): keyset pagination state signed with HMAC-SHA256
 * under a key derived for cursors only. A cursor carries the cv it was issued at, so later pages read the same
 * published version even after new publishes, and a digest of the query it belongs to.
 */
export interface CursorState {
  cv: number;
  /** Digest of the selection, the order and the view (published, draft, release id) it was issued for. */
  query: string;
  /** Sort values of the last item of the page, entry id tiebreaker last. */
  after: Scalar[];
}

const MAX_CURSOR = 4096;

const mac = (key: Buffer, body: string): Buffer =>
  createHmac('sha256', key).update(body).digest().subarray(0, 16);

export function signCursor(key: Buffer, state: CursorState): string {
  const body = Buffer.from(JSON.stringify([1, state.cv, state.query, state.after])).toString('base64url');
  return `${body}.${mac(key, body).toString('base64url')}`;
}

const isScalar = (v: unknown): v is Scalar =>
  typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/** Verifies and decodes a cursor; anything altered, truncated or foreign is a 400 naming `cursor`. */
export function readCursor(key: Buffer, token: string): CursorState {
  const bad = () => invalidQuery('cursor: not a cursor of this API (use nextCursor unchanged).', 'cursor');
  if (token.length > MAX_CURSOR) throw bad();
  const [body, sig, extra] = token.split('.');
  if (body === undefined || sig === undefined || extra !== undefined) throw bad();
  const given = Buffer.from(sig, 'base64url');
  const expected = mac(key, body);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw bad();
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (!Array.isArray(decoded) || decoded.length !== 4 || decoded[0] !== 1) throw bad();
  const [, cv, query, after] = decoded as unknown[];
  if (typeof cv !== 'number' || !Number.isInteger(cv) || cv < 1 || typeof query !== 'string') throw bad();
  if (!Array.isArray(after) || !after.every(isScalar)) throw bad();
  return { cv, query, after };
}

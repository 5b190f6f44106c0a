import { ID_PATTERN } from '../../lib/ids.js';
import { invalidQuery } from '../../errors/errors.js';

/** A position in the list's order (created_at, then id, newest first). */
export interface ListPosition {
  createdAt: string;
  id: string;
}

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;

/** The stored created_at format (Date#toISOString). */
const STORED_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Opaque to clients: base64url of `<createdAt>|<id>` of the page's last item. */
export function encodeCursor(p: ListPosition): string {
  return Buffer.from(`${p.createdAt}|${p.id}`).toString('base64url');
}

export function parseCursor(raw: string | undefined): ListPosition | null {
  if (raw === undefined) return null;
  const [createdAt, id, ...rest] = Buffer.from(raw, 'base64url').toString('utf8').split('|');
  if (!createdAt || !id || rest.length > 0 || !STORED_INSTANT.test(createdAt) || !ID_PATTERN.test(id))
    throw invalidQuery('Parameter "cursor" is not valid.', 'cursor');
  return { createdAt, id };
}

export function parseLimit(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_LIMIT;
  if (!/^\d{1,3}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_LIMIT)
    throw invalidQuery(`Parameter "limit" must be 1 to ${MAX_LIMIT}.`, 'limit');
  return Number(raw);
}

import { ID_PATTERN } from '../../lib/ids.js';
import { invalidQuery } from '../../errors/errors.js';

/** A position in the list's order (created_at, then id). */
export interface ListPosition {
  createdAt: string;
  id: string;
}

/** The list's orders: `sort=-createdAt` (newest first, the default) or `sort=createdAt` (oldest first). */
export type ListOrder = 'newest' | 'oldest';

export function parseSort(raw: string | undefined): ListOrder {
  if (raw === undefined || raw === '-createdAt') return 'newest';
  if (raw === 'createdAt') return 'oldest';
  throw invalidQuery(
    'Parameter "sort" must be -createdAt (newest first) or createdAt (oldest first).',
    'sort',
  );
}

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;

/** The stored created_at format (Date#toISOString). */
const STORED_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * Opaque to clients: base64url of `<createdAt>|<id>` of the page's last item, with `|a` for an oldest-first list
 * (a cursor continues the order it was made in; cursors of earlier versions are newest first).
 */
export function encodeCursor(p: ListPosition, order: ListOrder = 'newest'): string {
  return Buffer.from(`${p.createdAt}|${p.id}${order === 'oldest' ? '|a' : ''}`).toString('base64url');
}

/** The cursor's position; 400 when it is not one, or was made for the other order. */
export function parseCursor(raw: string | undefined, order: ListOrder = 'newest'): ListPosition | null {
  if (raw === undefined) return null;
  const [createdAt, id, mark, ...rest] = Buffer.from(raw, 'base64url').toString('utf8').split('|');
  if (
    !createdAt ||
    !id ||
    rest.length > 0 ||
    (mark !== undefined && mark !== 'a') ||
    !STORED_INSTANT.test(createdAt) ||
    !ID_PATTERN.test(id)
  )
    throw invalidQuery('Parameter "cursor" is not valid.', 'cursor');
  if ((mark === 'a') !== (order === 'oldest'))
    throw invalidQuery('Parameter "cursor" belongs to the other sort order.', 'cursor');
  return { createdAt, id };
}

export function parseLimit(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_LIMIT;
  if (!/^\d{1,3}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_LIMIT)
    throw invalidQuery(`Parameter "limit" must be 1 to ${MAX_LIMIT}.`, 'limit');
  return Number(raw);
}

import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Random base62 string; rejection sampling keeps every character uniformly likely. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export type IdPrefix =
  | 'ent'
  | 'blk'
  | 'mni'
  | 'fup'
  | 'spc'
  | 'rel'
  | 'ast'
  | 'tok'
  | 'sub'
  | 'whk'
  | 'evt'
  | 'frm'
  | 'act'
  | 'nte';

/** Opaque, unguessable identifiers with a type prefix (spec notation; DESIGN.md: 16+ chars). */
export const newId = (prefix: IdPrefix): string => `${prefix}_${randomBase62(20)}`;

export const ID_PATTERN = /^[a-z]{3}_[A-Za-z0-9_-]{1,64}$/;

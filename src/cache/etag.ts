import { createHash } from 'node:crypto';

/** A strong validator for a body: its sha1, base64url (27 characters) in quotes (RFC 9110 8.8.3). */
export function etagOf(body: Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/**
 * `If-None-Match` matches (RFC 9110 13.1.2): `*`, or any listed tag equal by the weak comparison (a `W/`
 * prefix is ignored on either side).
 */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined || header === '') return false;
  if (header === etag) return true; // the common case: the client echoes the tag it got
  const plain = etag.startsWith('W/') ? etag.slice(2) : etag;
  for (const raw of header.split(',')) {
    const tag = raw.trim();
    if (tag === '*' || (tag.startsWith('W/') ? tag.slice(2) : tag) === plain) return true;
  }
  return false;
}

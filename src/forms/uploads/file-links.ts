// Signed download links of a submission's files (spec 3.3: never a public URL): an HMAC of the file and an expiry,
// under a key for that purpose only. Two kinds: the inbox's ten-minute links (POST …/link), and the links in owner
// emails, which open for MAIL_FILE_LINK_SECONDS (ten minutes to a week) and are revoked all at
// once by rotating FILE_LINK_SECRET.

import { createHmac, timingSafeEqual } from 'node:crypto';
import { deriveKey } from '../../store/secrets-repo.js';

export interface FileRef {
  spaceId: string;
  key: string;
  submissionId: string;
  uploadId: string;
}

/** How long an inbox link works: long enough to click, too short to forward usefully. */
export const FILE_LINK_SECONDS = 10 * 60;
/** The bounds and default of MAIL_FILE_LINK_SECONDS. */
export const MAIL_LINK_MIN_SECONDS = 10 * 60;
export const MAIL_LINK_MAX_SECONDS = 7 * 24 * 60 * 60;
export const MAIL_LINK_DEFAULT_SECONDS = 3 * 24 * 60 * 60;

/** The inbox links' key. */
export const inboxLinkKey = (master: Buffer): Buffer => deriveKey(master, 'file-links');

/** The mail links' key: from FILE_LINK_SECRET when set (rotate it to revoke every mailed link), else the master key. */
export function mailLinkKey(master: Buffer, secret: string | null | undefined): Buffer {
  return deriveKey(secret ? Buffer.from(secret, 'utf8') : master, 'mail-file-links');
}

/** The HMAC of one file and an expiry time (Unix seconds). */
export function fileLinkSignature(key: Buffer, p: FileRef, expires: number): string {
  return createHmac('sha256', key)
    .update([p.spaceId, p.key, p.submissionId, p.uploadId, String(expires)].join('\n'), 'utf8')
    .digest('base64url');
}

/** Whether `expires` and `signature` sign this file under `key`, unexpired and no further ahead than `maxSeconds`. */
export function validFileLink(
  key: Buffer,
  p: FileRef,
  query: Readonly<Record<string, unknown>>,
  nowSeconds: number,
  maxSeconds: number,
): boolean {
  const expires = typeof query['expires'] === 'string' ? Number(query['expires']) : NaN;
  const signature = typeof query['signature'] === 'string' ? query['signature'] : '';
  if (!Number.isSafeInteger(expires) || expires < nowSeconds || expires > nowSeconds + maxSeconds)
    return false;
  const want = Buffer.from(fileLinkSignature(key, p, expires));
  const got = Buffer.from(signature);
  return want.length === got.length && timingSafeEqual(want, got);
}

/** The download URL of a file with a signature until `expires` (Unix seconds). */
export function signedFileUrl(publicUrl: string, key: Buffer, p: FileRef, expires: number): string {
  const e = encodeURIComponent;
  const url = new URL(
    `${publicUrl}/v1/spaces/${e(p.spaceId)}/forms/${e(p.key)}/submissions/${e(p.submissionId)}/files/${e(p.uploadId)}`,
  );
  url.searchParams.set('expires', String(expires));
  url.searchParams.set('signature', fileLinkSignature(key, p, expires));
  return url.href;
}

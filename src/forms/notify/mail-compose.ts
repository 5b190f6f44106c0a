// Notification email composed once per content: the owner emails of one submission say the same thing to each
// recipient, and nodemailer's composer (a MIME tree encoded through streams) costs about half of what sending one
// message costs. The body is built once and kept; each message gets a head of its own (To, Message-ID, Date) from
// the same MIME tree, so it carries what nodemailer would have composed for it.

import { LRUCache } from 'lru-cache';
import MailComposer from 'nodemailer/lib/mail-composer';
import type MimeNode from 'nodemailer/lib/mime-node';
import type { MailMessage } from './mailer.js';

/** A message ready for the SMTP pool: its bytes and the envelope, as nodemailer takes a pre-built message. */
export interface RawMail {
  raw: Buffer;
  envelope: { from: string; to: string[] };
}

interface Composed {
  root: MimeNode;
  body: Buffer;
}

/**
 * Bodies by content, few and small (a notice's owner emails are composed within milliseconds of each other): enough
 * for the submissions a burst has in flight at once.
 */
const composedBodies = new LRUCache<string, Promise<Composed>>({ max: 256 });

/** What two messages share when they differ only in recipient and id. */
function contentKey(msg: MailMessage): string {
  return JSON.stringify([
    msg.from,
    msg.replyTo ?? null,
    msg.subject,
    msg.text,
    msg.html ?? null,
    msg.headers ?? {},
  ]);
}

/** The message as nodemailer's composer takes it; addresses as objects, so it never parses a visitor's value. */
export function composerOptions(msg: MailMessage) {
  return {
    from: msg.from,
    to: { name: '', address: msg.to },
    ...(msg.replyTo === undefined ? {} : { replyTo: { name: '', address: msg.replyTo } }),
    subject: msg.subject,
    text: msg.text,
    ...(msg.html === undefined ? {} : { html: msg.html }),
    messageId: `<${msg.messageId}>`,
    ...(msg.headers === undefined ? {} : { headers: { ...msg.headers } }),
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

async function compose(msg: MailMessage, date: Date): Promise<Composed> {
  // The date given, so its header has the place the composer gives it (each message sets its own below).
  const root = new MailComposer({ ...composerOptions(msg), date }).compile();
  const whole = await root.build();
  // The head ends at the first empty line (MimeNode writes `buildHeaders()` and CRLF CRLF before the content).
  const end = whole.indexOf('\r\n\r\n');
  if (end === -1) throw new Error('the mail composer wrote no header block');
  return { root, body: whole.subarray(end + 4) };
}

/** The bytes of `msg`, its body composed once for every message of the same content. */
export async function rawMail(msg: MailMessage, date = new Date()): Promise<RawMail> {
  const key = contentKey(msg);
  let composed = composedBodies.get(key);
  if (composed === undefined) {
    composed = compose(msg, date);
    composedBodies.set(key, composed);
    composed.catch(() => composedBodies.delete(key));
  }
  const { root, body } = await composed;
  // Synchronous from here to the head's bytes: no other message sets the shared tree's headers in between.
  root.setHeader('To', [{ name: '', address: msg.to }] as unknown as string); // the typings miss address objects
  root.setHeader('Message-ID', `<${msg.messageId}>`);
  root.setHeader('Date', date.toUTCString().replace(/GMT/, '+0000'));
  const head = root.buildHeaders();
  const envelope = root.getEnvelope();
  return {
    raw: Buffer.concat([Buffer.from(`${head}\r\n\r\n`), body]),
    envelope: { from: envelope.from === false ? '' : envelope.from, to: [msg.to] },
  };
}

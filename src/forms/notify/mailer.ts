// How notification email leaves (spec 4.4 rule 6; docs/operations.md "Notifications"): SMTP when SMTP_URL is
// set, else `.eml` files in DATA_DIR/outbox-mail, rendered by the same composer so the file is what SMTP would
// have carried.

import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { PermanentJobError } from '../../jobs/runner.js';
import type { MailConfig } from '../../config/config.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../lib/file-modes.js';
import { mailFileName, mailTempName } from './mail-files.js';
import { composerOptions, rawMail } from './mail-compose.js';

export interface MailMessage {
  /** MAIL_FROM, e.g. `Folio <forms@example.com>`. */
  from: string;
  /** One plain address: every message has exactly one recipient. */
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
  /** An HTML alternative of `text` (owner emails): multipart/alternative with the text first. */
  html?: string;
  /** Without angle brackets: `<job id>@<domain>` (./message-id.ts). */
  messageId: string;
  headers?: Readonly<Record<string, string>>;
}

export interface Mailer {
  /**
   * Resolves once the receiver accepted the message (SMTP 250 after DATA, or the file is in place). A permanent
   * SMTP refusal throws `PermanentJobError`; anything else throws a plain error, and the job is retried.
   */
  send(msg: MailMessage): Promise<void>;
  close(): Promise<void>;
}

/**
 * Timeouts well inside the job lease (60 s): a handler still talking to a slow server when its lease ran out would
 * let a second worker send the same message at the same time.
 */
const SMTP_TIMEOUTS = {
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 20_000,
  dnsTimeout: 10_000,
} as const;

export function openMailer(mail: MailConfig): Mailer {
  return mail.smtpUrl === null
    ? emlMailer(mail.outboxDir)
    : smtpMailer(mail.smtpUrl, mail.smtpConnections ?? DEFAULT_SMTP_CONNECTIONS);
}

/** One line for the `serve` banner: where mail goes (never the credentials of SMTP_URL). */
export function describeMailTransport(mail: MailConfig): string {
  if (mail.smtpUrl === null)
    return `no SMTP_URL: notification email is written to ${mail.outboxDir} as .eml files`;
  const url = new URL(mail.smtpUrl);
  return `SMTP ${url.host}${url.protocol === 'smtps:' ? ' (TLS)' : ''}`;
}

/**
 * A warning for the startup, or null: MAIL_FROM is unset and the made-up sender's host is no
 * domain (an IP address, `localhost`, a name without a dot), so relays refuse the mail or file it as spam.
 */
export function mailFromWarning(mail: MailConfig): string | null {
  if (mail.fromIsDefault !== true) return null;
  const host = /@([^>\s]+)>?$/.exec(mail.from)?.[1] ?? '';
  const bare = host.replace(/^\[|\]$/g, '');
  const isDomain = isIP(bare) === 0 && bare.includes('.') && !/(^|\.)localhost$/i.test(bare);
  if (isDomain) return null;
  return (
    `MAIL_FROM is not set, so notification email is sent as ${mail.from}, which mail servers refuse or file ` +
    `as spam (${host || 'no host'} is not a domain). Set MAIL_FROM to an address of your domain, e.g. ` +
    `MAIL_FROM="Folio <forms@example.com>" (or PUBLIC_URL to your public https URL).`
  );
}

/** SMTP_CONNECTIONS' default: enough to keep up with a burst, few enough for any relay's per-client limit. */
export const DEFAULT_SMTP_CONNECTIONS = 5;

/**
 * The SMTP pools this process opened. Their connections stay open until the socket's idle timeout after a message,
 * which kept a stopping process alive for 20 s after its last mail (past Docker's 10 s grace): shutdown closes
 * them all here, whoever made them (`closeSmtpPools`).
 */
const openPools = new Set<{ close(): void }>();

/** Closes every SMTP pool of this process (at shutdown: a message in flight fails and its job is retried later). */
export function closeSmtpPools(): void {
  for (const pool of openPools) pool.close();
  openPools.clear();
}

function smtpMailer(smtpUrl: string, maxConnections: number): Mailer {
  // Pooled: up to `maxConnections` connections, each carrying many messages (a new TLS handshake per message
  // made a burst of 200 submissions arrive 15–30 s late). An idle connection is closed by the socket timeout, so
  // an idle worker holds no socket for long; nodemailer queues messages while every connection is busy.
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections,
    maxMessages: 100,
    ...SMTP_TIMEOUTS,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  openPools.add(transport);
  return {
    async send(msg) {
      try {
        // Composed once for every recipient of the same content (./mail-compose.ts), sent as it is.
        await transport.sendMail(await rawMail(msg));
      } catch (err) {
        if (isPermanentSmtpFailure(err)) throw new PermanentJobError(errorText(err));
        throw err;
      }
    },
    async close() {
      openPools.delete(transport);
      transport.close();
    },
  };
}

/** The SMTP commands whose 5xx answer is about this message or recipient, not about the server or our login. */
const MESSAGE_COMMANDS = new Set(['MAIL FROM', 'RCPT TO', 'DATA']);

/**
 * RFC 5321 4.2.1: a 5yz reply is a permanent negative completion — sending the same message again fails the same
 * way. Only replies to the message's own commands count: a 5xx at the greeting, EHLO or AUTH is a configuration
 * problem of the installation (wrong credentials, a relay refusing us), retried so fixing SMTP_URL recovers the
 * queued mail. 4yz replies and network errors are temporary.
 */
export function isPermanentSmtpFailure(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { responseCode, command } = err as { responseCode?: unknown; command?: unknown };
  return (
    typeof responseCode === 'number' &&
    responseCode >= 500 &&
    responseCode < 600 &&
    typeof command === 'string' &&
    MESSAGE_COMMANDS.has(command)
  );
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function emlMailer(dir: string): Mailer {
  const render = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    async send(msg) {
      const info = await render.sendMail(composerOptions(msg));
      if (!Buffer.isBuffer(info.message)) throw new Error('the mail composer did not render a buffer');
      await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
      const name = mailFileName(new Date(), msg.messageId);
      // Written aside and renamed: whoever watches the directory never sees half a message.
      const temp = join(dir, mailTempName(name));
      try {
        await writeFile(temp, info.message, { mode: PRIVATE_FILE_MODE });
        await rename(temp, join(dir, name));
      } catch (err) {
        await rm(temp, { force: true });
        throw err;
      }
    },
    async close() {},
  };
}

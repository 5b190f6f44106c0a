// Notification email composed once per content (src/forms/notify/mail-compose.ts): every message carries the bytes
// nodemailer's composer makes for it alone, whichever message of the same content was composed first.
import fc from 'fast-check';
import nodemailer from 'nodemailer';
import { describe, expect, it } from 'vitest';
import { composerOptions, rawMail } from '../src/forms/notify/mail-compose.js';
import type { MailMessage } from '../src/forms/notify/mailer.js';

const render = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });

/** What nodemailer's transport composes for `msg` on its own, at `date`. */
async function composedAlone(msg: MailMessage, date: Date): Promise<Buffer> {
  const info = await render.sendMail({ ...composerOptions(msg), date });
  if (!Buffer.isBuffer(info.message)) throw new Error('no buffer');
  return info.message;
}

/**
 * Multipart boundaries are random per composition: each one becomes the same word. Line ends are CRLF, as SMTP's
 * DATA stream (nodemailer's, and the .eml renderer's `newline: 'windows'`) makes them.
 */
const sameBoundaries = (mail: Buffer) => {
  const text = mail.toString('latin1').replace(/\r?\n/g, '\r\n');
  const boundaries = [...text.matchAll(/boundary="?([^";\r\n]+)"?/g)].map((m) => m[1]!);
  return boundaries.reduce((t, b, i) => t.split(b).join(`BOUNDARY${i}`), text);
};

const base: Omit<MailMessage, 'to' | 'messageId'> = {
  from: 'Folio <forms@example.com>',
  replyTo: 'ada@example.org',
  subject: 'New submission: Contact',
  text: 'New submission to the form "Contact".\n\nName: Ada\nMessage: Hello!\n',
  html: '<!doctype html><html><body><p>New submission to the form &quot;Contact&quot;.</p></body></html>',
  headers: { 'Auto-Submitted': 'auto-generated' },
};

describe('rawMail', () => {
  it('gives each recipient of one content the message composed for it alone', async () => {
    const date = new Date('2026-12-08T10:00:00Z');
    for (const [i, to] of ['owner@example.com', 'sales@example.com', 'x.y+z@example.net'].entries()) {
      const msg = { ...base, to, messageId: `job${i}@example.com` };
      const raw = await rawMail(msg, date);
      expect(sameBoundaries(raw.raw)).toBe(sameBoundaries(await composedAlone(msg, date)));
      expect(raw.envelope).toEqual({ from: 'forms@example.com', to: [to] });
    }
  });

  it('matches the composer for any text, subject and recipient', async () => {
    const line = fc.string({ unit: 'grapheme', maxLength: 120 });
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          subject: line,
          text: fc.array(line, { maxLength: 6 }).map((l) => l.join('\n')),
          html: fc.option(line, { nil: undefined }),
          replyTo: fc.option(fc.emailAddress(), { nil: undefined }),
          to: fc.array(fc.emailAddress(), { minLength: 1, maxLength: 3 }),
        }),
        async ({ subject, text, html, replyTo, to }) => {
          const date = new Date('2026-12-08T10:00:00Z');
          for (const [i, address] of to.entries()) {
            const msg: MailMessage = {
              from: base.from,
              to: address,
              subject,
              text,
              messageId: `p${i}@example.com`,
              ...(html === undefined ? {} : { html }),
              ...(replyTo === undefined ? {} : { replyTo }),
            };
            const raw = await rawMail(msg, date);
            expect(sameBoundaries(raw.raw)).toBe(sameBoundaries(await composedAlone(msg, date)));
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** An SMTP reply the server gives instead of accepting a message (4xx: try again later; 5xx: never). */
export interface SmtpReply {
  code: number;
  message: string;
}

export interface Delivered {
  /** RCPT TO addresses, as the client sent them. */
  to: string[];
  mail: ParsedMail;
  raw: string;
}

export interface Refused {
  to: string[];
  messageId: string | null;
  code: number;
}

/**
 * A real SMTP server on loopback (no TLS, authentication optional) that parses every message it accepts with
 * mailparser. `answer` may refuse a message at DATA: it sees the parsed message and how many times a message with
 * this Message-ID reached DATA (1 for the first), and returns a reply or null to accept. A message is recorded
 * before the client hears 250, so "accepted" always means "in `messages`".
 */
export class SmtpTestServer {
  readonly messages: Delivered[] = [];
  readonly refused: Refused[] = [];
  answer: (mail: ParsedMail, attempt: number) => SmtpReply | null = () => null;
  private readonly attempts = new Map<string, number>();

  private constructor(
    private readonly server: SMTPServer,
    readonly url: string,
  ) {}

  static async start(): Promise<SmtpTestServer> {
    const holder: { self?: SmtpTestServer } = {};
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks);
          const to = session.envelope.rcptTo.map((r) => r.address);
          simpleParser(raw).then(
            (mail) => callback(holder.self ? holder.self.receive(to, mail, raw.toString('utf8')) : null),
            (err: Error) => callback(err),
          );
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const { port } = server.server.address() as AddressInfo;
    holder.self = new SmtpTestServer(server, `smtp://127.0.0.1:${port}`);
    return holder.self;
  }

  private receive(to: string[], mail: ParsedMail, raw: string): Error | null {
    const messageId = mail.messageId ?? null;
    const attempt = (this.attempts.get(messageId ?? '') ?? 0) + 1;
    this.attempts.set(messageId ?? '', attempt);
    const reply = this.answer(mail, attempt);
    if (reply === null) {
      this.messages.push({ to, mail, raw });
      return null;
    }
    this.refused.push({ to, messageId, code: reply.code });
    return Object.assign(new Error(reply.message), { responseCode: reply.code });
  }

  /** The accepted messages whose Message-ID contains `part` (a submission id, a job id). */
  messagesFor(part: string): Delivered[] {
    return this.messages.filter((m) => (m.mail.messageId ?? '').includes(part));
  }

  /** Resolves once `done(messages)` holds; fails after `timeoutMs` (a bound, not a timing assertion). */
  async waitFor(done: (m: readonly Delivered[]) => boolean, timeoutMs = 15_000): Promise<Delivered[]> {
    const until = Date.now() + timeoutMs;
    while (!done(this.messages)) {
      if (Date.now() > until)
        throw new Error(`smtp: condition not met; got ${this.messages.length} messages`);
      await new Promise((r) => setTimeout(r, 10));
    }
    return [...this.messages];
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

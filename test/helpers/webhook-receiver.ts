import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** What the receiver answered. */
  status: number;
}

/**
 * A real HTTP receiver on loopback. `answer` picks the status of each request (default 200); every request is
 * recorded with what was answered.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  /** TCP connections accepted so far (whether the sender keeps them between requests). */
  connections = 0;
  answer: (n: number, body: string) => number = () => 200;
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(path = '/hook'): Promise<WebhookReceiver> {
    const holder: { self?: WebhookReceiver } = {};
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const self = holder.self;
        const status = self ? self.answer(self.received.length + 1, body) : 500;
        self?.received.push({ headers: req.headers, body, status });
        res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    server.on('connection', () => {
      if (holder.self) holder.self.connections++;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    holder.self = new WebhookReceiver(server, `http://127.0.0.1:${port}${path}`);
    return holder.self;
  }

  /** Resolves once `done(received)` holds; fails after `timeoutMs` (a bound, not a timing assertion). */
  async waitFor(done: (r: readonly Received[]) => boolean, timeoutMs = 15_000): Promise<Received[]> {
    const until = Date.now() + timeoutMs;
    while (!done(this.received)) {
      if (Date.now() > until)
        throw new Error(`receiver: condition not met; got ${this.received.length} requests`);
      await new Promise((r) => setTimeout(r, 10));
    }
    return [...this.received];
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Standard Webhooks verification written from the specification, independently of Folio's signing code:
 * the key is the base64 after `whsec_`; the signed content is `${webhook-id}.${webhook-timestamp}.${body}`;
 * HMAC-SHA256, base64; `webhook-signature` is a space-separated list of `v1,<signature>`; compare in constant
 * time; reject timestamps further than `toleranceSeconds` from now (replay protection).
 */
export function verifyStandardWebhook(
  secret: string,
  headers: IncomingHttpHeaders,
  body: string,
  toleranceSeconds = 5 * 60,
): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > toleranceSeconds)
    return false;
  if (!secret.startsWith('whsec_')) return false;
  const key = Buffer.from(secret.substring('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`, 'utf8').digest();
  return signatures.split(' ').some((part) => {
    const [version, signature] = part.split(',', 2);
    if (version !== 'v1' || signature === undefined) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

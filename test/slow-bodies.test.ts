// Request and body timeouts answer 408 in the envelope and close the connection; an answer sent
// before the body was read (a bad token's 401) closes the connection instead of reading the rest. Raw sockets
// against a listening server, with short timeouts configured; no timing is asserted, only what is answered.
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactForm } from './helpers/form-defs.js';
import { ENGINES } from './helpers/engines.js';
import { type Answer, expectEnvelope } from './helpers/envelope.js';
import { type FormsApp, openFormsApp, putForms } from './helpers/forms.js';
import { TOKENS } from './helpers/fixture.js';

const path = '/v1/spc_test/forms/contact/submissions';
const head = (token: string, length: number) =>
  [
    `POST ${path} HTTP/1.1`,
    'Host: folio.test',
    `Authorization: Bearer ${token}`,
    'Content-Type: application/json',
    'Accept: application/json',
    `Content-Length: ${length}`,
    '',
    '',
  ].join('\r\n');

interface Trickled extends Answer {
  /** Body bytes written before the server closed the connection. */
  sent: number;
}

/**
 * Writes `start`, then one more body byte every `everyMs` (none when 0), and reads until the server closes the
 * connection; gives up (rejects) after `capMs`, which a server that keeps the connection open runs into.
 */
function trickle(port: number, start: string, everyMs: number, capMs = 8000): Promise<Trickled> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let sent = 0;
    const timer = everyMs > 0 ? setInterval(() => socket.write('x', () => sent++), everyMs) : null;
    const cap = setTimeout(() => {
      if (timer) clearInterval(timer);
      socket.destroy();
      reject(new Error(`the connection was still open after ${capMs} ms`));
    }, capMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (timer) clearInterval(timer);
      clearTimeout(cap);
      const raw = Buffer.concat(chunks).toString('utf8');
      const split = raw.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = (split === -1 ? raw : raw.slice(0, split)).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? 0),
        headers,
        text: split === -1 ? '' : raw.slice(split + 4),
        sent,
      });
    });
    socket.write(start, 'latin1');
  });
}

describe.each(ENGINES)('slow request bodies on %s', (engine) => {
  let t: FormsApp;
  let port = 0;
  beforeAll(async () => {
    t = await openFormsApp(engine, { bodyTimeoutMs: 300, requestTimeoutMs: 1200 });
    await putForms(t, 'spc_test', [contactForm()]);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => t.close());

  it('answers 408 request_timeout and closes the connection when the body stops arriving', async () => {
    const res = await trickle(port, `${head(TOKENS.public, 100)}{"name":`, 0);
    expect(res.status).toBe(408);
    expect(res.headers.connection).toBe('close');
    expect(expectEnvelope(res, 'request_timeout').message).toMatch(/body stopped arriving/);
  });

  it('answers 408 when a body keeps trickling past the request timeout (never idle for long)', async () => {
    // A byte every 50 ms keeps the body timeout away; 2,000 bytes would take 100 s.
    const res = await trickle(port, `${head(TOKENS.public, 2000)}{"name":"`, 50);
    expect(res.status).toBe(408);
    expect(expectEnvelope(res, 'request_timeout').message).toMatch(/did not arrive within/);
  });

  it('closes the connection after a 401 sent before the body, instead of reading the rest', async () => {
    // A bad token is refused before the body is read; 1,000 bytes announced, a byte every 50 ms.
    const res = await trickle(port, `${head('folio_pub_NotARealToken0000000000001', 1000)}{`, 50);
    expect(res.status).toBe(401);
    expect(res.headers.connection).toBe('close');
    expectEnvelope(res, 'unauthorized');
  });

  it('keeps the connection open after a whole body, and serves a slow-to-send but complete one', async () => {
    const body = JSON.stringify({ name: 'Ada', email: 'ada@example.com', consent: true });
    const socket = connect(port, '127.0.0.1');
    const answers: string[] = [];
    socket.on('data', (d: Buffer) => answers.push(d.toString()));
    await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
    // Two requests on one connection, the first body in two parts with a pause shorter than the body timeout.
    socket.write(head(TOKENS.public, Buffer.byteLength(body)) + body.slice(0, 10));
    await new Promise((r) => setTimeout(r, 20));
    socket.write(body.slice(10));
    await expect.poll(() => answers.join('')).toMatch(/^HTTP\/1\.1 200 /);
    socket.write(head(TOKENS.public, Buffer.byteLength(body)) + body);
    await expect.poll(() => answers.join('').match(/HTTP\/1\.1 200 /g)?.length ?? 0).toBe(2);
    expect(answers.join('')).not.toMatch(/connection: close/i);
    socket.destroy();
  });
});

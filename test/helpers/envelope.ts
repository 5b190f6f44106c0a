import { connect } from 'node:net';
import { expect } from 'vitest';
import { ERROR_CODES, type ErrorCode } from '../../src/errors/errors.js';

export interface Answer {
  status: number;
  headers: Record<string, unknown>;
  /** The body as sent (inject's `body`, or the raw bytes after the head). */
  text: string;
}

/**
 * Asserts spec 7.1: `{ error: { code, message, details? } }` with a registry code whose status is the response's,
 * `Cache-Control: no-store`, and nothing else at the top level but a 404's `redirect` (spec 7.3).
 */
export function expectEnvelope(res: Answer, code?: ErrorCode, context = ''): Record<string, unknown> {
  const where = `${context} → ${res.status} ${res.text.slice(0, 200)}`;
  expect(res.headers['cache-control'], where).toBe('no-store');
  expect(String(res.headers['content-type']), where).toMatch(/^application\/json/);
  const body = JSON.parse(res.text) as { error?: Record<string, unknown> } & Record<string, unknown>;
  const error = body.error ?? {};
  expect(
    Object.keys(body).filter((k) => k !== 'error' && k !== 'redirect'),
    where,
  ).toEqual([]);
  expect(
    Object.keys(error).filter((k) => !['code', 'message', 'details'].includes(k)),
    where,
  ).toEqual([]);
  expect(typeof error.message, where).toBe('string');
  expect(Object.keys(ERROR_CODES), where).toContain(error.code);
  expect(ERROR_CODES[error.code as ErrorCode], where).toBe(res.status);
  if (error.details !== undefined) expect(typeof error.details, where).toBe('object');
  if (code !== undefined) expect(error.code, where).toBe(code);
  return error;
}

/**
 * One request written on a raw socket (what `inject` cannot send: bytes Node's HTTP parser refuses), read until
 * the server closes the connection. `headers` are lower-cased.
 */
export function rawRequest(port: number, request: string, timeoutMs = 5000): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('the server neither answered nor closed the connection'));
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // The server closes right after answering; a reset then is expected, not a failure.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
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
      });
    });
    socket.write(request, 'latin1');
  });
}

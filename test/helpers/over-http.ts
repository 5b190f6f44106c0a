import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, InjectOptions } from 'fastify';

/**
 * The two ways a public read can be answered (src/server/fast-hit.ts): suites that cover the response cache run
 * once per way. `inject` never reaches Node's `request` event, so the fast way goes over real HTTP on loopback
 * (`overHttp`); Fastify's way keeps `inject`, as before the front door existed.
 */
export const READ_PATHS = [
  { name: 'fast hits, over HTTP', fastHits: true },
  { name: 'Fastify only', fastHits: false },
] as const;
export type ReadPath = (typeof READ_PATHS)[number];

export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One request over a fresh connection (no keep-alive: nothing lingers when the app closes). */
export function sendHttp(
  port: number,
  method: string,
  url: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path: url, headers: { connection: 'close', ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export function portOf(app: FastifyInstance): number {
  const address = app.server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

/**
 * Listens on loopback and answers the app's `inject` over real HTTP from then on, so the suites' requests pass
 * Node's `request` event (the front door) as a client's do. Covers what those suites send: method, url (or
 * path and query), headers and a string or JSON body.
 */
export async function overHttp(app: FastifyInstance): Promise<void> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = portOf(app);
  const inject = async (opts: InjectOptions | string) => {
    const o: InjectOptions = typeof opts === 'string' ? { url: opts } : opts;
    let url = typeof o.url === 'string' ? o.url : (o.path ?? '/');
    if (typeof url !== 'string') throw new Error('overHttp: only string urls');
    if (o.query !== undefined) {
      const q = new URLSearchParams(o.query as Record<string, string>).toString();
      if (q !== '') url += (url.includes('?') ? '&' : '?') + q;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(o.headers ?? {})) if (v !== undefined) headers[k] = String(v);
    let body: string | Buffer | undefined;
    const payload = o.payload ?? o.body;
    if (typeof payload === 'string' || Buffer.isBuffer(payload)) body = payload;
    else if (payload !== undefined && payload !== null) {
      body = JSON.stringify(payload);
      headers['content-type'] ??= 'application/json';
    }
    const res = await sendHttp(port, o.method ?? 'GET', url, headers, body);
    const text = res.body.toString('utf8');
    return {
      statusCode: res.status,
      statusMessage: '',
      headers: res.headers,
      body: text,
      payload: text,
      rawPayload: res.body,
      json: () => JSON.parse(text) as unknown,
      cookies: [],
      trailers: {},
    };
  };
  // The suites only call `inject(options)` and read status, headers and the body of what it answers.
  Object.defineProperty(app, 'inject', { value: inject, configurable: true, writable: true });
}

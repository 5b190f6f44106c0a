import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bundleClient } from '../client/scripts/build.js';
import { EtagCache } from '../client/src/etag-cache.js';
import type * as sources from '../client/src/index.js';
import { createClient, type FolioClient } from '../client/src/index.js';
import { retryAfterMs } from '../client/src/retry.js';
import { failureOf } from './helpers/client.js';
import { tempDir } from './helpers/temp-dirs.js';

// The client's HTTP behaviour against a tiny loopback server that answers what each test
// queues: retries after 429 honouring Retry-After, one retry of a GET after 503, never a POST after 503,
// errors for every kind of failure, the token in the query, the ETag cache's bound, and the built bundle.

interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}
interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

const STATUS = JSON.stringify({ spaceId: 'spc_x', name: 'X', cv: 7, locales: [] });
const ok = (body = STATUS, headers: Record<string, string> = {}): Answer => ({
  status: 200,
  headers: { 'content-type': 'application/json', ...headers },
  body,
});
const envelope = (status: number, code: string, headers: Record<string, string> = {}, details?: object) => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify({ error: { code, message: `${code} happened`, ...(details ? { details } : {}) } }),
});

let server: Server;
let baseUrl: string;
let answers: Answer[] = [];
let received: Received[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
        at: Date.now(),
      });
      const answer = answers.shift() ?? { status: 500, body: 'no answer queued' };
      res.writeHead(answer.status, answer.headers ?? {});
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  answers = [];
  received = [];
});

const clientWith = (options: Partial<Parameters<typeof createClient>[0]> = {}): FolioClient =>
  createClient({ baseUrl, spaceId: 'spc_x', token: 'folio_pub_Stub', ...options });
const gap = (i: number) => (received[i]?.at ?? 0) - (received[i - 1]?.at ?? 0);

describe('retries (429 and 503)', () => {
  it('waits the seconds of Retry-After after a 429, then answers the retry', async () => {
    answers = [envelope(429, 'rate_limited', { 'retry-after': '1' }), ok()];
    const status = await clientWith().status();
    expect(status.cv).toBe(7);
    expect(received).toHaveLength(2);
    expect(gap(1)).toBeGreaterThanOrEqual(950);
    expect(gap(1)).toBeLessThan(3000);
  });

  it('waits until the HTTP date of Retry-After', async () => {
    // HTTP dates have whole seconds: two seconds ahead is a wait of one to two seconds.
    const at = new Date(Math.ceil(Date.now() / 1000) * 1000 + 2000).toUTCString();
    answers = [envelope(429, 'rate_limited', { 'retry-after': at }), ok()];
    await clientWith().status();
    expect(received).toHaveLength(2);
    expect(gap(1)).toBeGreaterThanOrEqual(900);
    expect(gap(1)).toBeLessThan(3000);
  });

  it('gives up after the configured number of retries with the 429 and its retryAfter', async () => {
    const limited = () => envelope(429, 'rate_limited', { 'retry-after': '0' }, { limit: 1, retryAfter: 0 });
    answers = [limited(), limited(), limited(), limited()];
    const err = await failureOf(clientWith().status());
    expect(err).toMatchObject({ status: 429, code: 'rate_limited', retryAfter: 0, details: { limit: 1 } });
    expect(received).toHaveLength(3);

    received = [];
    answers = [limited(), limited(), limited()];
    await failureOf(clientWith({ retry: { retries: 1 } }).status());
    expect(received).toHaveLength(2);
  });

  it('does not wait longer than maxDelayMs: the 429 fails at once with its retryAfter', async () => {
    answers = [envelope(429, 'rate_limited', { 'retry-after': '60' })];
    const started = Date.now();
    const err = await failureOf(clientWith({ retry: { maxDelayMs: 5000 } }).status());
    expect(err).toMatchObject({ status: 429, retryAfter: 60 });
    expect(received).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('retries nothing with retry: false', async () => {
    answers = [envelope(429, 'rate_limited', { 'retry-after': '0' }), ok()];
    expect(await failureOf(clientWith({ retry: false }).status())).toMatchObject({ code: 'rate_limited' });
    answers = [envelope(503, 'unavailable'), ok()];
    expect(await failureOf(clientWith({ retry: false }).status())).toMatchObject({ code: 'unavailable' });
    expect(received).toHaveLength(2);
  });

  it('asks a GET once more after 503, and only once', async () => {
    answers = [envelope(503, 'unavailable', { 'retry-after': '0' }), ok()];
    expect((await clientWith().status()).cv).toBe(7);
    expect(received).toHaveLength(2);

    received = [];
    answers = [envelope(503, 'unavailable', { 'retry-after': '0' }), envelope(503, 'unavailable'), ok()];
    expect(await failureOf(clientWith().status())).toMatchObject({ status: 503, code: 'unavailable' });
    expect(received).toHaveLength(2);
  });

  it('sends a submission again after 429 (not accepted), never after 503', async () => {
    const submitted = JSON.stringify({ ok: true, successMessage: 'Thanks' });
    answers = [envelope(429, 'rate_limited', { 'retry-after': '0' }), ok(submitted)];
    const result = await clientWith().forms.submit('contact', { email: 'a@example.com' }, { locale: 'de' });
    expect(result).toEqual({ ok: true, successMessage: 'Thanks' });
    expect(received.map((r) => [r.method, r.url, r.headers['content-type'], JSON.parse(r.body)])).toEqual([
      [
        'POST',
        '/v1/spc_x/forms/contact/submissions',
        'application/json',
        { email: 'a@example.com', _locale: 'de' },
      ],
      [
        'POST',
        '/v1/spc_x/forms/contact/submissions',
        'application/json',
        { email: 'a@example.com', _locale: 'de' },
      ],
    ]);

    received = [];
    answers = [envelope(503, 'unavailable', { 'retry-after': '0' }), ok(submitted)];
    expect(await failureOf(clientWith().forms.submit('contact', {}))).toMatchObject({ code: 'unavailable' });
    expect(received).toHaveLength(1);
  });

  it('stops waiting when the signal aborts, as `aborted`', async () => {
    answers = [envelope(429, 'rate_limited', { 'retry-after': '5' }), ok()];
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const err = await failureOf(clientWith().status({ signal: controller.signal }));
    expect(err).toMatchObject({ status: 0, code: 'aborted' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(received).toHaveLength(1);
  });
});

describe('failures are FolioApiError', () => {
  it('an error answer that is not the envelope: http_error with its status', async () => {
    answers = [{ status: 502, headers: { 'content-type': 'text/html' }, body: '<html>Bad gateway</html>' }];
    expect(await failureOf(clientWith().status())).toMatchObject({ status: 502, code: 'http_error' });
    answers = [{ status: 400, headers: { 'content-type': 'application/json' }, body: '{"message":"no"}' }];
    expect(await failureOf(clientWith().status())).toMatchObject({ status: 400, code: 'http_error' });
  });

  it('a success answer that is not the expected JSON: invalid_response', async () => {
    answers = [{ status: 200, body: 'not json' }];
    expect(await failureOf(clientWith().status())).toMatchObject({ status: 200, code: 'invalid_response' });
    answers = [ok(JSON.stringify({ items: 'nope', included: {}, nextCursor: null, total: 0, cv: 1 }))];
    expect(await failureOf(clientWith().entries.list().page())).toMatchObject({ code: 'invalid_response' });
  });

  it('no answer at all: network_error with status 0 and the cause', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const offline = createClient({ baseUrl: `http://127.0.0.1:${port}`, spaceId: 'spc_x', token: 't' });
    const err = await failureOf(offline.status());
    expect(err).toMatchObject({ status: 0, code: 'network_error', name: 'FolioApiError' });
    expect(err.cause).toBeInstanceOf(Error);
  });

  it('a timeout signal: timeout', async () => {
    const hanging = createServer(() => undefined);
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    try {
      const port = (hanging.address() as AddressInfo).port;
      const slow = createClient({ baseUrl: `http://127.0.0.1:${port}`, spaceId: 'spc_x', token: 't' });
      const err = await failureOf(slow.status({ signal: AbortSignal.timeout(100) }));
      expect(err).toMatchObject({ status: 0, code: 'timeout' });
    } finally {
      hanging.closeAllConnections();
      await new Promise<void>((resolve) => hanging.close(() => resolve()));
    }
  });
});

describe('requests', () => {
  it('sends the token as a bearer header, or in the query with tokenIn: query', async () => {
    answers = [ok(), ok()];
    await clientWith().status();
    await clientWith({ tokenIn: 'query' }).status();
    expect(received.map((r) => [r.url, r.headers.authorization])).toEqual([
      ['/v1/spc_x/status', 'Bearer folio_pub_Stub'],
      ['/v1/spc_x/status?token=folio_pub_Stub', undefined],
    ]);
    expect(() => clientWith({ token: 'folio_prv_Secret', tokenIn: 'query' })).toThrow(/Authorization header/);
    expect(() => clientWith({ baseUrl: 'folio.example' })).toThrow(/absolute URL/);
  });

  it('encodes paths, lists and filters as the API names them', async () => {
    const page = JSON.stringify({
      items: [],
      included: { entries: [], links: {} },
      nextCursor: null,
      total: 0,
      cv: 3,
    });
    answers = [ok(JSON.stringify({ entry: {}, included: {}, cv: 3 })), ok(page)];
    const client = createClient({ baseUrl: `${baseUrl}/cms/`, spaceId: 'spc_x', token: 't' }).at(3);
    await client.entries.byPath('/über uns/a?b', { include: ['author', 'related'], draft: false });
    await client.entries
      .list({
        tags: ['a', 'b'],
        filter: { 'fields.n': { gte: 2, in: [1, 2] }, tags: 'x' },
        sort: ['-name', 'id'],
      })
      .page();
    expect(received.map((r) => decodeURIComponent(r.url))).toEqual([
      '/cms/v1/spc_x/entries/by-path/über uns/a?b?cv=3&include=author,related',
      '/cms/v1/spc_x/entries?cv=3&tags=a,b&sort=-name,id&filter[fields.n][gte]=2&filter[fields.n][in]=1,2&filter[tags]=x',
    ]);
    expect(received[0]?.url).toContain('/by-path/%C3%BCber%20uns/a%3Fb?');
  });

  it('keeps at most maxEntries answers for revalidation, least recently used out first', async () => {
    const entry = JSON.stringify({ entry: { id: 'ent_a' }, included: { entries: [], links: {} }, cv: 1 });
    const etagged = (tag: string) => ok(entry, { etag: `"${tag}"` });
    answers = [etagged('a'), etagged('b'), etagged('a2'), { status: 304, headers: { etag: '"a2"' } }];
    const small = clientWith({ cache: { maxEntries: 1 } });
    await small.entries.get('ent_a');
    await small.entries.get('ent_b');
    await small.entries.get('ent_a');
    expect((await small.entries.get('ent_a')).entry.id).toBe('ent_a');
    expect(received.map((r) => r.headers['if-none-match'])).toEqual([
      undefined,
      undefined,
      undefined,
      '"a2"',
    ]);

    const lru = new EtagCache(2);
    lru.set('x', { etag: '1', text: '{}' });
    lru.set('y', { etag: '2', text: '{}' });
    lru.get('x');
    lru.set('z', { etag: '3', text: '{}' });
    expect([lru.get('x')?.etag, lru.get('y'), lru.get('z')?.etag, lru.size]).toEqual([
      '1',
      undefined,
      '3',
      2,
    ]);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-03-15T12:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Sun, 15 Mar 2026 12:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Sun, 15 Mar 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});

describe('the built bundle (client/dist/index.js)', () => {
  it('is one ES module without Node built-ins that works as the sources do', async () => {
    const code = await bundleClient();
    expect(code).not.toMatch(/from\s*["']node:|require\(/);
    const file = join(tempDir('folio-client-bundle-'), 'index.mjs');
    writeFileSync(file, code);
    const bundled = (await import(pathToFileURL(file).href)) as typeof sources;
    answers = [envelope(404, 'not_found')];
    const client = bundled.createClient({ baseUrl, spaceId: 'spc_x', token: 't' });
    const err = await client.status().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(bundled.FolioApiError);
    expect(err).toMatchObject({ status: 404, code: 'not_found', message: 'not_found happened' });
  });
});

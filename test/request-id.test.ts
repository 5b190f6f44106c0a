import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../src/lib/redact-url.js';
import { type EdgeTestApp, openEdgeTestApp } from './helpers/edge.js';
import { TOKENS } from './helpers/fixture.js';
import { PROCESS_TEST_MS, serveFolio } from './helpers/processes.js';
import { tempDir } from './helpers/temp-dirs.js';

// Request ids that follow a request through a proxy into the logs: a short, plain X-Request-Id is kept, anything
// else replaced by a UUID; every answer carries it; logged URLs never hold a token.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request ids', () => {
  let t: EdgeTestApp;
  beforeAll(async () => {
    t = await openEdgeTestApp('sqlite');
  });
  afterAll(async () => t.close());

  const idOf = async (url: string, headers: Record<string, string> = {}, method: 'GET' | 'POST' = 'GET') => {
    const res = await t.app.inject({ method, url, headers });
    return { status: res.statusCode, id: res.headers['x-request-id'] };
  };

  it.each([
    ['a proxy id', 'abc-123.X_y', 'abc-123.X_y'],
    ['64 characters', 'a'.repeat(64), 'a'.repeat(64)],
  ])('keeps %s', async (_what, given, kept) => {
    expect(await idOf('/healthz', { 'x-request-id': given })).toEqual({ status: 200, id: kept });
  });

  it.each([
    ['too long', 'a'.repeat(65)],
    ['a space', 'abc 123'],
    ['a quote', 'abc"123'],
    ['a newline escape', 'abc\\n123'],
    ['empty', ''],
  ])('replaces an id with %s by a UUID', async (_what, given) => {
    const { id } = await idOf('/healthz', { 'x-request-id': given });
    expect(id).toMatch(UUID);
  });

  it('makes a new id per request when none is given', async () => {
    const a = await idOf('/healthz');
    const b = await idOf('/healthz');
    expect(a.id).toMatch(UUID);
    expect(b.id).toMatch(UUID);
    expect(a.id).not.toBe(b.id);
  });

  it('sends it on errors too: no route, a bad token, a wrong method, a path the router refuses', async () => {
    const headers = { 'x-request-id': 'err-1' };
    expect(await idOf('/nowhere', headers)).toEqual({ status: 404, id: 'err-1' });
    expect(await idOf('/v1/spc_test/entries/ent_home?token=folio_pub_nope', headers)).toEqual({
      status: 401,
      id: 'err-1',
    });
    expect(await idOf('/healthz', headers, 'POST')).toEqual({ status: 405, id: 'err-1' });
    expect(await idOf('/v1/spc_test/entries/%E0%A4%A', headers)).toMatchObject({ id: 'err-1' });
  });

  it('sends it on a cached answer, each request its own', async () => {
    const url = '/v1/spc_test/entries/ent_home';
    const auth = { authorization: `Bearer ${TOKENS.public}` };
    expect(await idOf(url, { ...auth, 'x-request-id': 'first' })).toEqual({ status: 200, id: 'first' });
    expect(await idOf(url, { ...auth, 'x-request-id': 'second' })).toEqual({ status: 200, id: 'second' });
  });
});

describe('logged URLs', () => {
  it.each([
    ['/v1/s/entries?token=folio_pub_x&locale=de', '/v1/s/entries?token=[redacted]&locale=de'],
    ['/v1/s/files/f?exp=1&sig=abc', '/v1/s/files/f?exp=1&sig=[redacted]'],
    ['/x?a=1&Token=y&b', '/x?a=1&Token=[redacted]&b'],
    ['/x?%74oken=y', '/x?%74oken=[redacted]'],
    ['/x?turnstileToken=y', '/x?turnstileToken=[redacted]'],
    ['/x?q=token', '/x?q=token'],
    ['/x', '/x'],
  ])('%s is logged as %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });

  it(
    'a debug log carries the request id and never a token from the query string',
    { timeout: PROCESS_TEST_MS },
    async () => {
      const folio = await serveFolio({ DATA_DIR: tempDir('folio-rid-'), LOG_LEVEL: 'debug' });
      try {
        const res = await fetch(`${folio.base}/v1/spc_none/entries?token=folio_pub_SeCrEtVaLuE&locale=de`, {
          headers: { 'x-request-id': 'trace-4711' },
        });
        expect(res.headers.get('x-request-id')).toBe('trace-4711');
        await new Promise((r) => setTimeout(r, 300));
        const out = folio.output();
        expect(out).toContain('"reqId":"trace-4711"');
        expect(out).toContain('token=[redacted]');
        expect(out).not.toContain('SeCrEtVaLuE');
      } finally {
        await folio.stop();
      }
    },
  );
});

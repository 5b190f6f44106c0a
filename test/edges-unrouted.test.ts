// Requests the API does not serve get the answer that says so, in the envelope. A method a
// path does not serve is 405 before any body is read; a reserved JSON member is named; `Expect` other than
// 100-continue is a 417 envelope; OPTIONS on an unknown /v1 path is 404; a client that aborts its upload is no
// error of the server's.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TURNSTILE_TEST_SECRETS } from '../src/forms/submission/turnstile.js';
import { openStore } from '../src/store/open-store.js';
import { openTestApp, type TestApp } from './helpers/app.js';
import { DATABASE_URL, dropSchema, ENGINES } from './helpers/engines.js';
import { expectEnvelope, rawRequest } from './helpers/envelope.js';
import { fixtureBundle, TOKENS } from './helpers/fixture.js';
import { type FolioProcess, PROCESS_TEST_MS, runFolio, serveFolio } from './helpers/processes.js';

const pub = { authorization: `Bearer ${TOKENS.public}` };
const mgt = { authorization: `Bearer ${TOKENS.management}` };

describe('requests no route serves', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp('sqlite');
  });
  afterAll(async () => t.close());

  const send = async (method: string, url: string, headers: Record<string, string>, payload?: string) => {
    const res = await t.app.inject({
      method: method as HTTPMethods,
      url,
      headers,
      ...(payload === undefined ? {} : { payload }),
    });
    return { status: res.statusCode, headers: res.headers, text: res.body };
  };

  it.each([
    ['QUERY', '/healthz', {}, undefined, 'GET, HEAD'],
    ['QUERY', '/healthz', { 'content-type': 'application/json' }, '{', 'GET, HEAD'],
    ['PATCH', '/healthz', { 'content-type': 'application/json' }, '{"broken":', 'GET, HEAD'],
    ['PATCH', '/healthz', { 'content-type': 'application/json' }, '', 'GET, HEAD'],
    ['PUT', '/healthz', { 'content-type': 'text/plain' }, 'x', 'GET, HEAD'],
    [
      'PATCH',
      '/v1/spc_test/entries/ent_home',
      { ...pub, 'content-type': 'application/json' },
      '{',
      'GET, HEAD, OPTIONS',
    ],
    ['QUERY', '/v1/spaces/spc_test/tokens', mgt, undefined, 'GET, HEAD, OPTIONS, POST'],
    [
      'DELETE',
      '/v1/spaces/spc_test/forms',
      { ...mgt, 'content-type': 'application/json' },
      '{"__proto__":1}',
      'GET, HEAD, OPTIONS, POST',
    ],
  ])(
    '%s %s (%j, body %j) → 405 before the body is read, Allow: %s',
    async (method, url, headers, payload, allow) => {
      const res = await send(method, url, headers, payload);
      const error = expectEnvelope(res, 'method_not_allowed', `${method} ${url}`);
      expect(res.headers.allow).toBe(allow);
      expect(error.details).toEqual({ allow: allow.split(', ') });
    },
  );

  it('an unknown path with a broken body is still 404, whatever the method', async () => {
    for (const method of ['QUERY', 'PATCH', 'POST']) {
      const res = await send(method, '/v1/spc_test/nothing', { 'content-type': 'application/json' }, '{');
      expectEnvelope(res, 'not_found', method);
    }
  });

  it('OPTIONS on a /v1 path no route serves is 404; preflights of real routes keep working', async () => {
    for (const url of [
      '/v1/spc_test/nothing-here',
      '/v1/spc_test/entries/ent_home/x',
      '/v1/spaces/spc_test/nope',
      '/v1/x',
    ]) {
      const res = await send('OPTIONS', url, { origin: 'https://site.example' });
      expectEnvelope(res, 'not_found', url);
      expect(res.headers['access-control-allow-origin'], url).toBeUndefined();
    }
    for (const url of [
      '/v1/spc_test/entries',
      '/v1/spc_test/entries/by-path/blog/hello',
      '/v1/spc_test/forms/contact/submissions',
      '/v1/spaces/spc_test/entries',
    ]) {
      const res = await send('OPTIONS', url, {
        origin: 'https://site.example',
        'access-control-request-method': 'POST',
      });
      expect([url, res.status]).toEqual([url, 204]);
      expect(res.headers['access-control-allow-origin']).toBe('https://site.example');
      expect(res.headers['access-control-allow-methods']).toBe('GET, HEAD, POST, OPTIONS');
    }
  });

  it.each([
    ['{"__proto__":1}', '__proto__'],
    ['{"name":"Main","items":[{"label":{"en":"x"},"__proto__":{"polluted":true}}]}', '__proto__'],
    ['{"\\u005f_proto__":1}', '__proto__'],
    ['{"name":"Main","constructor":{"prototype":{"polluted":true}}}', 'constructor'],
  ])('a management body %s → 400 invalid_body saying the member %s is reserved', async (payload, member) => {
    const res = await send(
      'PUT',
      '/v1/spaces/spc_test/menus/main',
      { ...mgt, 'content-type': 'application/json' },
      payload,
    );
    const error = expectEnvelope(res, 'invalid_body');
    expect(error.message).toContain('reserved');
    expect(error.message).not.toContain('not valid JSON');
    expect(error.details).toEqual({ member });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('members named constructor (without prototype), toString or valueOf are members like any other', async () => {
    const res = await send(
      'PUT',
      '/v1/spaces/spc_test/menus/main',
      { ...mgt, 'content-type': 'application/json' },
      '{"name":"Main","items":[],"constructor":1}',
    );
    // The menu's schema has no such member: the usual 400 naming it, not a reserved-name answer.
    const error = expectEnvelope(res, 'invalid_body');
    expect(error.message).not.toContain('reserved');
  });

  it('a body that is not JSON is still called that', async () => {
    const res = await send(
      'PUT',
      '/v1/spaces/spc_test/menus/main',
      { ...mgt, 'content-type': 'application/json' },
      '{"name":',
    );
    expect(expectEnvelope(res, 'invalid_body').message).toBe('The request body is not valid JSON.');
  });

  describe('over a real socket', () => {
    let port = 0;
    beforeAll(async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      port = (t.app.server.address() as AddressInfo).port;
    });

    it('Expect other than 100-continue is 417 expectation_failed in the envelope, and no route runs', async () => {
      for (const expectation of ['200-ok', 'something']) {
        const res = await rawRequest(
          port,
          `GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: ${expectation}\r\nConnection: close\r\n\r\n`,
        );
        const error = expectEnvelope(res, 'expectation_failed', expectation);
        expect(error.message).toContain(expectation);
      }
      const posted = await rawRequest(
        port,
        'POST /v1/spaces/spc_test/menus HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
      );
      expectEnvelope(posted, 'expectation_failed');
    });

    it('Expect: 100-continue still gets its interim answer and the route', async () => {
      const res = await rawRequest(
        port,
        'GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n',
      );
      expect(res.status).toBe(100);
      expect(res.text).toContain('HTTP/1.1 200 OK');
      expect(res.text).toContain('{"ok":true,"version":');
    });
  });
});

describe.each(ENGINES)(
  'a client that aborts its upload mid-body, on %s',
  { timeout: PROCESS_TEST_MS },
  (engine) => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-abort-'));
    const schema = `t_abort_${Date.now().toString(36)}`;
    const env: Record<string, string> = {
      DATA_DIR: join(dir, 'data'),
      DATABASE_URL: '',
      REDIS_URL: '',
      FOLIO_WORKER: 'off',
      LOG_LEVEL: 'info',
      ...(engine === 'postgres' ? { DATABASE_URL, DATABASE_SCHEMA: schema } : {}),
    };
    let server: FolioProcess | null = null;
    afterAll(async () => {
      await server?.stop();
      if (engine === 'postgres') await dropSchema(schema);
      rmSync(dir, { recursive: true, force: true });
    });

    it('is logged at info without a stack, and nothing of the upload is kept', async () => {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the fixture is extended loosely
      const bundle = fixtureBundle() as any;
      bundle.assets = [];
      bundle.entries = bundle.entries.map((e: { fields: Record<string, unknown> }) => ({ ...e, fields: {} }));
      bundle.releases = [];
      bundle.forms = [
        {
          key: 'apply',
          name: 'Apply',
          fields: [{ key: 'cv', type: 'file', label: 'CV' }],
          settings: {
            turnstileSiteKey: '1x00000000000000000000AA',
            turnstileSecret: TURNSTILE_TEST_SECRETS.pass,
          },
        },
      ];
      writeFileSync(join(dir, 'bundle.json'), JSON.stringify(bundle));
      const imported = await runFolio(['import', join(dir, 'bundle.json')], env);
      expect(imported.code, imported.out).toBe(0);
      server = await serveFolio(env);
      const { hostname, port } = new URL(server.base);

      const boundary = 'AbortedUpload';
      const head =
        `--${boundary}\r\nContent-Disposition: form-data; name="field"\r\n\r\ncv\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cv.pdf"\r\n` +
        'Content-Type: application/pdf\r\n\r\n%PDF-1.4\n';
      const socket = connect(Number(port), hostname);
      socket.on('error', () => {});
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write(
        `POST /v1/spc_test/forms/apply/uploads HTTP/1.1\r\nHost: ${hostname}\r\n` +
          `Authorization: Bearer ${TOKENS.public}\r\n` +
          `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 5000000\r\n\r\n${head}`,
      );
      socket.write(Buffer.alloc(256 * 1024, 0x41));
      // The server has begun storing the file (its pending row exists) before the client goes.
      const store = await openStore(
        engine === 'postgres'
          ? { engine, url: DATABASE_URL, schema }
          : { engine, file: join(env.DATA_DIR ?? '', 'folio.sqlite') },
      );
      try {
        const uploads = () => store.db.selectFrom('uploads').select('id').execute();
        await expect.poll(async () => (await uploads()).length, { timeout: 10_000 }).toBe(1);
        socket.destroy();
        await expect
          .poll(() => server?.output() ?? '', { timeout: 10_000 })
          .toContain('upload aborted by the client');
        await expect.poll(async () => (await uploads()).length, { timeout: 10_000 }).toBe(0);
      } finally {
        await store.close();
      }
      const lines = (server.output().match(/^\{.*\}$/gm) ?? []).map(
        (l) => JSON.parse(l) as Record<string, unknown>,
      );
      const aborted = lines.filter((l) => l.msg === 'upload aborted by the client');
      expect(aborted).toHaveLength(1);
      expect(aborted[0]).toMatchObject({
        level: 30,
        code: 'ECONNRESET',
        url: '/v1/spc_test/forms/apply/uploads',
      });
      expect(lines.filter((l) => Number(l.level) >= 40)).toEqual([]);
      expect(server.output()).not.toContain('"stack"');
    });
  },
);

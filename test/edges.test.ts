// Errors are always the 7.1 envelope, and the edges are tight (found by probing as an attacker).

import type { AddressInfo, Socket } from 'node:net';
import type { ConnectionError, HTTPMethods, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBundle } from '../src/bundle/import-bundle.js';
import { validateBundle } from '../src/bundle/validate-bundle.js';
import type { EntrySnapshot } from '../src/content/model.js';
import type { ContentView } from '../src/delivery/content-view.js';
import { MAX_INCLUDED, resolveEntries } from '../src/delivery/resolve.js';
import { hasUnstorableText } from '../src/forms/submission/controls.js';
import { deeperThan, MAX_JSON_DEPTH } from '../src/lib/json-depth.js';
import { clientErrorHandler } from '../src/server/client-errors.js';
import { FolioError } from '../src/errors/errors.js';
import { serveEnv } from './helpers/app.js';
import { ENGINES, openTestEnv } from './helpers/engines.js';
import { expectEnvelope, rawRequest } from './helpers/envelope.js';
import { SITE_ORIGIN, TOKENS } from './helpers/fixture.js';
import { contactForm, VALID_CONTACT } from './helpers/form-defs.js';
import { type FormsApp, formClient, openFormsApp, putForms } from './helpers/forms.js';
import { FOLIO_VERSION } from '../src/lib/version.js';

const base = '/v1/spc_test';
const pub = { authorization: `Bearer ${TOKENS.public}` };
const restricted = { authorization: `Bearer ${TOKENS.publicOrigins}` };
const mgt = { authorization: `Bearer ${TOKENS.management}`, 'content-type': 'application/json' };

/** `levels` nested arrays around a 1: `[[1]]` is 2 levels. */
const nested = (levels: number): string => '['.repeat(levels) + '1' + ']'.repeat(levels);

/** A rich-text document `nodes` nodes deep (the content rules allow 50, src/bundle/validate-fields.ts). */
function deepDoc(nodes: number): Record<string, unknown> {
  let node: Record<string, unknown> = { type: 'text', text: 'deep' };
  for (let i = 1; i < nodes; i++) node = { type: 'blockquote', content: [node] };
  return { type: 'doc', content: [node] };
}

describe('the include cap, on a generated graph (resolveEntries)', () => {
  const itemType = {
    key: 'item',
    kind: 'collection' as const,
    pages: false,
    fields: [{ key: 'refs', type: 'reference' as const, to: ['item'], many: true }],
  };
  const snapshot = (id: string, refs: string[]): EntrySnapshot => ({
    id,
    type: 'item',
    name: id,
    slug: id,
    slugs: {},
    parentId: null,
    position: 0,
    tags: [],
    fields: { refs },
    publishedAt: '2026-03-01T10:00:00.000Z',
    firstPublishedAt: '2026-03-01T10:00:00.000Z',
    paths: null,
  });
  /** `ent_0 → [ent_1 … ent_fan]`, each of those → the next `chain` entries: a fan and a long chain in one. */
  function graph(fan: number, chain: number): { view: ContentView; root: EntrySnapshot } {
    const all = new Map<string, EntrySnapshot>();
    const ids = (from: number, n: number) => Array.from({ length: n }, (_, i) => `ent_${from + i}`);
    for (const id of ids(1, fan)) all.set(id, snapshot(id, []));
    for (let i = 0; i < chain; i++) all.set(`ent_c${i}`, snapshot(`ent_c${i}`, [`ent_c${i + 1}`]));
    const root = snapshot('ent_0', [...ids(1, fan), ...(chain > 0 ? ['ent_c0'] : [])]);
    const view: ContentView = {
      mode: 'published',
      cv: 1,
      types: async () => new Map([['item', itemType]]),
      entries: async (wanted) => new Map(wanted.flatMap((id) => (all.has(id) ? [[id, all.get(id)!]] : []))),
      entryAtPath: async () => null,
      entriesOfTypes: async () => [...all.values()],
      assets: async () => new Map(),
      forms: async () => new Map(),
    };
    return { view, root };
  }
  const params = {
    locale: 'en',
    chain: ['en'],
    include: new Set(['refs']),
    fields: undefined,
    assetUrl: () => '',
  };

  it(`includes exactly ${MAX_INCLUDED} entries`, async () => {
    const { view, root } = graph(MAX_INCLUDED - 10, 10);
    const { included } = await resolveEntries(view, [root], params);
    expect(included.entries).toHaveLength(MAX_INCLUDED);
  });

  it('refuses one more, reached by a fan or by a chain, as 400 invalid_query naming include', async () => {
    for (const [fan, chain] of [
      [MAX_INCLUDED + 1, 0],
      [10, MAX_INCLUDED],
    ] as const) {
      const { view, root } = graph(fan, chain);
      const err = await resolveEntries(view, [root], params).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(FolioError);
      const folio = err as FolioError;
      expect([folio.status, folio.code, folio.details]).toEqual([
        400,
        'invalid_query',
        { parameter: 'include' },
      ]);
      expect(folio.message).toContain('5,000');
    }
  });
});

// The cap end to end on SQLite only: it lives above the store, and importing 5,000 entries into PostgreSQL takes 10 s.
describe('the include cap over HTTP (sqlite)', () => {
  const token = 'folio_pub_BigSpaceToken00000000001';
  const published = { at: '2026-03-01T10:00:00.000Z', firstAt: '2026-01-01T10:00:00.000Z' };
  let t: Awaited<ReturnType<typeof serveEnv>>;
  beforeAll(async () => {
    const env = await openTestEnv('sqlite');
    const ids = Array.from({ length: MAX_INCLUDED + 1 }, (_, i) => `ent_n${i}`);
    const entry = (id: string, position: number, refs: string[]) => ({
      ...{ id, type: 'item', name: id, slug: id.slice(4), parent: null, position, tags: [], published },
      fields: { refs },
    });
    const bundle = {
      format: 'folio-bundle@1',
      space: { id: 'spc_big', name: 'Big', locales: [{ code: 'en', default: true }] },
      tokens: [{ kind: 'public', value: token }],
      types: [
        {
          key: 'item',
          kind: 'collection',
          pages: false,
          fields: [{ key: 'refs', type: 'reference', to: ['item'], many: true }],
        },
      ],
      entries: [
        entry('ent_all', 0, ids),
        entry('ent_most', 1, ids.slice(0, MAX_INCLUDED)),
        ...ids.map((id, i) => entry(id, i + 2, [])),
      ],
    };
    await importBundle(env.store, env.blobs, bundle, { baseDir: env.dataDir });
    t = await serveEnv(env);
  }, 60_000);
  afterAll(async () => t.close());

  it('answers 400 invalid_query naming include and the limit, never 500', async () => {
    const res = await t.app.inject({
      url: '/v1/spc_big/entries/ent_all?include=refs',
      headers: { authorization: `Bearer ${token}` },
    });
    const error = expectEnvelope(
      { status: res.statusCode, headers: res.headers, text: res.body },
      'invalid_query',
    );
    expect(error.details).toEqual({ parameter: 'include' });
    expect(error.message).toMatch(/limit of 5,000/);
    const most = await t.get('/v1/spc_big/entries/ent_most?include=refs', {
      authorization: `Bearer ${token}`,
    });
    expect(most.status).toBe(200);
    expect(most.body.included.entries).toHaveLength(MAX_INCLUDED);
  });
});

describe('the depth bound on parsed input', () => {
  it(`measures depth iteratively and allows exactly ${MAX_JSON_DEPTH} levels`, () => {
    expect(deeperThan(JSON.parse(nested(MAX_JSON_DEPTH)))).toBe(false);
    expect(deeperThan(JSON.parse(nested(MAX_JSON_DEPTH + 1)))).toBe(true);
    expect(deeperThan(JSON.parse(nested(100_000)))).toBe(true);
    expect(deeperThan({ a: [{ b: 1 }] }, 3)).toBe(false);
    expect(deeperThan({ a: [{ b: {} }] }, 3)).toBe(true);
  });

  it('never overflows the stack in hasUnstorableText, and a bundle that deep is a problem, not a crash', () => {
    const deep: unknown = JSON.parse(`{"a":${nested(100_000)},"b":"\\u0000"}`);
    expect(hasUnstorableText(deep)).toBe(true);
    expect(hasUnstorableText(JSON.parse(nested(100_000)))).toBe(false);
    const check = validateBundle({
      format: 'folio-bundle@1',
      forms: [JSON.parse(`{"fields":${nested(100_000)}}`)],
    });
    expect(check).toEqual({
      ok: false,
      problems: [{ path: '$', message: `nests deeper than ${MAX_JSON_DEPTH} levels` }],
    });
  });
});

describe('answers to what Node refuses, on a raw socket (clientErrorHandler)', () => {
  let t: Awaited<ReturnType<typeof serveEnv>>;
  let port = 0;
  beforeAll(async () => {
    t = await serveEnv(await openTestEnv('sqlite'));
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => t.close());

  const line = (target: string, headers = '') =>
    `GET ${target} HTTP/1.1\r\nHost: folio.test\r\nAuthorization: Bearer ${TOKENS.public}\r\n${headers}\r\n`;

  it.each([
    ['a URL over 16 KB', line(`${base}/entries/ent_home?x=${'a'.repeat(17_000)}`), 431, 'headers_too_large'],
    [
      'headers over 16 KB',
      line(`${base}/entries/ent_home`, `X-Big: ${'a'.repeat(17_000)}\r\n`),
      431,
      'headers_too_large',
    ],
    [
      'a control character in a header',
      line(`${base}/entries/ent_home`, 'X-Evil: a\u0001b\r\n'),
      400,
      'invalid_request',
    ],
    [
      'an unknown method',
      `FROB ${base}/entries/ent_home HTTP/1.1\r\nHost: folio.test\r\n\r\n`,
      400,
      'invalid_request',
    ],
    ['a garbled request line', 'hello there\r\n\r\n', 400, 'invalid_request'],
  ] as const)('%s: the envelope, then the connection closes', async (_name, request, status, code) => {
    const res = await rawRequest(port, request);
    expect(res.status).toBe(status);
    expect(res.headers.connection).toBe('close');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
    expectEnvelope(res, code);
  });

  it('still serves a good request', async () => {
    const res = await rawRequest(port, line('/healthz', 'Connection: close\r\n'));
    expect([res.status, res.text]).toEqual([200, JSON.stringify({ ok: true, version: FOLIO_VERSION })]);
  });

  it('answers a header timeout with 408, and writes nothing into a response already under way', () => {
    const socket = (inFlight: boolean) => {
      const written: string[] = [];
      const fake = {
        destroyed: false,
        writable: true,
        _httpMessage: inFlight ? { headersSent: true } : null,
        write: (s: string) => written.push(s),
        destroy: () => undefined,
      };
      return { fake: fake as unknown as Socket, written };
    };
    const timeout = Object.assign(new Error('timeout'), {
      code: 'ERR_HTTP_REQUEST_TIMEOUT',
    }) as ConnectionError;
    const idle = socket(false);
    clientErrorHandler(60_000)(timeout, idle.fake);
    expect(idle.written.join('')).toMatch(
      /^HTTP\/1\.1 408 Request Timeout\r\n[\s\S]*"code":"request_timeout"/,
    );
    const busy = socket(true);
    clientErrorHandler(60_000)(timeout, busy.fake);
    expect(busy.written).toEqual([]);
  });
});

describe.each(ENGINES)('edges on %s', (engine) => {
  let t: FormsApp;
  beforeAll(async () => {
    t = await openFormsApp(engine);
    await putForms(t, 'spc_test', [contactForm('typed')]);
  });
  afterAll(async () => t.close());
  const { submit, rows } = formClient(() => t);
  const send = async (opts: InjectOptions) => {
    const res = await t.app.inject(opts);
    return { status: res.statusCode, headers: res.headers, text: res.body };
  };

  describe('errors Fastify raises itself leave as the envelope (frameworkErrors)', () => {
    it('an undecodable path is 400 invalid_request', async () => {
      for (const url of [
        `${base}/entries/by-path/%ff`,
        `${base}/entries/%ff`,
        '/v1/spaces/spc_test/forms/%c0',
      ])
        expectEnvelope(await send({ url, headers: pub }), 'invalid_request', url);
    });

    it('a NUL in a path parameter is 404 not_found before any query sees it (PostgreSQL refuses NUL)', async () => {
      for (const url of [
        `${base}/entries/ent_%00home`,
        `${base}/entries/by-path/ab%00out`,
        `${base}/forms/con%00tact`,
        '/v1/spaces/spc_test/forms/con%00tact',
        '/v1/spaces/spc_test/menus/a%00b',
      ]) {
        const headers = url.startsWith('/v1/spaces/') ? mgt : pub;
        expectEnvelope(await send({ url, headers }), 'not_found', url);
      }
    });

    it('a path segment over 2,048 characters is 400 invalid_request', async () => {
      expectEnvelope(
        await send({ url: `${base}/entries/${'a'.repeat(3000)}`, headers: pub }),
        'invalid_request',
      );
    });
  });

  describe('a known path with the wrong method is 405 with Allow; an unknown path stays 404', () => {
    it.each([
      ['POST', `${base}/entries/ent_home`, 'GET, HEAD, OPTIONS'],
      ['PROPFIND', `${base}/entries/ent_home`, 'GET, HEAD, OPTIONS'],
      ['DELETE', `${base}/entries/by-path/about?locale=de`, 'GET, HEAD, OPTIONS'],
      ['GET', `${base}/forms/contact/submissions`, 'OPTIONS, POST'],
      ['PATCH', '/v1/spaces/spc_test/forms', 'GET, HEAD, OPTIONS, POST'],
      ['POST', '/healthz', 'GET, HEAD'],
    ])('%s %s → 405, Allow: %s', async (method, url, allow) => {
      const res = await send({ method: method as HTTPMethods, url, headers: pub });
      const error = expectEnvelope(res, 'method_not_allowed');
      expect(res.headers.allow).toBe(allow);
      expect(error.details).toEqual({ allow: allow.split(', ') });
    });

    it.each([
      ['GET', `${base}/nothing-here`],
      ['POST', `${base}/nothing/here`],
      ['GET', '/nothing'],
      ['DELETE', '/v1'],
    ])('%s %s → 404 not_found', async (method, url) => {
      const res = await send({ method: method as HTTPMethods, url, headers: pub });
      expectEnvelope(res, 'not_found');
      expect(res.headers.allow).toBeUndefined();
    });
  });

  describe('bodies nest at most 128 levels (400 invalid_body)', () => {
    const deep = nested(100_000);
    it.each([
      ['PUT', '/v1/spaces/spc_test/forms/deep', `{"key":"deep","name":"Deep","fields":${deep}}`],
      ['POST', '/v1/spaces/spc_test/forms', `{"key":"deep","name":"Deep","fields":${deep}}`],
      ['PATCH', '/v1/spaces/spc_test/entries/ent_about', `{"fields":${nested(10_000)}}`],
      ['PUT', '/v1/spaces/spc_test/menus/main', `{"items":${nested(10_000)}}`],
    ])('%s %s', async (method, url, payload) => {
      const res = await send({ method: method as HTTPMethods, url, headers: mgt, payload });
      const error = expectEnvelope(res, 'invalid_body');
      expect(error.message).toContain(`${MAX_JSON_DEPTH} levels`);
    });

    it('a form submission', async () => {
      const post = (payload: string) =>
        send({
          method: 'POST',
          url: `${base}/forms/typed/submissions`,
          headers: { ...pub, 'content-type': 'application/json' },
          payload,
        });
      const error = expectEnvelope(await post(`{"name":${nested(200)}}`), 'invalid_body');
      expect(error.message).toContain(`${MAX_JSON_DEPTH} levels`);
      // Deeper still, the submission parser's reviver gives up first: invalid_body all the same.
      expectEnvelope(await post(`{"name":${nested(20_000)}}`), 'invalid_body');
    });

    it('while rich text as deep as the content rules allow (50 nodes) is still saved', async () => {
      const res = await send({
        method: 'PATCH',
        url: '/v1/spaces/spc_test/entries/ent_about',
        headers: mgt,
        payload: { fields: { body: { en: deepDoc(50) } } },
      });
      expect(res.status, res.text.slice(0, 300)).toBe(200);
    });
  });

  describe('origins: Origin null (and, for posts, a Referer that is not a URL) is foreign (403 forbidden_origin)', () => {
    const read = (headers: Record<string, string>) => send({ url: `${base}/entries/ent_home`, headers });
    const post = (headers: Record<string, string>) =>
      send({
        method: 'POST',
        url: `${base}/forms/contact/submissions`,
        headers: { ...headers, 'content-type': 'application/json' },
        payload: {},
      });

    it.each([
      ['Origin: null', { origin: 'null' }],
      ['Origin: null beside an allowed Referer', { origin: 'null', referer: `${SITE_ORIGIN}/page` }],
    ])('%s: refused for an origin-restricted token, on reads and form posts', async (_name, headers) => {
      expectEnvelope(await read({ ...restricted, ...headers }), 'forbidden_origin');
      expectEnvelope(await post({ ...restricted, ...headers }), 'forbidden_origin');
    });

    it.each([
      ['an unparseable Referer', { referer: 'not a url' }],
      ['a Referer without an origin', { referer: 'data:text/html,hi' }],
      ['a foreign Referer', { referer: 'https://evil.example/page' }],
    ])(
      '%s: refused on form posts; reads are decided by Origin alone (what they vary on)',
      async (_n, headers) => {
        expectEnvelope(await post({ ...restricted, ...headers }), 'forbidden_origin');
        expect((await read({ ...restricted, ...headers })).status).toBe(200);
      },
    );

    it('the allowed origin passes; a token without origins serves any page, sandboxed ones too', async () => {
      expect((await read({ ...restricted, origin: SITE_ORIGIN })).status).toBe(200);
      expect((await read({ ...restricted, referer: `${SITE_ORIGIN}/a/page` })).status).toBe(200);
      expect((await post({ ...restricted, origin: SITE_ORIGIN })).status).toBe(200);
      const open = await read({ ...pub, origin: 'null' });
      expect([open.status, open.headers['access-control-allow-origin']]).toEqual([200, '*']);
    });
  });

  describe('token placement (spec 5)', () => {
    const url = `${base}/entries/ent_home`;
    it.each([
      ['a ?token= beside a different header token', `?token=${TOKENS.otherSpace}`, pub],
      ['a preview token in the URL', `?token=${TOKENS.preview}`, {}],
      [
        'a preview token in the URL, the same one in the header',
        `?token=${TOKENS.preview}`,
        { authorization: `Bearer ${TOKENS.preview}` },
      ],
      ['a preview token in the URL beside a public header token', `?token=${TOKENS.preview}`, pub],
      ['an unknown preview token in the URL', '?token=folio_prv_NotAToken0000000000000', {}],
    ])('%s → 401 unauthorized', async (_name, query, headers) => {
      expectEnvelope(await send({ url: url + query, headers }), 'unauthorized');
    });

    it('one public token, in the header, the URL, or both alike, is served', async () => {
      expect((await send({ url: `${url}?token=${TOKENS.public}` })).status).toBe(200);
      expect((await send({ url: `${url}?token=${TOKENS.public}`, headers: pub })).status).toBe(200);
      expect((await send({ url, headers: { authorization: `Bearer ${TOKENS.preview}` } })).status).toBe(200);
    });
  });

  describe('a JSON number is not text (field error invalid_type)', () => {
    it('refuses a number for a text field in JSON and stores nothing', async () => {
      const res = await submit('typed', { ...VALID_CONTACT, name: 42 });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.details.fields.name).toMatchObject({ code: 'invalid_type' });
      expect(await rows('typed')).toEqual([]);
    });

    it('takes the same digits from form data, where every value is text', async () => {
      for (const encoding of ['urlencoded', 'multipart'] as const) {
        const res = await submit('typed', { ...VALID_CONTACT, name: 42 }, { encoding });
        expect(res.status, res.text).toBe(200);
      }
      expect((await rows('typed')).map((r) => (r.values as { name: unknown }).name)).toEqual(['42', '42']);
    });
  });

  describe('HEAD is served from the response cache like GET', () => {
    const url = `${base}/entries/ent_post?locale=de`;
    it('a HEAD miss stores the whole GET response; hits and 304s carry the same ETag, without a body', async () => {
      const headMiss = await send({ method: 'HEAD', url, headers: pub });
      expect([headMiss.status, headMiss.headers['x-svc-cache'], headMiss.text]).toEqual([200, 'MISS', '']);
      const etag = headMiss.headers.etag;
      expect(etag).toMatch(/^"[\w-]{27}"$/);

      const get = await send({ url, headers: pub });
      expect([get.status, get.headers['x-svc-cache'], get.headers.etag]).toEqual([200, 'HIT-L1', etag]);
      expect(JSON.parse(get.text).entry.id).toBe('ent_post');
      expect(headMiss.headers['content-length']).toBe(String(Buffer.byteLength(get.text)));

      const headHit = await send({ method: 'HEAD', url, headers: pub });
      expect([headHit.status, headHit.headers['x-svc-cache'], headHit.headers.etag, headHit.text]).toEqual([
        200,
        'HIT-L1',
        etag,
        '',
      ]);
      expect(headHit.headers['content-length']).toBe(headMiss.headers['content-length']);

      const notModified = await send({
        method: 'HEAD',
        url,
        headers: { ...pub, 'if-none-match': String(etag) },
      });
      expect([notModified.status, notModified.headers['x-svc-cache'], notModified.text]).toEqual([
        304,
        'HIT-L1',
        '',
      ]);
      expect(notModified.headers.etag).toBe(etag);
    });

    it('a HEAD miss with a matching If-None-Match is a 304 already', async () => {
      const other = `${base}/entries/ent_about?locale=de`;
      const { headers } = await send({ url: other, headers: pub });
      t.app.folioEdge.cache.clearL1();
      const res = await send({
        method: 'HEAD',
        url: other,
        headers: { ...pub, 'if-none-match': String(headers.etag) },
      });
      expect([res.status, res.headers['x-svc-cache'], res.text]).toEqual([304, 'MISS', '']);
      const again = await send({ url: other, headers: pub });
      expect([again.headers['x-svc-cache'], again.headers.etag]).toEqual(['HIT-L1', headers.etag]);
      expect(JSON.parse(again.text).entry.id).toBe('ent_about');
    });
  });
});

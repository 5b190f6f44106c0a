// Fuzzing every route: generated query strings, path parameters, JSON, urlencoded, multipart and
// raw bodies, with and without tokens, and not one answer at or above 500; every error is the 7.1 envelope.
// `FOLIO_FUZZ_RUNS` inputs per engine (default 1,500 in the suite); `npm run fuzz` runs 50,000 per engine.
import type { HTTPMethods, InjectOptions } from 'fastify';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines.js';
import { type Answer, expectEnvelope } from './helpers/envelope.js';
import { TOKENS } from './helpers/fixture.js';
import { type FormsApp, openFormsApp } from './helpers/forms.js';
import { authFor, type Route, routesOf, urlOf } from './helpers/routes.js';

const RUNS = Number(process.env.FOLIO_FUZZ_RUNS ?? 1500);

/** Names the routes read, and names nothing reads: the parsers see both. */
const PARAM_NAMES = [
  'locale',
  'include',
  'fields',
  'cv',
  'draft',
  'release',
  'limit',
  'cursor',
  'sort',
  'type',
  'under',
  'depth',
  'types',
  'keys',
  'q',
  'since',
  'full',
  'token',
  'w',
  'h',
  'ar',
  'preset',
  'fm',
  'crop',
  'sig',
  'format',
  'status',
  'folder',
  'from',
  'to',
  'assignee',
  'expires',
  'signature',
  'filter[fields.rating][gte]',
  'filter[tags][in]',
  'filter[fields.title][eq]',
  'filter[name][x]',
  '__proto__',
  'constructor',
  'a[b][c]',
];
const ODD_VALUES = [
  '',
  '%ff',
  '%00',
  '-1',
  '0',
  '1e999',
  'NaN',
  '999999999999999999999',
  'null',
  'true',
  '__proto__',
  'de-ch',
  'en',
  'author,friend',
  '../../etc/passwd',
  '\u0000',
  '\uFFFF',
  'a'.repeat(3000),
];
const FIELD_KEYS = [
  'name',
  'email',
  'message',
  'note',
  'title',
  'fields',
  'items',
  'slug',
  '__proto__',
  'constructor',
];

const value = fc.oneof(
  fc.constantFrom(...ODD_VALUES),
  fc.string({ maxLength: 40 }),
  fc.integer().map(String),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);

/** A raw query string: pairs percent-encoded, or sometimes not at all. */
const queryString = fc
  .array(
    fc.tuple(fc.oneof(fc.constantFrom(...PARAM_NAMES), fc.string({ maxLength: 12 })), value, fc.boolean()),
    { maxLength: 6 },
  )
  .map((pairs) =>
    pairs
      .map(([k, v, raw]) => (raw ? `${k}=${v}` : `${encodeURIComponent(k)}=${encodeURIComponent(v)}`))
      .join('&'),
  );

const jsonObject = fc.dictionary(
  fc.oneof(fc.constantFrom(...FIELD_KEYS), fc.string({ maxLength: 10 })),
  fc.jsonValue({ maxDepth: 4 }),
  {
    maxKeys: 6,
  },
);

type Body = { payload?: string | Buffer; contentType?: string };

function multipartOf(fields: [string, string][], file: Uint8Array | null): Body {
  const boundary = 'fuzzBoundary';
  const parts = fields.map(
    ([k, v]) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${k.replace(/"/g, '')}"\r\n\r\n${v}\r\n`,
  );
  const head = Buffer.from(parts.join(''));
  const tail = file
    ? Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        ),
        Buffer.from(file),
        Buffer.from('\r\n'),
      ])
    : Buffer.alloc(0);
  return {
    payload: Buffer.concat([head, tail, Buffer.from(`--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

const body: fc.Arbitrary<Body> = fc.oneof(
  fc.constant({}),
  jsonObject.map((o) => ({ payload: JSON.stringify(o), contentType: 'application/json' })),
  fc.jsonValue({ maxDepth: 3 }).map((v) => ({ payload: JSON.stringify(v), contentType: 'application/json' })),
  fc
    .array(fc.tuple(fc.constantFrom(...FIELD_KEYS, 'cf-turnstile-response', '_redirect', 'field'), value), {
      maxLength: 5,
    })
    .map((pairs) => ({
      payload: new URLSearchParams(pairs).toString(),
      contentType: 'application/x-www-form-urlencoded',
    })),
  fc
    .tuple(
      fc.array(
        fc.tuple(fc.constantFrom(...FIELD_KEYS, 'field', 'alt', 'focal', 'cf-turnstile-response'), value),
        {
          maxLength: 4,
        },
      ),
      fc.option(fc.uint8Array({ maxLength: 512 })),
    )
    .map(([fields, file]) => multipartOf(fields, file)),
  fc
    .tuple(
      fc.uint8Array({ maxLength: 256 }),
      fc.constantFrom('application/json', 'text/plain', 'application/xml', 'multipart/form-data', ''),
    )
    .map(([bytes, contentType]) => ({ payload: Buffer.from(bytes), contentType })),
);

const token = fc.constantFrom<Record<string, string> | null>(
  null,
  {},
  { authorization: `Bearer ${TOKENS.public}` },
  { authorization: `Bearer ${TOKENS.preview}` },
  { authorization: `Bearer ${TOKENS.management}` },
  { authorization: 'Bearer folio_pub_Nope0000000000000000000' },
  { authorization: 'Basic Zm9vOmJhcg==' },
  { origin: 'null', authorization: `Bearer ${TOKENS.publicOrigins}` },
);

describe.each(ENGINES)('fuzzing every route on %s', (engine) => {
  let t: FormsApp;
  let routes: Route[] = [];
  beforeAll(async () => {
    t = await openFormsApp(engine, { rateLimitPerMinute: 100_000_000 });
    routes = routesOf(t.app).filter((r) => r.pattern !== '*');
  });
  afterAll(async () => t?.close());

  it(`${RUNS} generated requests: none answers 5xx, every error is the envelope`, async () => {
    const request = fc.record({
      route: fc.constantFrom(...routes),
      methodPick: fc.nat(),
      odd: fc.option(fc.tuple(fc.nat({ max: 3 }), value.map(encodeURIComponent))),
      query: queryString,
      body,
      token,
      accept: fc.constantFrom('*/*', 'image/avif,image/webp', 'application/json', 'text/html', ''),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const methods = r.route.methods.filter((m) => m !== 'OPTIONS');
        const method = (methods[r.methodPick % Math.max(1, methods.length)] ?? 'GET') as HTTPMethods;
        const path = urlOf(r.route.pattern, r.odd === null ? undefined : { at: r.odd[0], value: r.odd[1] });
        const url = r.query === '' ? path : `${path}?${r.query}`;
        const headers: Record<string, string> = { ...(r.token ?? authFor(path)), accept: r.accept };
        const opts: InjectOptions = { method, url, headers };
        if (method !== 'GET' && method !== 'HEAD' && r.body.payload !== undefined) {
          opts.payload = r.body.payload;
          if (r.body.contentType) headers['content-type'] = r.body.contentType;
        }
        const res = await t.app.inject(opts);
        const answer: Answer = { status: res.statusCode, headers: res.headers, text: res.body };
        const where = `${method} ${url} ${JSON.stringify(r.body).slice(0, 200)}`;
        expect(res.statusCode, `${where} → ${res.body.slice(0, 300)}`).toBeLessThan(500);
        // A browser's form post (urlencoded or multipart, Accept: text/html) gets the HTML page of spec 4.4.
        const htmlPage =
          r.route.pattern.endsWith('/submissions') &&
          String(res.headers['content-type']).startsWith('text/html');
        if (res.statusCode >= 400 && method !== 'HEAD' && !htmlPage) expectEnvelope(answer, undefined, where);
      }),
      { numRuns: RUNS, verbose: 1 },
    );
  }, 600_000);
});

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SPACE, type DemoApp, openDemoApp } from './helpers/demo-app.js';
import { TOKENS } from './helpers/fixture.js';

/**
 * Requests generated from the OpenAPI document, for every GET delivery operation, against the demo space: a
 * query string whose parameters all fit their schemas is never refused by the server's own parameter checks (no
 * 400, no 5xx), and one parameter outside its schema is always refused (4xx, never 5xx). What the schemas cannot
 * say is stated here: a cv ahead of the space's current one is 400 (its bound moves with the content), `cv` pins
 * published content so it does not go with `draft=1`, and parameters whose valid values depend on the space
 * (a type key, a locale, a release, a preset) are only generated outside their pattern.
 */

type Json = Record<string, unknown>;
interface Param {
  name: string;
  in: string;
  required?: boolean;
  schema?: Json;
}
interface Operation {
  path: string;
  /** A management read (`/v1/spaces/<spaceId>/…`, a management token), else a delivery read (a preview token). */
  management: boolean;
  parameters: Param[];
}

const RUNS = Number(process.env.FOLIO_OPENAPI_RUNS ?? 40);
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Values of path parameters in the demo space: by name, a `key` by what it names. */
const PATH_VALUES: Record<string, string> = {
  spaceId: DEMO_SPACE,
  id: 'ent_about',
  path: 'about',
  assetId: 'ast_hero',
  filename: 'alpine-lake-sunrise.jpg',
};
const KEYS: [RegExp, string][] = [
  [/\/globals\//, 'footer'],
  [/\/menus\//, 'main'],
  [/\/lists\//, 'countries'],
  [/\/forms\//, 'contact'],
];
/** A saved draft of a form: an id of none answers 404, which is all a query string can be checked against. */
const DRAFT_ID = /\/drafts\/\{id\}$/;

/** The operation's path with the demo's values, or null when one of its path parameters has none. */
function pathOf(op: { path: string }): string | null {
  let missing = false;
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const value =
      name === 'key'
        ? KEYS.find(([re]) => re.test(op.path))?.[1]
        : name === 'id' && DRAFT_ID.test(op.path)
          ? 'fdr_none'
          : PATH_VALUES[name];
    if (value === undefined) missing = true;
    return value ?? '';
  });
  return missing ? null : path;
}

/** Query parameters an operation needs, with a value that passes (search needs its text). */
const REQUIRED: Record<string, Record<string, string>> = { '/v1/{spaceId}/search': { q: 'folio' } };

/** A schema that alone decides whether a value passes (bounds or a closed list), so valid values can be drawn. */
const closed = (s: Json): boolean => Array.isArray(s.enum) || s.type === 'integer';
/** A schema that says something a value can break. */
const constrained = (s: Json): boolean =>
  closed(s) ||
  typeof s.pattern === 'string' ||
  typeof s.minLength === 'number' ||
  typeof s.maxLength === 'number';

function valid(name: string, s: Json, cv: number): fc.Arbitrary<string> {
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum.map(String));
  const min = typeof s.minimum === 'number' ? s.minimum : 0;
  const max = name === 'cv' || name === 'since' ? cv : typeof s.maximum === 'number' ? s.maximum : 1e6;
  return fc.integer({ min, max }).map(String);
}

/** Values outside the schema: out of bounds, not a whole number, not in the list, not matching, empty. */
function invalid(s: Json): fc.Arbitrary<string> {
  const tries: fc.Arbitrary<string>[] = [];
  if (s.type === 'integer') {
    if (typeof s.minimum === 'number') tries.push(fc.constant(String(s.minimum - 1)));
    if (typeof s.maximum === 'number') tries.push(fc.constant(String(s.maximum + 1)));
    tries.push(fc.constantFrom('', '1.5', 'x', '-', '1e3', ' 1'));
  }
  if (Array.isArray(s.enum)) {
    const members = s.enum.map(String);
    tries.push(fc.string().filter((v) => !members.includes(v)));
  }
  if (typeof s.pattern === 'string') {
    const re = new RegExp(s.pattern, 'u');
    tries.push(fc.string().filter((v) => !re.test(v)));
  }
  if (typeof s.minLength === 'number' && s.minLength > 0) tries.push(fc.constant(''));
  if (typeof s.maxLength === 'number') tries.push(fc.constant('x'.repeat(s.maxLength + 1)));
  return fc.oneof(...tries);
}

/** With FOLIO_OPENAPI_SHOW=1, how often each operation answered each status (to see what a run reached). */
function show(seen: string[]): void {
  if (process.env.FOLIO_OPENAPI_SHOW !== '1') return;
  const counts = new Map<string, number>();
  for (const s of seen) counts.set(s, (counts.get(s) ?? 0) + 1);
  console.log([...counts].map(([k, n]) => `${k} ×${n}`).join('\n'));
}

function queryString(values: Record<string, string>): string {
  const parts = Object.entries(values).map(([k, v]) => `${k}=${encodeURIComponent(v)}`);
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

describe('requests generated from the OpenAPI document (GET delivery reads, images, management reads)', () => {
  let demo: DemoApp;
  let operations: Operation[];
  let cv: number;

  beforeAll(async () => {
    demo = await openDemoApp('sqlite', {
      tokens: [{ kind: 'preview', value: TOKENS.preview }],
      // Every drawn image size is a new variant: no per-visitor or per-asset cap in the way.
      config: { images: { cacheMaxBytes: 1 << 30, variantsPerAsset: 100_000, derivationsPerMinute: 0 } },
    });
    const doc: unknown = (await demo.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const paths = isObj(doc) && isObj(doc.paths) ? doc.paths : {};
    operations = Object.entries(paths).flatMap(([path, item]) => {
      const get = isObj(item) && isObj(item.get) ? item.get : undefined;
      const tags = Array.isArray(get?.tags) ? get.tags : [];
      // Delivery reads and the asset files (derived images) under /v1/<spaceId>; the management API's reads.
      const read =
        (tags.includes('delivery') || tags.includes('assets')) && path.startsWith('/v1/{spaceId}/');
      const management = path.startsWith('/v1/spaces/{spaceId}/');
      if (get === undefined || !(read || management)) return [];
      const parameters = (Array.isArray(get.parameters) ? get.parameters : [])
        .filter(isObj)
        .map((p): Param => ({
          name: String(p.name),
          in: String(p.in),
          required: p.required === true,
          ...(isObj(p.schema) ? { schema: p.schema } : {}),
        }));
      const op = { path, management, parameters };
      // A management read of something the demo has no id for (a submission, a file) is left out.
      return management && pathOf(op) === null ? [] : [op];
    });
    const status: unknown = (await demo.get('/status')).body;
    cv = isObj(status) && typeof status.cv === 'number' ? status.cv : 1;
  });
  afterAll(async () => {
    await demo.close();
  });

  const urlOf = (op: Operation, query: Record<string, string>): string => {
    const path = pathOf(op);
    if (path === null) throw new Error(`no values for the path parameters of ${op.path}`);
    return `${path}${queryString({ ...REQUIRED[op.path], ...query })}`;
  };
  const send = (op: Operation, url: string) =>
    demo.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${op.management ? TOKENS.management : TOKENS.preview}` },
    });

  it('covers every GET delivery operation and the management reads of the demo', () => {
    expect(operations.filter((op) => !op.management).length).toBeGreaterThanOrEqual(18);
    expect(operations.filter((op) => op.management).length).toBeGreaterThanOrEqual(10);
  });

  it('an operation that answers without credentials says so (`{}` in its security)', async () => {
    // Signing out of the inbox without a session ends nothing and answers 200.
    const res = await demo.app.inject({ method: 'DELETE', url: '/inbox/session' });
    expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 200, body: { signedOut: false } });
    const doc: unknown = (await demo.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const op =
      isObj(doc) && isObj(doc.paths) && isObj(doc.paths['/inbox/session']) ? doc.paths['/inbox/session'] : {};
    const security = isObj(op.delete) && Array.isArray(op.delete.security) ? op.delete.security : [];
    expect(security).toContainEqual({});
  });

  it('schema-valid query strings pass the parameter checks', async () => {
    const seen: string[] = [];
    for (const op of operations) {
      const params = op.parameters.filter(
        (p) => p.in === 'query' && p.schema !== undefined && closed(p.schema),
      );
      const record = Object.fromEntries(
        params.map((p) => [p.name, fc.option(valid(p.name, p.schema ?? {}, cv), { nil: undefined })]),
      );
      await fc.assert(
        fc.asyncProperty(fc.record(record), async (drawn) => {
          const query: Record<string, string> = {};
          for (const [k, v] of Object.entries(drawn)) if (v !== undefined) query[k] = v;
          // cv pins published content: a preview of drafts cannot be pinned (docs/api.md "Common parameters").
          if (query.draft === '1' || query.draft === 'true') delete query.cv;
          if (query.since !== undefined && query.cv !== undefined && +query.since > +query.cv)
            [query.since, query.cv] = [query.cv, query.since];
          const url = urlOf(op, query);
          const res = await send(op, url);
          seen.push(`${op.path} ${res.statusCode}`);
          expect({
            url,
            status: res.statusCode,
            body: res.statusCode === 400 || res.statusCode >= 500 ? res.body : '',
          }).toMatchObject({ url, body: '' });
        }),
        { numRuns: RUNS },
      );
    }
    show(seen);
  });

  it('a parameter outside its schema is refused with a 4xx, never a 5xx', async () => {
    const seen: string[] = [];
    for (const op of operations) {
      const params = op.parameters.filter(
        (p) => p.in === 'query' && p.schema !== undefined && constrained(p.schema),
      );
      if (params.length === 0) continue;
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...params).chain((p) => invalid(p.schema ?? {}).map((v) => ({ [p.name]: v }))),
          async (query) => {
            const url = urlOf(op, query);
            const res = await send(op, url);
            seen.push(`${op.path} ${res.statusCode}`);
            expect({
              url,
              status: res.statusCode >= 400 && res.statusCode < 500 ? '4xx' : res.statusCode,
            }).toEqual({ url, status: '4xx' });
          },
        ),
        { numRuns: RUNS },
      );
    }
    show(seen);
  });
});

// The OpenAPI 3.1 document generated from the route schemas (GET /v1/openapi.json). It must
// validate, and name every route with a summary, tags, a success answer and described path parameters; answers
// of the real app must match what it documents.

import AjvCompiler from '@fastify/ajv-compiler';
import { Validator } from '@seriousme/openapi-schema-validator';
import Fastify, { type FastifyInstance, type InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOpenApi } from '../src/server/openapi.js';
import { openTestApp, type TestApp } from './helpers/app.js';
import { TOKENS } from './helpers/fixture.js';
import { routesOf } from './helpers/routes.js';

type Json = Record<string, unknown>;
interface Operation {
  summary?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: { in: string; name: string; description?: string }[];
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Json }> }>;
}
type Doc = {
  tags?: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
};

/** Where the route `pattern` is in the document: `:name` is `{name}`, the by-path wildcard `{path}`. */
function docPaths(pattern: string): string[] {
  // printRoutes joins parameters of different routes at one position (`:id|:submissionId`): try each name.
  let paths = [''];
  for (const part of pattern.split('/').slice(1)) {
    const names = part.startsWith(':')
      ? part.split('|').map((p) => `{${p.slice(1)}}`)
      : [part === '*' ? '{path}' : part];
    paths = paths.flatMap((p) => names.map((n) => `${p}/${n}`));
  }
  return paths;
}

const isEnvelope = (schema: Json | undefined): boolean =>
  schema?.$ref === '#/components/schemas/FolioError' ||
  (Array.isArray(schema?.allOf) && (schema.allOf as Json[]).some((s) => isEnvelope(s)));

/** Error statuses whose body is not the envelope: readiness answers its checks. */
const NOT_ENVELOPES = ['GET /readyz 503'];

/** What is missing from the document for the app's routes (HEAD and OPTIONS twins aside). */
function documentationProblems(app: FastifyInstance, doc: Doc): string[] {
  const problems: string[] = [];
  const tags = new Set((doc.tags ?? []).map((t) => t.name));
  for (const route of routesOf(app)) {
    for (const method of route.methods.filter((m) => m !== 'HEAD' && m !== 'OPTIONS')) {
      const where = `${method} ${route.pattern}`;
      const found = docPaths(route.pattern)
        .map((path) => ({ path, op: doc.paths[path]?.[method.toLowerCase()] }))
        .find((c) => c.op !== undefined);
      if (found?.op === undefined) {
        problems.push(`${where}: not in the document`);
        continue;
      }
      const { path, op } = found;
      if (!op.summary) problems.push(`${where}: no summary`);
      if (!op.tags?.length) problems.push(`${where}: no tags`);
      for (const tag of op.tags ?? [])
        if (!tags.has(tag)) problems.push(`${where}: tag "${tag}" is not declared`);
      if (!Array.isArray(op.security)) problems.push(`${where}: no security (an empty list for none)`);
      const responses = Object.entries(op.responses ?? {});
      if (!responses.some(([status]) => /^[23]\d\d$/.test(status)))
        problems.push(`${where}: no success response`);
      for (const [status, r] of responses) {
        if (!r.description || r.description === 'Default Response')
          problems.push(`${where}: response ${status} is not described`);
        if (
          /^[45]/.test(status) &&
          !NOT_ENVELOPES.includes(`${where} ${status}`) &&
          !isEnvelope(r.content?.['application/json']?.schema)
        )
          problems.push(`${where}: response ${status} is not the error envelope`);
      }
      // A route that takes a token can at least refuse it.
      if (op.security?.length && !responses.some(([status]) => /^4/.test(status)))
        problems.push(`${where}: no error responses`);
      for (const name of path.match(/\{([^}]+)\}/g) ?? []) {
        const param = op.parameters?.find((p) => p.in === 'path' && `{${p.name}}` === name);
        // Parameters @fastify/swagger makes up for a route without `params` have no description.
        if (!param?.description) problems.push(`${where}: path parameter ${name} is not described`);
      }
    }
  }
  return problems;
}

describe('GET /v1/openapi.json', () => {
  let t: TestApp;
  let doc: Doc;
  beforeAll(async () => {
    t = await openTestApp('sqlite');
    const res = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });
  afterAll(async () => t.close());

  it('is served without a token, as JSON cached by clients for five minutes', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(doc).toMatchObject({
      openapi: '3.1.0',
      info: { title: 'Folio' },
      servers: [{ url: 'http://folio.test' }],
    });
  });

  it('validates as an OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Json);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('documents every route: summary, tags, security, success and error answers, path parameters', () => {
    expect(documentationProblems(t.app, doc)).toEqual([]);
    expect(Object.keys(doc.paths).length).toBeGreaterThan(40);
  });

  it('the check names a route added without a schema', async () => {
    const app = Fastify();
    await registerOpenApi(app, t.config);
    app.get('/v1/:spaceId/undocumented', async () => ({}));
    await app.ready();
    try {
      expect(documentationProblems(app, app.swagger() as unknown as Doc)).toEqual([
        'GET /v1/:spaceId/undocumented: no summary',
        'GET /v1/:spaceId/undocumented: no tags',
        'GET /v1/:spaceId/undocumented: no security (an empty list for none)',
        'GET /v1/:spaceId/undocumented: response 200 is not described',
        'GET /v1/:spaceId/undocumented: path parameter {spaceId} is not described',
      ]);
    } finally {
      await app.close();
    }
  });

  it('real answers match the schemas the document gives for them', async () => {
    const validator = new Validator();
    await validator.validate(doc as unknown as Json);
    const resolved = validator.resolveRefs() as unknown as Doc;
    // The schemas only describe (replies are serialized as built): check them here, as sent, without coercion.
    const compile = AjvCompiler()(
      {},
      {
        customOptions: {
          strict: false,
          coerceTypes: false,
          removeAdditional: false,
          useDefaults: false,
          allErrors: true,
        },
      },
    );
    const mismatches: string[] = [];
    for (const c of SAMPLES) {
      const res = await t.app.inject(c.opts);
      const where = `${c.opts.method ?? 'GET'} ${c.opts.url} → ${res.statusCode}`;
      if (res.statusCode !== c.status) {
        mismatches.push(`${where}: expected ${c.status} ${res.body.slice(0, 200)}`);
        continue;
      }
      const op = resolved.paths[c.path]?.[(c.opts.method ?? 'GET').toLowerCase()];
      const schema = op?.responses?.[String(c.status)]?.content?.['application/json']?.schema;
      if (schema === undefined) {
        mismatches.push(`${where}: no JSON schema for ${c.status} at ${c.path}`);
        continue;
      }
      const validate = compile({ schema, method: 'GET', url: c.path, httpPart: 'body' });
      if (!validate(res.json()))
        mismatches.push(`${where}: ${JSON.stringify(validate.errors).slice(0, 600)}`);
    }
    expect(mismatches).toEqual([]);
  });
});

const pub = { authorization: `Bearer ${TOKENS.public}` };
const mgt = { authorization: `Bearer ${TOKENS.management}` };
const d = '/v1/spc_test';
const m = '/v1/spaces/spc_test';
const D = '/v1/{spaceId}';
const M = '/v1/spaces/{spaceId}';

/** Requests whose answers are checked against the document: `path` is the document's path, in order (writes). */
const SAMPLES: { opts: InjectOptions; path: string; status: number }[] = [
  // Delivery reads, and their errors.
  { opts: { url: `${d}/status`, headers: pub }, path: `${D}/status`, status: 200 },
  { opts: { url: `${d}/entries/by-path/`, headers: pub }, path: `${D}/entries/by-path`, status: 200 },
  {
    opts: { url: `${d}/entries/by-path/about?locale=en`, headers: pub },
    path: `${D}/entries/by-path/{path}`,
    status: 200,
  },
  {
    opts: { url: `${d}/entries/by-path/old`, headers: pub },
    path: `${D}/entries/by-path/{path}`,
    status: 404,
  },
  {
    opts: { url: `${d}/entries/ent_home?include=author,related`, headers: pub },
    path: `${D}/entries/{id}`,
    status: 200,
  },
  { opts: { url: `${d}/entries/ent_home?draft=1`, headers: pub }, path: `${D}/entries/{id}`, status: 403 },
  { opts: { url: `${d}/entries/ent_home?bogus=1`, headers: pub }, path: `${D}/entries/{id}`, status: 400 },
  { opts: { url: `${d}/entries/ent_home` }, path: `${D}/entries/{id}`, status: 401 },
  { opts: { url: `${d}/entries/ent_home?cv=999999`, headers: pub }, path: `${D}/entries/{id}`, status: 400 },
  { opts: { url: `${d}/globals/footer`, headers: pub }, path: `${D}/globals/{key}`, status: 200 },
  { opts: { url: `${d}/globals`, headers: pub }, path: `${D}/globals`, status: 200 },
  { opts: { url: `${d}/entries?limit=2&include=author`, headers: pub }, path: `${D}/entries`, status: 200 },
  {
    opts: { url: `${d}/entries?filter[fields.nope][eq]=1`, headers: pub },
    path: `${D}/entries`,
    status: 400,
  },
  { opts: { url: `${d}/tree?depth=3`, headers: pub }, path: `${D}/tree`, status: 200 },
  { opts: { url: `${d}/sitemap`, headers: pub }, path: `${D}/sitemap`, status: 200 },
  { opts: { url: `${d}/lists/colors?locale=de`, headers: pub }, path: `${D}/lists/{key}`, status: 200 },
  { opts: { url: `${d}/menus/main`, headers: pub }, path: `${D}/menus/{key}`, status: 200 },
  { opts: { url: `${d}/menus`, headers: pub }, path: `${D}/menus`, status: 200 },
  { opts: { url: `${d}/redirects`, headers: pub }, path: `${D}/redirects`, status: 200 },
  { opts: { url: `${d}/forms/contact`, headers: pub }, path: `${D}/forms/{key}`, status: 200 },
  { opts: { url: `${d}/sync`, headers: pub }, path: `${D}/sync`, status: 200 },
  { opts: { url: `${d}/sync?full=1&limit=2`, headers: pub }, path: `${D}/sync`, status: 200 },
  { opts: { url: `${d}/search?q=welcome`, headers: pub }, path: `${D}/search`, status: 404 },
  {
    opts: { method: 'POST', url: `${d}/forms/contact/submissions`, headers: pub, payload: {} },
    path: `${D}/forms/{key}/submissions`,
    status: 200,
  },
  // The management API: reads, writes in order, and a refused body.
  { opts: { url: `${m}/entries`, headers: mgt }, path: `${M}/entries`, status: 200 },
  { opts: { url: `${m}/entries/ent_about`, headers: mgt }, path: `${M}/entries/{id}`, status: 200 },
  {
    opts: {
      method: 'POST',
      url: `${m}/entries`,
      headers: mgt,
      payload: { type: 'page', name: 'New', slug: 'new', x: 1 },
    },
    path: `${M}/entries`,
    status: 400,
  },
  {
    opts: {
      method: 'POST',
      url: `${m}/entries`,
      headers: mgt,
      payload: { id: 'ent_new', type: 'page', name: 'New', slug: 'new' },
    },
    path: `${M}/entries`,
    status: 201,
  },
  {
    opts: { method: 'POST', url: `${m}/entries/ent_new/publish`, headers: mgt },
    path: `${M}/entries/{id}/publish`,
    status: 200,
  },
  {
    opts: { method: 'POST', url: `${m}/entries/ent_new/rename`, headers: mgt, payload: { slug: 'newer' } },
    path: `${M}/entries/{id}/rename`,
    status: 200,
  },
  {
    opts: { method: 'DELETE', url: `${m}/entries/ent_new`, headers: mgt },
    path: `${M}/entries/{id}`,
    status: 200,
  },
  { opts: { url: `${m}/menus`, headers: mgt }, path: `${M}/menus`, status: 200 },
  {
    opts: { method: 'PUT', url: `${m}/menus/main`, headers: mgt, payload: { name: 'Main', items: [] } },
    path: `${M}/menus/{key}`,
    status: 200,
  },
  { opts: { url: `${m}/redirects`, headers: mgt }, path: `${M}/redirects`, status: 200 },
  {
    opts: { method: 'POST', url: `${m}/redirects`, headers: mgt, payload: { from: '/gone', to: null } },
    path: `${M}/redirects`,
    status: 201,
  },
  { opts: { url: `${m}/lists/colors`, headers: mgt }, path: `${M}/lists/{key}`, status: 200 },
  { opts: { url: `${m}/releases/rel_next`, headers: mgt }, path: `${M}/releases/{id}`, status: 200 },
  { opts: { url: `${m}/webhooks`, headers: mgt }, path: `${M}/webhooks`, status: 200 },
  { opts: { url: `${m}/tokens`, headers: mgt }, path: `${M}/tokens`, status: 200 },
  {
    opts: { method: 'POST', url: `${m}/tokens`, headers: mgt, payload: { kind: 'public', name: 'Site' } },
    path: `${M}/tokens`,
    status: 201,
  },
  { opts: { url: `${m}/activity`, headers: mgt }, path: `${M}/activity`, status: 200 },
  { opts: { url: `${m}/assets/ast_pic`, headers: mgt }, path: `${M}/assets/{id}`, status: 200 },
  { opts: { url: `${m}/forms`, headers: mgt }, path: `${M}/forms`, status: 200 },
  { opts: { url: `${m}/forms/contact`, headers: mgt }, path: `${M}/forms/{key}`, status: 200 },
  {
    opts: { url: `${m}/forms/contact/submissions`, headers: mgt },
    path: `${M}/forms/{key}/submissions`,
    status: 200,
  },
  {
    opts: {
      method: 'POST',
      url: `${m}/forms/erase`,
      headers: mgt,
      payload: { email: 'a@example.com', dryRun: true },
    },
    path: `${M}/forms/erase`,
    status: 200,
  },
  { opts: { url: `${m}/entries` }, path: `${M}/entries`, status: 401 },
  // Outside /v1.
  { opts: { url: '/healthz' }, path: '/healthz', status: 200 },
  { opts: { url: '/readyz' }, path: '/readyz', status: 200 },
];

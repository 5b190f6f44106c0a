import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from './helpers/app.js';

// The OpenAPI document is a contract tools can use. An independent linter (Redocly's
// `recommended` ruleset, @redocly/openapi-core) finds no error in it; and the additions tools rely on are there:
// an operationId on every operation, constrained and exemplified shared parameters, 405 with Allow, 429 with
// Retry-After and RateLimit-*, links between operations.

interface Operation {
  operationId?: string;
  parameters?: { name: string; in: string; schema?: Record<string, unknown>; example?: unknown }[];
  responses: Record<
    string,
    { headers?: Record<string, unknown>; links?: Record<string, { operationId: string }> }
  >;
}

describe('the OpenAPI document as a contract', () => {
  let t: TestApp;
  let doc: { paths: Record<string, Record<string, Operation>> };
  beforeAll(async () => {
    t = await openTestApp('sqlite');
    doc = (await t.get('/v1/openapi.json')).body;
  });
  afterAll(async () => t.close());

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ path, method, op })),
    );

  it("passes Redocly's recommended ruleset without an error", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({
      source: JSON.stringify(doc),
      absoluteRef: 'openapi.json',
      config,
    });
    const errors = problems
      .filter((p) => p.severity === 'error')
      .map((p) => `${p.ruleId}: ${p.message} at ${p.location.map((l) => l.pointer).join(', ')}`);
    expect(errors).toEqual([]);
  });

  it('names every operation uniquely and constrains the shared parameters', () => {
    const ids = operations().map(({ op }) => op.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/v1/{spaceId}/entries/by-path/{path}']?.get?.operationId).toBe(
      'getEntriesByPathByPath',
    );
    for (const { op } of operations())
      for (const p of op.parameters ?? []) {
        if (p.name === 'spaceId') expect(p.schema?.pattern).toBe('^spc_[A-Za-z0-9_]+$');
        if (p.name === 'cv') expect(p.schema).toMatchObject({ type: 'integer', minimum: 1 });
        if (p.name === 'locale') expect(typeof p.example).toBe('string');
      }
  });

  it('documents 405 with Allow on every operation, the rate-limit headers on every 429, and links', () => {
    for (const { op } of operations()) {
      expect(op.responses['405']?.headers).toHaveProperty('Allow');
      const limited = op.responses['429'];
      if (limited)
        for (const h of ['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'])
          expect(limited.headers).toHaveProperty(h);
    }
    const ids = new Set(operations().map(({ op }) => op.operationId));
    const links = operations().flatMap(({ op }) => Object.values(op.responses['200']?.links ?? {}));
    expect(links.length).toBeGreaterThan(5);
    for (const link of links) expect(ids.has(link.operationId)).toBe(true);
  });

  it('answers a method a path does not serve with the 405 it documents', async () => {
    const r = await t.app.inject({ method: 'DELETE', url: '/v1/spc_test/entries' });
    expect(r.statusCode).toBe(405);
    expect(r.headers.allow).toContain('GET');
  });
});

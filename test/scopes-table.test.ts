// docs/api.md lists the scopes every management operation needs, routing included, and cannot go stale:
// this compares its table with the rules the app registered (src/auth/route-scopes.ts) both ways, and checks that
// every management route the router serves has a rule.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeScopes } from '../src/auth/route-scopes.js';
import { openTestApp, type TestApp } from './helpers/app.js';
import { routesOf } from './helpers/routes.js';

const API_MD = join(import.meta.dirname, '..', 'docs', 'api.md');

/** The rows of the table under `### Scopes by route`: method, path as written (`<param>`), scopes cell. */
function documentedRows(): string[] {
  const text = readFileSync(API_MD, 'utf8');
  const start = text.indexOf('### Scopes by route');
  expect(start, 'docs/api.md has a "### Scopes by route" section').toBeGreaterThan(-1);
  // The first table after the heading: from its header row to the first line that is not a row.
  const lines = text.slice(start).split('\n');
  const first = lines.findIndex((l) => l.startsWith('| method'));
  const end = lines.findIndex((l, i) => i > first && !l.startsWith('|'));
  const rows: string[] = [];
  for (const line of lines.slice(first + 2, end)) {
    const m = /^\| (GET|POST|PUT|PATCH|DELETE) +\| `([^`]+)` +\| (.+?) +\|$/.exec(line);
    expect(m, `a row of method, path and scopes: ${line}`).not.toBeNull();
    if (m) rows.push(`${m[1]} ${m[2]} → ${m[3]}`);
  }
  return rows;
}

const asDocumented = (url: string): string => url.replace(/:(\w+)/g, '<$1>');

describe('docs/api.md "Scopes by route"', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp('sqlite');
    await t.app.ready();
  });
  afterAll(async () => t.close());

  it('lists every registered management route with its rule, and nothing else', () => {
    const registered = t.app.scopeTable.map(
      (e) => `${e.method} ${asDocumented(e.url)} → ${describeScopes(e.rule)}`,
    );
    const documented = documentedRows();
    expect(documented.length).toBeGreaterThan(40);
    // Both ways, as sets: a route the table lacks, or a row no route has (or a rule that changed), fails.
    expect([...documented].sort()).toEqual([...registered].sort());
    expect(new Set(documented).size).toBe(documented.length);
  });

  it('every route under /v1/spaces/ the router serves has a rule (none is left unchecked)', () => {
    // The router's tree names a parameter by every name routes gave it there (`:id|:submissionId`): compare shapes.
    const shape = (url: string) => url.replace(/:[^/]+/g, ':');
    const ruled = new Set(t.app.scopeTable.map((e) => `${e.method} ${shape(e.url)}`));
    const served = routesOf(t.app)
      .filter((r) => r.pattern.startsWith('/v1/spaces/'))
      .flatMap((r) =>
        r.methods.filter((m) => m !== 'HEAD' && m !== 'OPTIONS').map((m) => `${m} ${shape(r.pattern)}`),
      );
    expect(served.length).toBeGreaterThan(40);
    expect(served.filter((s) => !ruled.has(s))).toEqual([]);
  });

  it('names routing in the rules of the operations that route answers', () => {
    const rule = (method: string, url: string) =>
      t.app.scopeTable.find((e) => e.method === method && e.url === url)?.rule;
    for (const [method, url] of [
      ['POST', '/v1/spaces/:spaceId/forms'],
      ['PUT', '/v1/spaces/:spaceId/forms/:key'],
      ['POST', '/v1/spaces/:spaceId/webhooks'],
      ['PATCH', '/v1/spaces/:spaceId/webhooks/:id'],
    ] as const)
      expect(
        rule(method, url)?.also?.map((a) => a.scopes),
        `${method} ${url}`,
      ).toEqual([['forms.read']]);
  });
});

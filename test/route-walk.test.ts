// Every route, sent the bad requests a client can make, answers below 500 and in the 7.1 envelope.

import type { HTTPMethods, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines.js';
import { type Answer, expectEnvelope } from './helpers/envelope.js';
import { openFormsApp, type FormsApp } from './helpers/forms.js';
import { authFor, paramCount, type Route, routesOf, urlOf } from './helpers/routes.js';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const deep = '['.repeat(5000) + ']'.repeat(5000);

/** The client-caused bad requests every route is sent (method chosen from those the route serves). */
function badRequests(route: Route): { name: string; opts: InjectOptions }[] {
  const url = urlOf(route.pattern);
  const headers = authFor(url);
  const served = route.methods.filter((m) => m !== 'HEAD' && m !== 'OPTIONS');
  const method = (served[0] ?? 'GET') as HTTPMethods;
  const out: { name: string; opts: InjectOptions }[] = [
    { name: 'garbage query', opts: { method, url: `${url}?%zz=1&a[b]=c&locale=%00&limit=-1e999`, headers } },
    { name: 'a huge header', opts: { method, url, headers: { ...headers, 'x-big': 'a'.repeat(20_000) } } },
    { name: 'no token at all', opts: { method, url } },
  ];
  // PostgreSQL refuses NUL in text; a NUL in any parameter must be answered before a query sees it.
  for (let at = 0; at < paramCount(route.pattern); at++) {
    const odd = urlOf(route.pattern, { at, value: 'a%00b' });
    out.push({ name: `a NUL in parameter ${at}`, opts: { method, url: odd, headers: authFor(odd) } });
  }
  for (const m of served.filter((s) => BODY_METHODS.has(s))) {
    const as = m as HTTPMethods;
    const json = { ...headers, 'content-type': 'application/json' };
    out.push(
      { name: `${m}: bad JSON`, opts: { method: as, url, headers: json, payload: '{"a":' } },
      {
        name: `${m}: JSON that is not an object`,
        opts: { method: as, url, headers: json, payload: '[1,"x",null]' },
      },
      { name: `${m}: deep JSON`, opts: { method: as, url, headers: json, payload: `{"a":${deep}}` } },
      {
        name: `${m}: wrong content type`,
        opts: { method: as, url, headers: { ...headers, 'content-type': 'text/plain' }, payload: 'hello' },
      },
      {
        name: `${m}: a lying content length`,
        opts: { method: as, url, headers: { ...json, 'content-length': '5' }, payload: '{"a":1}' },
      },
    );
  }
  return out;
}

describe.each(ENGINES)('every route answers bad requests below 500, in the envelope, on %s', (engine) => {
  let t: FormsApp;
  let routes: Route[] = [];
  beforeAll(async () => {
    t = await openFormsApp(engine);
    routes = routesOf(t.app).filter((r) => r.pattern !== '*');
  });
  afterAll(async () => t.close());

  const answer = async (opts: InjectOptions): Promise<Answer> => {
    const res = await t.app.inject(opts);
    return { status: res.statusCode, headers: res.headers, text: res.body };
  };

  it('finds the routes of every domain', () => {
    const patterns = routes.map((r) => r.pattern);
    for (const known of [
      '/healthz',
      '/v1/:spaceId/entries/:id',
      '/v1/:spaceId/forms/:key/submissions',
      '/v1/spaces/:spaceId/forms/:key',
      '/v1/spaces/:spaceId/entries/:id/publish',
    ])
      expect(patterns).toContain(known);
    expect(routes.length).toBeGreaterThan(40);
  });

  it('a method the path does not serve is 405 with Allow listing the methods it does', async () => {
    for (const route of routes) {
      const url = urlOf(route.pattern);
      // A method no route serves at this URL (`PATCH …/submissions/bulk` is the `…/submissions/:id` route's).
      const method = ['PATCH', 'PUT', 'DELETE', 'POST', 'GET', 'QUERY'].find(
        (m) => t.app.findRoute({ method: m, url }) === null,
      );
      if (method === undefined) continue;
      const res = await answer({ method: method as HTTPMethods, url, headers: authFor(url) });
      expectEnvelope(res, 'method_not_allowed', `${method} ${url}`);
      const allow = String(res.headers.allow).split(', ');
      for (const m of route.methods) expect(allow, `${method} ${url}`).toContain(m);
    }
  });

  it('garbage queries, bad bodies, huge headers and odd paths never answer 5xx, and every error is the envelope', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      for (const { name, opts } of badRequests(route)) {
        const res = await answer(opts);
        const where = `${opts.method} ${route.pattern} (${name})`;
        if (res.status >= 500) failures.push(`${where} → ${res.status} ${res.text.slice(0, 200)}`);
        else if (res.status >= 400) expectEnvelope(res, undefined, where);
      }
    }
    expect(failures).toEqual([]);
  });
});

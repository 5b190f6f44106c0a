// The app's routes for tests that walk all of them (route walk, fuzzing): parsed from Fastify's own route tree.

import type { FastifyInstance } from 'fastify';
import { TOKENS } from './fixture.js';

export interface Route {
  pattern: string;
  methods: string[];
}

/**
 * Every route of the app, from `printRoutes({ commonPrefix: false })`: one line per node, four columns of tree
 * drawing per level, a child's text continuing its parent's path, its methods in parentheses.
 */
export function routesOf(app: FastifyInstance): Route[] {
  const routes: Route[] = [];
  const paths: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = (m[1] ?? '').length / 4;
    const parent = paths[depth - 1] ?? '';
    // A wildcard child prints as `*` under `/by-path`: the slash between them is not shown.
    const path = parent + (m[2] === '*' && parent !== '' && !parent.endsWith('/') ? '/*' : (m[2] ?? ''));
    paths.length = depth;
    paths.push(path);
    if (m[3]) routes.push({ pattern: path, methods: m[3].split(', ') });
  }
  return routes;
}

/**
 * A URL for a pattern: the fixture's space, form and entry where the names say so, `x1` elsewhere; with `odd`,
 * the parameter at that position (0 = the first) gets that value instead.
 */
export function urlOf(pattern: string, odd?: { at: number; value: string }): string {
  const values: Record<string, string> = { spaceId: 'spc_test', key: 'contact', id: 'ent_home' };
  let at = 0;
  return pattern.replace(/:(\w+)(?:\|:\w+)*|\*$/g, (_m, name: string | undefined) =>
    odd?.at === at++ ? odd.value : (values[name ?? ''] ?? 'x1'),
  );
}

export const paramCount = (pattern: string): number => (pattern.match(/:\w+(?:\|:\w+)*|\*$/g) ?? []).length;

/** Management routes get a management token, delivery routes a public one: the bad part is then the request. */
export function authFor(url: string): Record<string, string> {
  if (url.startsWith('/v1/spaces/')) return { authorization: `Bearer ${TOKENS.management}` };
  if (url.startsWith('/v1/')) return { authorization: `Bearer ${TOKENS.public}` };
  return {};
}

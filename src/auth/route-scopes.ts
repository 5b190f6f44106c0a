import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden } from '../errors/errors.js';
import { requireAnyScope, requireScopes, type Scope } from './scopes.js';

/**
 * What a management route needs of its token, declared on the route (`config.scopes`) and checked before the body
 * is read. docs/api.md "Scopes by route" is this, route by route; a test renders every registered rule with
 * `describeScopes` and compares both ways, so the table cannot drift from what is enforced.
 */
export interface ScopeRule {
  /** Every one of these. */
  readonly all?: readonly Scope[];
  /** At least one of these (reads several roles need: inbox screens read definitions for their labels). */
  readonly anyOf?: readonly Scope[];
  /**
   * Needed as well in the cases named (routing answers, deleting submissions): the operation checks these, since
   * only it knows the body and what it changes. Declared here so the table says so.
   */
  readonly also?: readonly { readonly scopes: readonly Scope[]; readonly when: string }[];
  /** A signed link opens it without a token (submission files); the handler checks the signature. */
  readonly signedLink?: boolean;
  /** Any other condition the operation checks (tokens: no token handles one that can do more). */
  readonly note?: string;
}

/** One management route as registered (HEAD, which Fastify adds beside every GET, is left out). */
export interface ScopeEntry {
  method: string;
  url: string;
  rule: ScopeRule;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Management routes: what the token needs (ScopeRule). A route without one fails registration. */
    scopes?: ScopeRule;
  }
  interface FastifyInstance {
    /** Every management route's rule in registration order (registerScopeTable). */
    scopeTable: ScopeEntry[];
  }
}

/** On the root, before any route: where declareScopes records the rules. */
export function registerScopeTable(app: FastifyInstance): void {
  app.decorate('scopeTable', []);
}

/**
 * In a plugin of management routes: every route gets a rule (its own, else `fallback`) recorded in the root's
 * table; a route with neither fails registration, so none is ever served unchecked.
 */
export function declareScopes(app: FastifyInstance, fallback?: ScopeRule): void {
  const table = app.scopeTable;
  app.addHook('onRoute', (route) => {
    const rule = route.config?.scopes ?? fallback;
    if (rule === undefined)
      throw new Error(`${String(route.method)} ${route.url} names no scopes (config.scopes)`);
    route.config = { ...route.config, scopes: rule };
    for (const method of [route.method].flat())
      if (method !== 'HEAD') table.push({ method, url: route.url, rule });
  });
}

/** The onRequest hook (after auth) that enforces `all` and `anyOf` of the route's rule. */
export async function routeScopes(request: FastifyRequest): Promise<void> {
  const rule = request.routeOptions.config.scopes;
  // declareScopes gave every route of the scope a rule; without one, nothing is allowed.
  if (rule === undefined) throw forbidden('This route names no scopes.');
  if (rule.all !== undefined) requireScopes(request, ...rule.all);
  if (rule.anyOf !== undefined) requireAnyScope(request, ...rule.anyOf);
}

const code = (s: string): string => `\`${s}\``;

/** The rule as docs/api.md's table writes it: "`forms.write`; also `forms.read` to route answers (…)". */
export function describeScopes(rule: ScopeRule): string {
  const parts = [
    ...(rule.all === undefined ? [] : [rule.all.map(code).join(' and ')]),
    ...(rule.anyOf === undefined ? [] : [rule.anyOf.map(code).join(' or ')]),
  ];
  let text = parts.join(' and ');
  if (rule.signedLink === true) text += ', or a signed link';
  for (const also of rule.also ?? []) text += `; also ${also.scopes.map(code).join(' and ')} ${also.when}`;
  if (rule.note !== undefined) text += `; ${rule.note}`;
  return text;
}

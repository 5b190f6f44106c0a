import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalidBody } from '../errors/errors.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The first reserved member anywhere in a parsed body: `__proto__` (JSON.parse makes it an own member, whatever
 * escapes spelled it), or `constructor` holding `prototype` (the pair Fastify's own parser refuses as well). Both
 * would reach Object.prototype through code that copied members into an object. An explicit stack, not recursion:
 * a body may nest 100,000 levels before the input guard refuses it (src/server/input-guard.ts).
 */
function reservedMember(root: unknown): string | null {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (const item of node) if (typeof item === 'object' && item !== null) stack.push(item);
      continue;
    }
    if (!isObject(node)) continue;
    if (Object.hasOwn(node, '__proto__')) return '__proto__';
    for (const key of Object.keys(node)) {
      const value = node[key];
      if (typeof value !== 'object' || value === null) continue;
      if (key === 'constructor' && Object.hasOwn(value, 'prototype')) return 'constructor';
      stack.push(value);
    }
  }
  return null;
}

/**
 * The app's JSON body parser (the management API's bodies; form submissions have their own, which keeps
 * `__proto__` as a plain member and reads only field keys). Fastify's default refuses the reserved members too,
 * but calls the body "not valid JSON"; this names the member.
 */
export function parseJsonBody(
  _request: FastifyRequest,
  text: string,
  done: (err: Error | null, body?: unknown) => void,
): void {
  if (text.length === 0) {
    done(invalidBody());
    return;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    done(invalidBody('The request body is not valid JSON.'));
    return;
  }
  const member = reservedMember(body);
  if (member === null) done(null, body);
  else
    done(
      invalidBody(
        member === '__proto__'
          ? 'The member name "__proto__" is reserved; rename it.'
          : 'A member "constructor" holding "prototype" is reserved; rename it.',
        { details: { member } },
      ),
    );
}

/** Replaces Fastify's default `application/json` parser on the root (scopes that replace all parsers keep theirs). */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    parseJsonBody(request, String(body), done),
  );
}

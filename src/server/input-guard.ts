import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { deeperThan, MAX_JSON_DEPTH } from '../lib/json-depth.js';
import { invalidBody, notFound } from '../errors/errors.js';

/** A NUL in a path parameter: no id, key or path holds one, and PostgreSQL refuses it in text (a 500). */
function nulParam(params: unknown): boolean {
  if (typeof params !== 'object' || params === null) return false;
  for (const value of Object.values(params))
    if (typeof value === 'string' && value.includes('\0')) return true;
  return false;
}

/**
 * A root `preValidation` hook, the last look at a request before schemas, validators and handlers use it:
 * - a path parameter holding NUL (`%00`) is 404 `not_found` before it reaches a query: nothing is named that way
 *   (as src/delivery/list/option-lists.ts answered for list keys);
 * - a parsed body nested deeper than MAX_JSON_DEPTH is 400 `invalid_body`, before anything walks it (our walkers
 *   recurse; 100,000 nested arrays overflowed their stack). The JSON parser itself copes with any depth.
 * Callback style, so bodiless reads (every cache hit) pay no promise.
 */
export function inputGuard(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  if (nulParam(request.params)) {
    done(notFound('Not found: no id, key or path holds a NUL character (%00).'));
    return;
  }
  const body: unknown = request.body;
  if (typeof body === 'object' && body !== null && deeperThan(body)) {
    done(
      invalidBody(`The request body nests deeper than ${MAX_JSON_DEPTH} levels.`, {
        details: { maxDepth: MAX_JSON_DEPTH },
      }),
    );
    return;
  }
  done();
}

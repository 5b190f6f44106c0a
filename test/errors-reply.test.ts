import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conflict, rateLimited, unavailable } from '../src/errors/errors.js';
import { prepareErrorReply } from '../src/lib/error-reply.js';
import { registerErrorHandlers } from '../src/server/error-handler.js';

// One error reply path (src/lib/error-reply.ts): the root handler answers every error, and a scoped handler that
// keeps only what is its own throws the rest, which Fastify hands to the root, as it chains scoped handlers.

describe('the error reply path', () => {
  let app: FastifyInstance;
  const logged: string[] = [];

  beforeAll(async () => {
    app = Fastify({
      logger: {
        level: 'error',
        stream: { write: (line: string) => void logged.push(line) },
      },
    });
    registerErrorHandlers(app);
    app.get('/root/busy', async () => {
      throw unavailable('Try later.', { details: { retryAfter: 7 } });
    });
    app.get('/root/limited', async () => {
      throw rateLimited('Too many.');
    });
    app.get('/root/crash', async () => {
      throw new Error('boom');
    });
    await app.register(async (scope) => {
      // Like the submission scope: its own answer for one case, the root's for the rest.
      scope.setErrorHandler((err, request, reply) => {
        if (request.headers['x-own'] !== 'yes') throw err;
        const folio = prepareErrorReply(request, reply, err);
        return reply.status(folio.status).type('text/plain').send(`own: ${folio.code}`);
      });
      scope.get('/scoped/busy', async () => {
        throw unavailable('Try later.', { details: { retryAfter: 9 } });
      });
      scope.get('/scoped/conflict', async () => {
        throw conflict('Taken.');
      });
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it('answers the envelope with no-store and Retry-After from the details', async () => {
    const res = await app.inject({ method: 'GET', url: '/root/busy' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('7');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toMatchObject({ error: { code: 'unavailable', message: 'Try later.' } });
  });

  it('gives a 429 without its own Retry-After 60 seconds', async () => {
    const res = await app.inject({ method: 'GET', url: '/root/limited' });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('60');
  });

  it('logs a failure of ours once, with its stack, and answers 500', async () => {
    logged.length = 0;
    const res = await app.inject({ method: 'GET', url: '/root/crash' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ error: { code: 'internal_error' } });
    expect(logged.filter((l) => l.includes('request failed'))).toHaveLength(1);
    expect(logged.join('')).toContain('boom');
  });

  it('hands what a scoped handler throws to the root', async () => {
    const busy = await app.inject({ method: 'GET', url: '/scoped/busy' });
    expect(busy.statusCode).toBe(503);
    expect(busy.headers['retry-after']).toBe('9');
    expect(busy.headers['cache-control']).toBe('no-store');
    expect(busy.json()).toMatchObject({ error: { code: 'unavailable' } });
    const taken = await app.inject({ method: 'GET', url: '/scoped/conflict' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ error: { code: 'conflict', message: 'Taken.' } });
  });

  it('lets a scoped handler answer its own case with the same headers', async () => {
    const res = await app.inject({ method: 'GET', url: '/scoped/busy', headers: { 'x-own': 'yes' } });
    expect(res.statusCode).toBe(503);
    expect(res.body).toBe('own: unavailable');
    expect(res.headers['retry-after']).toBe('9');
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

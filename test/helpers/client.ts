import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { FolioApiError } from '../../client/src/index.js';
import type { FetchLike } from '../../client/src/index.js';

/** Starts the app on a loopback port and answers its address: the client's `baseUrl`. */
export async function listenOnLoopback(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

export interface Exchange {
  method: string;
  url: URL;
  ifNoneMatch: string | null;
  status: number;
  cache: string | null;
}

/** The platform's fetch, recording what went over the wire: the client's `fetch` option. */
export function recordingFetch(): { fetch: FetchLike; exchanges: Exchange[] } {
  const exchanges: Exchange[] = [];
  return {
    exchanges,
    async fetch(url, init) {
      const res = await fetch(url, init);
      exchanges.push({
        method: init.method ?? 'GET',
        url: new URL(url),
        ifNoneMatch: new Headers(init.headers).get('if-none-match'),
        status: res.status,
        cache: res.headers.get('x-svc-cache'),
      });
      return res;
    },
  };
}

/** The FolioApiError a call fails with (the test fails when it succeeds or fails otherwise). */
export async function failureOf(call: Promise<unknown>): Promise<FolioApiError> {
  try {
    await call;
  } catch (err) {
    expect(err).toBeInstanceOf(FolioApiError);
    return err as FolioApiError;
  }
  throw new Error('expected the call to fail');
}

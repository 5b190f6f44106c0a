// The webhook and chat sender's connections (src/outbound/send.ts): kept between posts to one receiver, never
// lent across the private-address rule that checked them when they opened.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from '../src/outbound/send.js';

describe('postJson connections', () => {
  let server: Server;
  let port = 0;
  let connections = 0;
  const bodies: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        bodies.push(body);
        res.end('{}');
      });
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const post = (url: string, allowPrivate: boolean, body = '{"n":1}') =>
    postJson(url, body, {}, { timeoutMs: 5_000, allowPrivate });

  it('posts one after another on one connection', async () => {
    const before = connections;
    for (let i = 0; i < 5; i++) {
      const r = await post(`http://127.0.0.1:${port}/hook`, true, `{"n":${i}}`);
      expect(r).toMatchObject({ status: 200, error: null, forbidden: false });
    }
    expect(bodies.slice(-5)).toEqual([0, 1, 2, 3, 4].map((n) => `{"n":${n}}`));
    expect(connections - before).toBe(1);
  });

  it('never lends a connection opened where private addresses are allowed to a post where they are not', async () => {
    // Opened by the permissive rule and left idle...
    expect((await post(`http://localhost:${port}/hook`, true)).status).toBe(200);
    // ...the strict rule looks the name up itself and refuses, instead of reusing it.
    const strict = await post(`http://localhost:${port}/hook`, false);
    expect(strict).toMatchObject({ status: null, forbidden: true });
    expect(strict.error).toMatch(/private network address/);
  });
});

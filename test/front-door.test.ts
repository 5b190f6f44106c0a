import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { FrontDoor } from '../src/server/fast-hit.js';

// The front door in front of Fastify's listener: a handler that throws never takes the process down; before it
// wrote anything the request goes on to the framework, after it the response is cut short.

let server: Server | null = null;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serve(door: FrontDoor): Promise<string> {
  server = createServer(
    door.listener((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('framework');
    }),
  );
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

function fetchText(url: string): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    get(url, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', (err) => resolve({ error: err.message }));
    }).on('error', (err) => resolve({ error: err.message }));
  });
}

describe('the front door', () => {
  it('hands a request to the framework when its handler throws before writing', async () => {
    const door = new FrontDoor();
    door.handler = () => {
      throw new Error('boom');
    };
    expect(await fetchText(await serve(door))).toEqual({ status: 200, body: 'framework' });
  });

  it('cuts the response short when its handler throws after writing the head', async () => {
    const door = new FrontDoor();
    door.handler = (_req, res) => {
      res.writeHead(200, { 'content-length': '10' });
      res.write('12345');
      throw new Error('boom');
    };
    const answer = await fetchText(await serve(door));
    expect('error' in answer).toBe(true);
  });

  it('answers itself when its handler says so', async () => {
    const door = new FrontDoor();
    door.handler = (_req, res) => {
      res.writeHead(200).end('front');
      return true;
    };
    expect(await fetchText(await serve(door))).toEqual({ status: 200, body: 'front' });
  });
});

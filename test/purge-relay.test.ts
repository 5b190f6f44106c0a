// `folio purge-relay`: it purges only for deliveries whose Standard Webhooks signature verifies, sends each
// event's keys to every cache in chunks a cache reads whole, answers 2xx only once every purge landed (Folio
// retries otherwise), and refuses bad settings naming the variable. A receiving "cache" on loopback records what
// it was sent.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { keysOf, loadPurgeRelayConfig, type PurgeRelay, startPurgeRelay } from '../src/cli/purge-relay.js';
import { ConfigError } from '../src/config/config.js';
import { generateSecret, signPayload } from '../src/webhooks/signing.js';

const SECRET = generateSecret();

describe('purge-relay settings', () => {
  const load = (env: Record<string, string>) => loadPurgeRelayConfig(env, () => '');
  it.each([
    [{}, 'PURGE_RELAY_SECRET'],
    [
      { PURGE_RELAY_SECRET: 'not-a-secret', PURGE_RELAY_TARGETS: 'http://127.0.0.1:6081' },
      'PURGE_RELAY_SECRET',
    ],
    [{ PURGE_RELAY_SECRET: SECRET }, 'PURGE_RELAY_TARGETS'],
    [{ PURGE_RELAY_SECRET: SECRET, PURGE_RELAY_TARGETS: 'ftp://cache' }, 'PURGE_RELAY_TARGETS'],
    [
      { PURGE_RELAY_SECRET: SECRET, PURGE_RELAY_TARGETS: 'http://a', PURGE_RELAY_PORT: 'x' },
      'PURGE_RELAY_PORT',
    ],
    [
      { PURGE_RELAY_SECRET: SECRET, PURGE_RELAY_TARGETS: 'http://a', PURGE_RELAY_HEADER: 'a b' },
      'PURGE_RELAY_HEADER',
    ],
  ])('refuses %j naming %s', (env, variable) => {
    expect(() => load(env)).toThrow(ConfigError);
    expect(() => load(env)).toThrow(variable);
  });

  it('reads the secret from a file and the targets as a list', () => {
    const config = loadPurgeRelayConfig(
      { PURGE_RELAY_SECRET_FILE: '/run/secret', PURGE_RELAY_TARGETS: 'http://a:6081, https://b' },
      (path) => (path === '/run/secret' ? `${SECRET}\n` : ''),
    );
    expect(config.secret).toBe(SECRET);
    expect(config.targets.map((t) => t.host)).toEqual(['a:6081', 'b']);
    expect([config.method, config.header]).toEqual(['PURGE', 'xkey-purge']);
  });

  it('reads keys from any body without throwing, and only keys a header can carry', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (body) => {
        const event = keysOf(body);
        if (event !== null) for (const key of event.keys) expect(key).toMatch(/^[^\s,]+$/);
      }),
    );
    expect(keysOf('{"type":"x","data":{"keys":["a:b","c d","",3,"e"]}}')).toEqual({
      type: 'x',
      keys: ['a:b', 'e'],
    });
  });
});

describe('purge-relay', () => {
  let cache: Server;
  let cacheUrl = '';
  let received: { method: string; keys: string }[] = [];
  let cacheStatus = 200;
  let relay: PurgeRelay;
  let relayUrl = '';

  beforeAll(async () => {
    cache = createServer((req: IncomingMessage, res) => {
      received.push({ method: req.method ?? '', keys: String(req.headers['xkey-purge'] ?? '') });
      res.writeHead(cacheStatus).end();
    });
    await new Promise<void>((resolve) => cache.listen(0, '127.0.0.1', resolve));
    const address = cache.address();
    cacheUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
    relay = await startPurgeRelay(
      {
        host: '127.0.0.1',
        port: 0,
        secret: SECRET,
        targets: [new URL(cacheUrl)],
        method: 'PURGE',
        header: 'xkey-purge',
        timeoutMs: 2000,
      },
      () => {},
    );
    const relayAddress = relay.server.address();
    relayUrl = `http://127.0.0.1:${typeof relayAddress === 'object' && relayAddress ? relayAddress.port : 0}/`;
  });
  afterAll(async () => {
    await relay?.close();
    await new Promise<void>((resolve) => cache?.close(() => resolve()));
  });
  beforeEach(() => {
    received = [];
    cacheStatus = 200;
  });

  const deliver = async (data: Record<string, unknown>, sign = SECRET) => {
    const body = JSON.stringify({ id: 'evt_1', type: 'content.published', spaceId: 'spc', data });
    const timestamp = Math.floor(Date.now() / 1000);
    const res = await fetch(relayUrl, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'evt_1',
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signPayload(sign, 'evt_1', timestamp, body),
      },
    });
    return res.status;
  };

  it("purges an event's keys at the cache once its signature verifies", async () => {
    expect(await deliver({ cv: 2, keys: ['spc:entry:ent_a', 'spc:sync'] })).toBe(204);
    expect(received).toEqual([{ method: 'PURGE', keys: 'spc:entry:ent_a spc:sync' }]);
    expect(relay.purged).toBeGreaterThan(0);
  });

  it('refuses a delivery signed with another secret, and purges nothing', async () => {
    expect(await deliver({ keys: ['spc:entry:ent_a'] }, generateSecret())).toBe(401);
    expect(received).toEqual([]);
  });

  it('answers 502 when the cache does not purge, so Folio sends the event again', async () => {
    cacheStatus = 500;
    expect(await deliver({ keys: ['spc:entry:ent_a'] })).toBe(502);
  });

  it('sends many keys in chunks a cache reads whole; nothing for an event without keys', async () => {
    const keys = Array.from({ length: 600 }, (_, i) => `spc:entry:ent_${String(i).padStart(20, '0')}`);
    expect(await deliver({ keys })).toBe(204);
    expect(received.length).toBeGreaterThan(1);
    expect(received.every((r) => r.keys.length <= 6000)).toBe(true);
    expect(received.flatMap((r) => r.keys.split(' '))).toEqual(keys);
    received = [];
    expect(await deliver({ cv: 3 })).toBe(204);
    expect(received).toEqual([]);
    expect((await fetch(relayUrl)).status).toBe(405);
  });
});

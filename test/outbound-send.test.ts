// The webhook and chat sender's connections (src/outbound/send.ts): kept between posts to one receiver, never
// lent across the private-address rule that checked them when they opened.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from '../src/outbound/send.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';

describe('postJson connections', () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterAll(() => receiver.close());

  const post = (url: string, allowPrivate: boolean, body = '{"n":1}') =>
    postJson(url, body, {}, { timeoutMs: 5_000, allowPrivate });

  it('posts one after another on one connection', async () => {
    const before = receiver.connections;
    for (let i = 0; i < 5; i++) {
      const r = await post(receiver.url, true, `{"n":${i}}`);
      expect(r).toMatchObject({ status: 200, error: null, forbidden: false });
    }
    expect(receiver.received.slice(-5).map((r) => r.body)).toEqual([0, 1, 2, 3, 4].map((n) => `{"n":${n}}`));
    expect(receiver.connections - before).toBe(1);
  });

  it('never lends a connection opened where private addresses are allowed to a post where they are not', async () => {
    const byName = new URL(receiver.url);
    byName.hostname = 'localhost';
    // Opened by the permissive rule and left idle...
    expect((await post(byName.href, true)).status).toBe(200);
    // ...the strict rule looks the name up itself and refuses, instead of reusing it.
    const strict = await post(byName.href, false);
    expect(strict).toMatchObject({ status: null, forbidden: true });
    expect(strict.error).toMatch(/private network address/);
  });
});

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { JobRunner } from '../src/jobs/runner.js';
import { createJobRunner } from '../src/wiring/jobs.js';
import { buildApp } from '../src/server/app.js';
import { openStore } from '../src/store/open-store.js';
import { ENGINES } from './helpers/engines.js';
import { call, type ManagementApp, openManagementApp } from './helpers/management.js';
import { TOKENS } from './helpers/fixture.js';
import { type Received, verifyStandardWebhook, WebhookReceiver } from './helpers/webhook-receiver.js';

const FAST_RETRY = { maxAttempts: 5, delayMs: () => 40 };
const json = (r: Received) =>
  JSON.parse(r.body) as { id: string; type: string; data: Record<string, unknown> };

async function register(t: ManagementApp, url: string, events: string[] = ['*']) {
  const r = await t.api('POST', '/webhooks', { url, events });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.webhook as { id: string; secret: string };
}

async function saveMenu(t: ManagementApp, name = 'Main') {
  const r = await t.api('PUT', '/menus/main', { name, items: [] });
  expect(r.status).toBe(200);
  return r.body.cv as number;
}

describe.each(ENGINES)('webhooks on %s (spec 6, Standard Webhooks)', (engine) => {
  let t: ManagementApp;
  let runner: JobRunner;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    t = await openManagementApp(engine, { worker: false, webhookAllowPrivate: true });
    runner = createJobRunner(
      { store: t.store, blobs: t.blobs, config: t.config },
      { pollMs: 20, retry: FAST_RETRY },
    );
    runner.start();
  });
  afterAll(async () => {
    await runner.stop();
    await t.close();
  });
  beforeEach(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterEach(async () => receiver.close());

  it('delivers menu.updated and redirect.updated signed, verified by an independent verifier', async () => {
    const hook = await register(t, receiver.url);
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const cv = await saveMenu(t);
    // Every publish also sends content.published: pick the menu's event.
    const isMenu = (x: Received) => json(x).type === 'menu.updated';
    const first = (await receiver.waitFor((r) => r.some(isMenu))).find(isMenu);
    expect(verifyStandardWebhook(hook.secret, first!.headers, first!.body)).toBe(true);
    expect(
      verifyStandardWebhook(`whsec_${Buffer.alloc(24, 7).toString('base64')}`, first!.headers, first!.body),
    ).toBe(false);
    const event = json(first!);
    expect(event).toMatchObject({ type: 'menu.updated', data: { key: 'main', cv } });
    expect(first!.headers['webhook-id']).toBe(event.id);
    expect(first!.headers['content-type']).toBe('application/json');

    const rename = await t.api('POST', '/entries/ent_about/rename', { slug: 'about-us' });
    const all = await receiver.waitFor((r) => r.some((x) => json(x).type === 'redirect.updated'));
    const redirect = all.find((x) => json(x).type === 'redirect.updated')!;
    // The CDN tags to purge ride along.
    expect(json(redirect).data).toEqual({ cv: rename.body.cv, keys: ['spc_test:redirects'] });
    for (const r of all) expect(verifyStandardWebhook(hook.secret, r.headers, r.body)).toBe(true);
    await t.api('DELETE', `/webhooks/${hook.id}`);
  });

  it('retries after 500 with the same webhook-id, records every attempt, and stops on 2xx', async () => {
    receiver.answer = (n) => (n <= 2 ? 500 : 204);
    const hook = await register(t, receiver.url, ['menu.updated']);
    await saveMenu(t, 'Retry');
    const got = await receiver.waitFor((r) => r.some((x) => x.status === 204));
    expect(got.map((r) => r.status)).toEqual([500, 500, 204]);
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(1);
    for (const r of got) expect(verifyStandardWebhook(hook.secret, r.headers, r.body)).toBe(true);
    // The attempt is recorded once the receiver answered: wait for the third record.
    const attempts = async () =>
      (await t.api('GET', `/webhooks/${hook.id}/deliveries`)).body.deliveries.map(
        (d: { statusCode: number; attempt: number; ok: boolean }) => [d.attempt, d.statusCode, d.ok],
      );
    await expect.poll(attempts, { timeout: 10_000 }).toEqual([
      [3, 204, true],
      [2, 500, false],
      [1, 500, false],
    ]);
    await t.api('DELETE', `/webhooks/${hook.id}`);
  });

  it('an endpoint answering 410 is disabled and receives nothing more', async () => {
    const gone = await WebhookReceiver.start();
    gone.answer = () => 410;
    const dead = await register(t, gone.url, ['menu.updated']);
    const live = await register(t, receiver.url, ['menu.updated']);
    await saveMenu(t, 'Gone 1');
    await gone.waitFor((r) => r.length === 1);
    await receiver.waitFor((r) => r.length === 1);
    await expect
      .poll(async () => (await t.api('GET', `/webhooks/${dead.id}`)).body.webhook.enabled, {
        timeout: 10_000,
      })
      .toBe(false);
    await saveMenu(t, 'Gone 2');
    await receiver.waitFor((r) => r.length === 2);
    expect(gone.received).toHaveLength(1);
    expect((await t.api('GET', `/webhooks/${dead.id}`)).body.webhook.disabledReason).toMatch(/410/);
    await gone.close();
    for (const id of [dead.id, live.id]) await t.api('DELETE', `/webhooks/${id}`);
  });

  it('only sends the events an endpoint subscribed to', async () => {
    const hook = await register(t, receiver.url, ['redirect.updated']);
    await saveMenu(t, 'Not for you');
    await t.api('POST', '/redirects', { from: '/subscribed', to: { kind: 'url', url: '/about' } });
    await receiver.waitFor((r) => r.length >= 1);
    // Every job has run (the menu event's fan-out included) before looking at what arrived.
    const pending = async () =>
      (await t.store.db.selectFrom('outbox').select('id').where('status', '=', 'pending').execute()).length;
    await expect.poll(pending, { timeout: 10_000 }).toBe(0);
    expect(receiver.received.map((r) => json(r).type)).toEqual(['redirect.updated']);
    await t.api('DELETE', `/webhooks/${hook.id}`);
  });

  it('manages endpoints: list without secrets, rotate, disable, bad input', async () => {
    const hook = await register(t, receiver.url, ['menu.updated', 'form.submitted']);
    const list = await t.api('GET', '/webhooks');
    expect(list.body.webhooks).toContainEqual(expect.objectContaining({ id: hook.id, enabled: true }));
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
    const rotated = await t.api('PATCH', `/webhooks/${hook.id}`, { secret: 'rotate' });
    expect(rotated.body.webhook.secret).toMatch(/^whsec_/);
    expect(rotated.body.webhook.secret).not.toBe(hook.secret);
    const off = await t.api('PATCH', `/webhooks/${hook.id}`, { enabled: false });
    expect(off.body.webhook).toMatchObject({ enabled: false, disabledReason: expect.any(String) });
    const on = await t.api('PATCH', `/webhooks/${hook.id}`, { enabled: true });
    expect(on.body.webhook).toMatchObject({ enabled: true, disabledReason: null });
    const bad: [unknown, number, string][] = [
      [{ url: 'ftp://x.example/', events: ['*'] }, 422, 'validation_failed'],
      [{ url: receiver.url, events: ['entry.published'] }, 422, 'validation_failed'],
      [{ url: receiver.url, events: ['*'], secret: 'plain' }, 422, 'validation_failed'],
      [{ url: receiver.url, events: [] }, 400, 'invalid_body'],
    ];
    for (const [body, status, code] of bad) {
      const r = await t.api('POST', '/webhooks', body);
      expect([r.status, r.body.error.code]).toEqual([status, code]);
    }
    expect((await t.api('DELETE', `/webhooks/${hook.id}`)).status).toBe(200);
    expect((await t.api('GET', `/webhooks/${hook.id}`)).status).toBe(404);
  });
});

describe.each(ENGINES)('webhook durability on %s', (engine) => {
  it('loses nothing when the server restarts between the publish and the delivery', async () => {
    const t = await openManagementApp(engine, { worker: false, webhookAllowPrivate: true });
    const receiver = await WebhookReceiver.start();
    const onFinally: (() => Promise<unknown>)[] = [];
    try {
      const hook = await register(t, receiver.url, ['menu.updated']);
      // The first "process": its own store connection and app, no runner; it publishes and goes away.
      const storeA = await openStore(t.storeConfig);
      const appA = await buildApp({ config: t.config, store: storeA, blobs: t.blobs });
      onFinally.push(
        () => appA.close(),
        () => storeA.close(),
      );
      const saved = await call(
        appA,
        'PUT',
        '/v1/spaces/spc_test/menus/main',
        {
          authorization: `Bearer ${TOKENS.management}`,
        },
        { name: 'Before restart', items: [] },
      );
      expect(saved.status).toBe(200);
      // The import that made the space published too (content.published): take the menu's event.
      const pending = (
        await storeA.db
          .selectFrom('outbox')
          .select(['id', 'status', 'payload'])
          .where('kind', '=', 'event')
          .execute()
      ).find((e) => storeA.dialect.parseJson<{ type: string }>(e.payload).type === 'menu.updated');
      expect(pending?.status).toBe('pending');
      for (const close of onFinally.splice(0)) await close();
      expect(receiver.received).toHaveLength(0);
      // The next start runs the in-process runner (FOLIO_WORKER on) and delivers the event it finds.
      const appB = await t.rebuild({ worker: true });
      await appB.ready();
      const [got] = await receiver.waitFor((r) => r.length >= 1);
      expect(got!.headers['webhook-id']).toBe(pending!.id);
      expect(verifyStandardWebhook(hook.secret, got!.headers, got!.body)).toBe(true);
      expect(JSON.parse(got!.body).data).toEqual({
        key: 'main',
        cv: saved.body.cv,
        keys: ['spc_test:menu:main', 'spc_test:menus'],
      });
    } finally {
      for (const close of onFinally) await close();
      await receiver.close();
      await t.close();
    }
  });
});

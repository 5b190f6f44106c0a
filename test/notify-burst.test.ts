import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FormDefinition } from '../src/forms/rules/index.js';
import type { JobRunner } from '../src/jobs/runner.js';
import { createJobRunner } from '../src/wiring/jobs.js';
import { HostLimiter } from '../src/outbound/host-limit.js';
import { ENGINES } from './helpers/engines.js';
import { TOKENS } from './helpers/fixture.js';
import { CONTACT_FIELDS, VALID_CONTACT } from './helpers/form-defs.js';
import { type FormsApp, formClient, openFormsApp, putForms } from './helpers/forms.js';
import { drainJobs } from './helpers/jobs.js';
import { SmtpTestServer } from './helpers/smtp.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';

const BURST = 200;

/** Two owner emails, a chat post and a form.submitted webhook per submission: four messages, four receivers' worth. */
const burstForm = (chatUrl: string): FormDefinition => ({
  key: 'burst',
  name: 'Burst',
  fields: CONTACT_FIELDS,
  settings: { notify: ['owner@example.com', 'sales@example.com'], chatWebhookUrl: chatUrl },
});

describe.each(ENGINES)('a burst of %i submissions on %s', (engine) => {
  let t: FormsApp;
  let smtp: SmtpTestServer;
  let chat: WebhookReceiver;
  let hooks: WebhookReceiver;
  let live: JobRunner;
  const { submit } = formClient(() => t);

  beforeAll(async () => {
    smtp = await SmtpTestServer.start();
    chat = await WebhookReceiver.start('/chat');
    hooks = await WebhookReceiver.start('/hooks');
    t = await openFormsApp(engine, {
      worker: false,
      webhookAllowPrivate: true,
      mail: {
        smtpUrl: smtp.url,
        from: 'Folio <forms@folio.test>',
        outboxDir: '/nonexistent',
        smtpConnections: 3,
      },
    });
    t.clock.current = new Date();
    await putForms(t, 'spc_test', [burstForm(chat.url)]);
    const registered = await t.inject({
      method: 'POST',
      url: '/v1/spaces/spc_test/webhooks',
      headers: { authorization: `Bearer ${TOKENS.management}` },
      payload: { url: hooks.url, events: ['form.submitted'] },
    });
    expect(registered.status, registered.text).toBe(201);
  });
  afterAll(async () => {
    await live.stop();
    await t.close();
    await Promise.all([smtp.close(), chat.close(), hooks.close()]);
  });

  it('delivers every message exactly once, sending in parallel', async () => {
    live = createJobRunner(
      { store: t.store, blobs: t.blobs, config: t.config },
      { pollMs: 50, concurrency: 12 },
    );
    live.start();
    const ids: string[] = [];
    for (let i = 0; i < BURST; i++) {
      const res = await submit('burst', { ...VALID_CONTACT, message: `burst #${i}#` });
      expect(res.status, res.text).toBe(200);
      ids.push(String(i));
    }
    await smtp.waitFor((m) => m.length >= 2 * BURST, 60_000);
    await chat.waitFor((r) => r.length >= BURST, 60_000);
    await hooks.waitFor((r) => r.length >= BURST, 60_000);
    await live.stop();
    // Whatever is still due runs now: nothing may arrive a second time.
    await drainJobs(t.store, createJobRunner({ store: t.store, blobs: t.blobs, config: t.config }));

    expect(smtp.messages).toHaveLength(2 * BURST);
    const messageIds = new Set(smtp.messages.map((m) => m.mail.messageId));
    expect(messageIds.size).toBe(2 * BURST);
    const marks = (bodies: string[]) => bodies.map((b) => /burst #(\d+)#/.exec(b)?.[1]).sort();
    const twice = ids.flatMap((i) => [i, i]).sort();
    expect(marks(smtp.messages.map((m) => m.mail.text ?? ''))).toEqual(twice);
    expect(chat.received).toHaveLength(BURST);
    expect(marks(chat.received.map((r) => r.body))).toEqual([...ids].sort());
    expect(hooks.received).toHaveLength(BURST);
    expect(new Set(hooks.received.map((r) => r.headers['webhook-id'])).size).toBe(BURST);

    const states = await t.store.db.selectFrom('notification_sends').select('state').execute();
    expect(states).toHaveLength(3 * BURST);
    expect(states.every((s) => s.state === 'sent')).toBe(true);
    const open = await t.store.db.selectFrom('outbox').select('id').where('status', '!=', 'done').execute();
    expect(open).toEqual([]);
    // As long as its waits allow: the burst takes about 15 s on a loaded 2-core host, near the suite's 20 s default.
  }, 180_000);
});

describe('the per-host limit of webhook and chat posts', () => {
  it('lets `limit` posts per host in at once, queues the rest in order and gives up after the wait', async () => {
    const limiter = new HostLimiter(2);
    const a = await limiter.acquire('a:80', 1000);
    const b = await limiter.acquire('a:80', 1000);
    const other = await limiter.acquire('b:80', 1000);
    expect([a, b, other].every((r) => r !== null)).toBe(true);
    expect(limiter.active('a:80')).toBe(2);
    const order: string[] = [];
    const third = limiter.acquire('a:80', 5000).then((r) => (order.push('third'), r));
    const fourth = limiter.acquire('a:80', 5000).then((r) => (order.push('fourth'), r));
    const late = await limiter.acquire('a:80', 20);
    expect(late).toBeNull();
    a!();
    const r3 = await third;
    b!();
    const r4 = await fourth;
    expect(order).toEqual(['third', 'fourth']);
    expect(limiter.active('a:80')).toBe(2);
    r3!();
    r4!();
    other!();
    expect(limiter.active('a:80')).toBe(0);
    expect(limiter.active('b:80')).toBe(0);
  });
});

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FormDefinition } from '../src/forms/rules/index.js';
import type { JobRunner } from '../src/jobs/runner.js';
import { createJobRunner, type WorkerDeps } from '../src/wiring/jobs.js';
import type { ChatMessage } from '../src/forms/notify/chat-message.js';
import { signPayload } from '../src/webhooks/signing.js';
import { ENGINES } from './helpers/engines.js';
import { TOKENS } from './helpers/fixture.js';
import { CONTACT_FIELDS, VALID_CONTACT } from './helpers/form-defs.js';
import { type FormsApp, formClient, openFormsApp, putForms } from './helpers/forms.js';
import { verifyStandardWebhook, WebhookReceiver } from './helpers/webhook-receiver.js';
import { drainJobs, submittedId } from './helpers/jobs.js';

const FAST_RETRY = { maxAttempts: 4, delayMs: () => 30 };
const chatForm = (key: string, url: string): FormDefinition => ({
  key,
  name: 'Contact <us>',
  fields: CONTACT_FIELDS,
  settings: { notify: [], chatWebhookUrl: url },
});
/** What a visitor might type to make a chat ping everyone or plant a disguised link. */
const HOSTILE = {
  ...VALID_CONTACT,
  name: '<!channel> @here Ada',
  message: 'see <https://evil.example|click> or https://evil.example/x @everyone & <@U123>',
};

describe.each(ENGINES)('chat notifications and form.submitted on %s (spec 3.2, 4.4 rule 6, 6)', (engine) => {
  let t: FormsApp;
  let deps: WorkerDeps;
  let chat: WebhookReceiver;
  const runners: JobRunner[] = [];
  const { submit } = formClient(() => t);

  beforeAll(async () => {
    t = await openFormsApp(engine, { worker: false, webhookAllowPrivate: true });
    t.clock.current = new Date();
    deps = { store: t.store, blobs: t.blobs, config: t.config };
  });
  afterAll(async () => {
    for (const r of runners) await r.stop();
    await t.close();
  });
  beforeEach(async () => {
    chat = await WebhookReceiver.start('/services/T000/B000/secret');
  });
  afterEach(async () => chat.close());

  function runner(patch: Partial<WorkerDeps['config']> = {}, pollMs = 20): JobRunner {
    const r = createJobRunner(
      { ...deps, config: { ...deps.config, ...patch } },
      { pollMs, retry: FAST_RETRY },
    );
    runners.push(r);
    return r;
  }

  const drain = (r: JobRunner, timeoutMs?: number): Promise<void> => drainJobs(t.store, r, timeoutMs);

  const submitted = (key: string, values: Record<string, unknown>): Promise<string> =>
    submittedId(t.store, submit, key, values);

  const jobRow = (id: string) =>
    t.store.db
      .selectFrom('outbox')
      .select(['status', 'attempts', 'last_error'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('posts once with escaped values and delivers form.submitted signed; the commit wakes the runner', async () => {
    const hooks = await WebhookReceiver.start();
    try {
      const registered = await t.inject({
        method: 'POST',
        url: '/v1/spaces/spc_test/webhooks',
        headers: { authorization: `Bearer ${TOKENS.management}` },
        payload: { url: hooks.url, events: ['form.submitted'] },
      });
      expect(registered.status, registered.text).toBe(201);
      const secret = registered.body.webhook.secret as string;
      await putForms(t, 'spc_test', [chatForm('chatty', chat.url)]);
      // Polling once a minute: only the wake-up after the submission's commit gets the jobs going in time.
      const live = runner({}, 60_000);
      live.start();
      const sub = await submitted('chatty', HOSTILE);
      const [post] = await chat.waitFor((r) => r.length >= 1, 10_000);
      const [event] = await hooks.waitFor((r) => r.length >= 1, 10_000);
      await live.stop();
      await drain(runner());
      expect(chat.received).toHaveLength(1);
      expect(hooks.received).toHaveLength(1);

      // The chat post: Slack-compatible, nothing a visitor typed acts as a mention or a link.
      expect(post!.headers['content-type']).toBe('application/json');
      for (const live of [
        '<!channel>',
        '@here',
        '@everyone',
        '<@U123>',
        '<https://evil.example|click>',
        'https://evil',
      ]) {
        expect(post!.body).not.toContain(live);
      }
      const message = JSON.parse(post!.body) as ChatMessage;
      expect(message.text).toContain('&lt;!channel&gt; @\u200bhere Ada');
      expect(message.text).toContain('&lt;https:\u200b//evil.example|click&gt;');
      expect(message).toMatchObject({ unfurl_links: false, unfurl_media: false });
      expect(message.blocks[0]).toEqual({
        type: 'header',
        text: { type: 'plain_text', text: 'New submission: Contact &lt;us&gt;', emoji: false },
      });
      const sections = message.blocks.filter((b) => b.type === 'section');
      expect(sections.map((s) => s.fields?.map((f) => [f.type, f.text]))).toContainEqual([
        ['plain_text', 'Topic'],
        ['plain_text', 'General (general)'],
      ]);
      expect(await jobRow(`${sub}.chat`)).toMatchObject({ status: 'done', attempts: 1 });

      // form.submitted (spec 6): signed per Standard Webhooks, checked with Folio's signer and independently.
      expect(verifyStandardWebhook(secret, event!.headers, event!.body)).toBe(true);
      const id = event!.headers['webhook-id'] as string;
      const timestamp = Number(event!.headers['webhook-timestamp']);
      expect(event!.headers['webhook-signature']).toBe(signPayload(secret, id, timestamp, event!.body));
      const body = JSON.parse(event!.body) as { type: string; data: Record<string, unknown> };
      expect(body.type).toBe('form.submitted');
      expect(body.data).toMatchObject({ form: 'chatty', submissionId: sub, values: { name: HOSTILE.name } });
      await t.inject({
        method: 'DELETE',
        url: `/v1/spaces/spc_test/webhooks/${registered.body.webhook.id}`,
        headers: { authorization: `Bearer ${TOKENS.management}` },
      });
    } finally {
      await hooks.close();
    }
  });

  it('retries a chat receiver that answered 500, and the retry posts once', async () => {
    chat.answer = (n) => (n === 1 ? 500 : 200);
    await putForms(t, 'spc_test', [chatForm('flaky', chat.url)]);
    const sub = await submitted('flaky', VALID_CONTACT);
    await drain(runner());
    expect(chat.received.map((r) => r.status)).toEqual([500, 200]);
    expect(chat.received[0]!.body).toBe(chat.received[1]!.body);
    expect(await jobRow(`${sub}.chat`)).toMatchObject({ status: 'done', attempts: 2 });
    const sent = await t.store.db
      .selectFrom('notification_sends')
      .select(['channel', 'state'])
      .where('id', '=', `${sub}.chat`)
      .executeTakeFirst();
    expect(sent).toEqual({ channel: 'chat', state: 'sent' });
  });

  it('gives up at once on a chat webhook that answers 410 Gone (revoked)', async () => {
    chat.answer = () => 410;
    await putForms(t, 'spc_test', [chatForm('revoked', chat.url)]);
    const sub = await submitted('revoked', VALID_CONTACT);
    await drain(runner());
    expect(chat.received.map((r) => r.status)).toEqual([410]);
    expect(await jobRow(`${sub}.chat`)).toMatchObject({ status: 'dead', attempts: 1 });
  });

  it('gives up at once on a chat target the SSRF guard forbids', async () => {
    await putForms(t, 'spc_test', [chatForm('guarded', chat.url)]);
    const sub = await submitted('guarded', VALID_CONTACT);
    await drain(runner({ webhookAllowPrivate: false }));
    expect(chat.received).toHaveLength(0);
    const row = await jobRow(`${sub}.chat`);
    expect(row).toMatchObject({ status: 'dead', attempts: 1 });
    expect(row.last_error).toMatch(/private network address/);
  });
});

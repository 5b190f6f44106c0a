import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FormDefinition } from '../src/forms/rules/index.js';
import { randomBase62 } from '../src/lib/ids.js';
import type { JobRunner } from '../src/jobs/runner.js';
import { createJobRunner } from '../src/wiring/jobs.js';
import { ENGINES } from './helpers/engines.js';
import { TOKENS } from './helpers/fixture.js';
import { type FormsApp, formClient, openFormsApp, putForms } from './helpers/forms.js';
import { drainJobs, submittedId } from './helpers/jobs.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';

// Retention reaches every copy. A submission's rows in the outbox (its `form.submitted` event, the
// webhook deliveries it fans out to, its notification jobs) carry ids, never the visitor's answers, and go with the
// submission; a subscribed receiver still gets the answers, read from the stored submission when it is sent.

const DAY = 86_400_000;
const FAST_RETRY = { maxAttempts: 3, delayMs: () => 30 };

const brief = (chatUrl: string): FormDefinition => ({
  key: 'brief',
  name: 'Brief',
  fields: [
    { key: 'name', type: 'text', required: true },
    { key: 'email', type: 'email', required: true },
    { key: 'message', type: 'textarea' },
  ],
  settings: { retentionDays: 1, notify: ['owner@example.com'], chatWebhookUrl: chatUrl },
});

describe.each(ENGINES)("a submission's outbox rows on %s", (engine) => {
  let t: FormsApp;
  let hooks: WebhookReceiver;
  let chat: WebhookReceiver;
  let runner: JobRunner;
  const marker = `MARKER${randomBase62(12)}`;
  const { submit } = formClient(() => t);
  const answers = (tag: string) => ({
    name: `${marker} ${tag}`,
    email: `ada.${tag}@example.com`,
    message: `${marker} writes`,
  });

  /** Kinds of the outbox rows whose payload holds `text` anywhere (as `payload like '%MARKER%'` finds them). */
  const outboxHolding = async (text: string) =>
    (
      await t.store.db
        .selectFrom('outbox')
        .select('kind')
        .where(sql<string>`${t.store.dialect.jsonText('payload')}`, 'like', `%${text}%`)
        .orderBy('kind')
        .execute()
    ).map((r) => r.kind);
  const rowsOf = async (submissionId: string) =>
    (
      await t.store.db
        .selectFrom('outbox')
        .select('kind')
        .where('submission_id', '=', submissionId)
        .orderBy('kind')
        .execute()
    ).map((r) => r.kind);

  beforeAll(async () => {
    hooks = await WebhookReceiver.start();
    chat = await WebhookReceiver.start('/services/T000/B000/secret');
    t = await openFormsApp(engine, { worker: false, webhookAllowPrivate: true });
    // Real time: the jobs run now, and the sweep below judges retention by a clock two days ahead.
    t.clock.current = new Date();
    const registered = await t.inject({
      method: 'POST',
      url: '/v1/spaces/spc_test/webhooks',
      headers: { authorization: `Bearer ${TOKENS.management}` },
      payload: { url: hooks.url, events: ['form.submitted'] },
    });
    expect(registered.status, registered.text).toBe(201);
    await putForms(t, 'spc_test', [brief(chat.url)]);
    runner = createJobRunner({ store: t.store, blobs: t.blobs, config: t.config }, { retry: FAST_RETRY });
  });
  afterAll(async () => {
    await t.close();
    await hooks.close();
    await chat.close();
  });

  it('carries ids, not answers: the event and notification jobs name the submission', async () => {
    const sub = await submittedId(t.store, submit, 'brief', answers('kept'));
    expect(await outboxHolding(marker)).toEqual([]);
    expect(await rowsOf(sub)).toEqual(['event', 'notify.chat', 'notify.email']);
    const [event] = await t.store.db
      .selectFrom('outbox')
      .select('payload')
      .where('submission_id', '=', sub)
      .where('kind', '=', 'event')
      .execute();
    const data = t.store.dialect.parseJson<{ data: Record<string, unknown> }>(event?.payload).data;
    expect(Object.keys(data).sort()).toEqual(['cv', 'form', 'submissionId', 'submittedAt']);
  });

  it('still delivers the answers to a subscribed receiver, read from the submission when sent', async () => {
    const sub = await submittedId(t.store, submit, 'brief', answers('sent'));
    await drainJobs(t.store, runner);
    const bodies = hooks.received.map(
      (r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> },
    );
    const mine = bodies.filter((b) => b.data.submissionId === sub);
    expect(mine).toHaveLength(1);
    // The body's members are unchanged (docs/api.md "Webhooks").
    expect(Object.keys(mine[0]?.data ?? {}).sort()).toEqual([
      'cv',
      'form',
      'keys',
      'locale',
      'page',
      'submissionId',
      'submittedAt',
      'values',
    ]);
    expect(mine[0]?.data).toMatchObject({ form: 'brief', locale: 'en', values: answers('sent') });
    // The webhook delivery rows name the submission too, and hold no answer.
    expect(await rowsOf(sub)).toEqual(['event', 'notify.chat', 'notify.email', 'webhook']);
    expect(await outboxHolding(marker)).toEqual([]);
  });

  it('retention deletes them with the submission: no outbox row or notification record is left', async () => {
    const sub = await submittedId(t.store, submit, 'brief', answers('expired'));
    await drainJobs(t.store, runner);
    expect(await outboxHolding(sub)).toEqual(['event', 'notify.chat', 'notify.email', 'webhook']);
    // The runner's hourly sweep with the app's clock two days on (retentionDays: 1), as `folio sweep` would then.
    const later = createJobRunner(
      { store: t.store, blobs: t.blobs, config: t.config },
      { clock: () => new Date(Date.now() + 2 * DAY) },
    );
    later.start();
    await later.stop();
    expect(await t.store.db.selectFrom('submissions').select('id').execute()).toEqual([]);
    // How the leak showed: `select kind from outbox where payload like '%MARKER%'` once answered event, webhook.
    expect(await outboxHolding(marker)).toEqual([]);
    expect(await outboxHolding(sub)).toEqual([]);
    expect(await rowsOf(sub)).toEqual([]);
    expect(await t.store.db.selectFrom('notification_sends').select('id').execute()).toEqual([]);
  });

  it('sends nothing for a submission deleted before its webhook went out', async () => {
    const sub = await submittedId(t.store, submit, 'brief', answers('gone'));
    const before = hooks.received.length;
    // Gone behind the jobs' back (their rows stay): what a send racing an erase finds.
    await t.store.db.deleteFrom('submissions').where('id', '=', sub).execute();
    await drainJobs(t.store, runner);
    expect(hooks.received.slice(before)).toEqual([]);
    const statuses = await t.store.db
      .selectFrom('outbox')
      .select(['kind', 'status'])
      .where('submission_id', '=', sub)
      .orderBy('kind')
      .execute();
    expect(statuses).toEqual([
      { kind: 'event', status: 'done' },
      { kind: 'notify.chat', status: 'done' },
      { kind: 'notify.email', status: 'done' },
      { kind: 'webhook', status: 'done' },
    ]);
  });
});

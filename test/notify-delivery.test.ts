import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FormDefinition } from '../src/forms/rules/index.js';
import { claimJobs } from '../src/jobs/jobs-repo.js';
import { enqueueJob } from '../src/jobs/outbox-repo.js';
import type { JobHandler, JobRunner } from '../src/jobs/runner.js';
import { buildJobHandlers, createJobRunner, type WorkerDeps } from '../src/wiring/jobs.js';
import { notifyJobHandlers } from '../src/forms/notify/handlers.js';
import { openMailer } from '../src/forms/notify/mailer.js';
import { ENGINES } from './helpers/engines.js';
import { VALID_CONTACT, emailForm } from './helpers/form-defs.js';
import { type FormsApp, formClient, openFormsApp, putForms } from './helpers/forms.js';
import { SmtpTestServer } from './helpers/smtp.js';
import { drainJobs } from './helpers/jobs.js';

const FAST_RETRY = { maxAttempts: 4, delayMs: () => 30 };

/** A one-field form mailing one owner: one `notify.email` job per submission. */
const owned = (key: string): FormDefinition => emailForm(key, { notify: [`owner-${key}@example.com`] });

describe.each(ENGINES)('notification delivery on %s: retries and at-most-once', (engine) => {
  let t: FormsApp;
  let smtp: SmtpTestServer;
  let deps: WorkerDeps;
  const runners: JobRunner[] = [];
  const { submit } = formClient(() => t);

  beforeAll(async () => {
    smtp = await SmtpTestServer.start();
    t = await openFormsApp(engine, {
      worker: false,
      mail: { smtpUrl: smtp.url, from: 'Folio <forms@folio.test>', outboxDir: '/nonexistent' },
    });
    t.clock.current = new Date();
    deps = { store: t.store, blobs: t.blobs, config: t.config };
    await putForms(t, 'spc_test', ['soft', 'hard', 'crash', 'lease', 'window'].map(owned));
  });
  afterAll(async () => {
    for (const r of runners) await r.stop();
    await t.close();
    await smtp.close();
  });

  function runner(handlers?: Map<string, JobHandler>): JobRunner {
    const r = createJobRunner(deps, { pollMs: 20, retry: FAST_RETRY, ...(handlers ? { handlers } : {}) });
    runners.push(r);
    return r;
  }

  const drain = (r: JobRunner, timeoutMs?: number): Promise<void> => drainJobs(t.store, r, timeoutMs);

  /** Submits and returns the submission's one `notify.email` job id. */
  async function submitted(key: string): Promise<{ sub: string; job: string }> {
    const res = await submit(key, { email: VALID_CONTACT.email });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const row = await t.store.db
      .selectFrom('outbox')
      .select('id')
      .where('kind', '=', 'notify.email')
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    return { sub: row.id.split('.')[0]!, job: row.id };
  }

  const jobRow = (id: string) =>
    t.store.db
      .selectFrom('outbox')
      .select(['status', 'attempts', 'last_error', 'locked_by'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const sendRow = (id: string) =>
    t.store.db
      .selectFrom('notification_sends')
      .select(['state', 'channel'])
      .where('id', '=', id)
      .executeTakeFirst();

  it('retries a 4xx answer and then delivers the message once', async () => {
    const { sub, job } = await submitted('soft');
    smtp.answer = (mail, attempt) =>
      mail.messageId?.includes(sub) && attempt === 1 ? { code: 451, message: '4.3.0 Try again later' } : null;
    await drain(runner());
    expect(smtp.refused.filter((r) => r.messageId?.includes(sub)).map((r) => r.code)).toEqual([451]);
    expect(smtp.messagesFor(sub)).toHaveLength(1);
    expect(await jobRow(job)).toMatchObject({ status: 'done', attempts: 2 });
    expect(await sendRow(job)).toEqual({ state: 'sent', channel: 'email' });
  });

  it('gives a 5xx answer up at once: the job is dead and nothing was delivered', async () => {
    const { sub, job } = await submitted('hard');
    smtp.answer = (mail) =>
      mail.messageId?.includes(sub) ? { code: 550, message: '5.1.1 No such mailbox' } : null;
    await drain(runner());
    expect(smtp.messagesFor(sub)).toHaveLength(0);
    const row = await jobRow(job);
    expect(row).toMatchObject({ status: 'dead', attempts: 1 });
    expect(row.last_error).toContain('550');
    expect(await sendRow(job)).toEqual({ state: 'sending', channel: 'email' });
  });

  it('a worker that dies after the message was accepted and recorded does not send it twice', async () => {
    const { sub, job } = await submitted('crash');
    smtp.answer = () => null;
    // The handler ran to the end (accepted, recorded `sent`); then the worker died before completing the job.
    const handlers = buildJobHandlers(deps);
    const real = handlers.get('notify.email')!;
    let runs = 0;
    handlers.set('notify.email', async (claimed) => {
      await real(claimed);
      if (++runs === 1) throw new Error('worker died before completing the job');
    });
    await drain(runner(handlers));
    expect(runs).toBe(2);
    expect(smtp.messagesFor(sub)).toHaveLength(1);
    expect(await jobRow(job)).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('a second runner picking up an expired lease does not send again', async () => {
    const { sub, job } = await submitted('lease');
    // The first worker claims with a short lease, sends, records `sent` — and is never heard of again.
    const [claimed, ...others] = await claimJobs(t.store, {
      kinds: ['notify.email'],
      workerId: 'worker-that-dies',
      limit: 10,
      now: new Date(),
      leaseMs: 100,
    });
    expect(others).toEqual([]);
    expect(claimed?.id).toBe(job);
    await buildJobHandlers(deps).get('notify.email')!(claimed!);
    expect(smtp.messagesFor(sub)).toHaveLength(1);
    expect(await jobRow(job)).toMatchObject({ status: 'pending', locked_by: 'worker-that-dies' });
    // Another worker claims the job once the lease expired and finds the message sent.
    await drain(runner());
    expect(smtp.messagesFor(sub)).toHaveLength(1);
    expect(await jobRow(job)).toMatchObject({ status: 'done', attempts: 2, locked_by: null });
  });

  it('a crash between "accepted" and "recorded" sends again with the same Message-ID (documented window)', async () => {
    const { sub, job } = await submitted('window');
    const mailer = openMailer(t.config.mail);
    let sends = 0;
    const handlers = buildJobHandlers(deps);
    const [, email] = notifyJobHandlers({
      store: t.store,
      config: t.config,
      mailer: {
        async send(msg) {
          await mailer.send(msg);
          if (++sends === 1) throw new Error('store unreachable right after the server accepted');
        },
        close: () => mailer.close(),
      },
    }).find(([kind]) => kind === 'notify.email')!;
    handlers.set('notify.email', email);
    await drain(runner(handlers));
    const got = smtp.messagesFor(sub);
    expect(got).toHaveLength(2);
    expect(new Set(got.map((m) => m.mail.messageId))).toEqual(new Set([`<${job}@folio.test>`]));
    expect(await sendRow(job)).toEqual({ state: 'sent', channel: 'email' });
    await mailer.close();
  });

  it('gives a malformed payload up at once', async () => {
    await enqueueJob(t.store.db, {
      spaceId: 'spc_test',
      kind: 'notify.email',
      payload: { to: 42 },
      id: 'junk.mail',
    });
    await drain(runner());
    const row = await jobRow('junk.mail');
    expect(row).toMatchObject({ status: 'dead', attempts: 1 });
    expect(row.last_error).toMatch(/malformed notify\.email payload/);
  });
});

import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FormDefinition } from '../src/forms/rules/index.js';
import { TURNSTILE_TEST_SECRETS } from '../src/forms/submission/turnstile.js';
import { createJobRunner } from '../src/wiring/jobs.js';
import { ENGINES } from './helpers/engines.js';
import { get, openEdgeTestApp } from './helpers/edge.js';
import { CONTACT_FIELDS, VALID_CONTACT } from './helpers/form-defs.js';
import { type FormsApp, formClient, openFormsApp, putForms } from './helpers/forms.js';
import { submittedId } from './helpers/jobs.js';
import { BIN, freePort, PROCESS_TEST_MS } from './helpers/processes.js';

/** Answers no one may find in a log line: the visitor's name, address and message. */
const SECRET_ANSWERS = { name: 'Zebulon Quill', email: 'zebulon@example.com', message: 'my private words' };

const notifyForm = (key: string): FormDefinition => ({
  key,
  name: 'Contact us',
  fields: CONTACT_FIELDS,
  settings: {
    turnstileSiteKey: '1x00000000000000000000AA',
    turnstileSecret: TURNSTILE_TEST_SECRETS.pass,
    notify: ['team@example.com'],
  },
});
const TOKEN = { 'cf-turnstile-response': 'XXXX.DUMMY.TOKEN.XXXX' };

/** A submission of a form that mails its owner, with a mail server nobody answers on. */
async function openDeadMailApp(engine: (typeof ENGINES)[number], worker: boolean): Promise<FormsApp> {
  const dead = await freePort();
  const t = await openFormsApp(engine, {
    worker,
    mail: {
      smtpUrl: `smtp://127.0.0.1:${dead}`,
      from: 'Folio <forms@folio.test>',
      outboxDir: '/nonexistent',
    },
  });
  t.clock.current = new Date();
  await putForms(t, 'spc_test', [notifyForm('contact')]);
  return t;
}

describe.each(ENGINES)('failed notifications are seen on %s', (engine) => {
  let t: FormsApp;
  const { submit } = formClient(() => t);
  beforeAll(async () => {
    t = await openDeadMailApp(engine, true);
  });
  afterAll(async () => t.close());

  it('a dead SMTP server counts in /metrics: failures, attempts, outbox depth and the oldest age by kind', async () => {
    await submittedId(t.store, submit, 'contact', { ...VALID_CONTACT, ...SECRET_ANSWERS, ...TOKEN });
    // The in-process runner tries at once and fails (connection refused); the job waits for its retry.
    await expect
      .poll(async () => (await get(t.app, '/metrics')).raw, { timeout: 15_000 })
      .toContain('folio_job_failures_total{kind="notify.email"} 1');
    const text = (await get(t.app, '/metrics')).raw;
    expect(text).toContain('folio_job_attempts_total{kind="notify.email",outcome="retry"} 1');
    expect(text).toContain('folio_outbox_jobs{kind="notify.email",status="pending"} 1');
    expect(text).toMatch(/folio_outbox_oldest_age_seconds\{kind="notify\.email",status="pending"\} \d/);
    if (engine === 'postgres') expect(text).toMatch(/folio_db_pool_connections [1-9]/);
    else expect(text).not.toContain('folio_db_pool_connections');
  });

  it('each failed attempt logs one warn line with kind, form, attempt and error, never an answer', async () => {
    // The app's own runner stops, so the attempt below is the only one.
    await t.app.jobs?.stop();
    const lines: { details: Record<string, unknown>; message: string }[] = [];
    const runner = createJobRunner(
      {
        store: t.store,
        blobs: t.blobs,
        config: t.config,
        log: {
          error: () => {},
          warn: (details, message) => lines.push({ details: { ...details }, message }),
        },
      },
      { retry: { maxAttempts: 2, delayMs: () => 0 } },
    );
    // Due again at once: the retry the app's runner scheduled is brought forward.
    await t.store.db
      .updateTable('outbox')
      .set({ run_at: new Date(0).toISOString() })
      .execute();
    await runner.runOnce();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      message: 'job failed, given up',
      details: { kind: 'notify.email', form: 'contact', attempt: 2, gaveUp: true },
    });
    expect(String(lines[0]?.details.error)).toMatch(/ECONNREFUSED|connect/i);
    const logged = JSON.stringify(lines);
    for (const answer of Object.values(SECRET_ANSWERS)) expect(logged).not.toContain(answer);
    expect((await get(t.app, '/metrics')).raw).toContain(
      'folio_outbox_jobs{kind="notify.email",status="dead"} 1',
    );
  });
});

describe('/readyz while Redis is down', () => {
  it('stays 200 (the store answers) and says Redis is down in its body', async () => {
    const t = await openEdgeTestApp('sqlite', { redisUrl: 'redis://127.0.0.1:1', redisPrefix: 'never:' });
    try {
      const ready = await get(t.app, '/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body).toEqual({ ready: true, checks: { store: 'up', redis: 'down' } });
    } finally {
      await t.close();
    }
  });
});

describe('folio worker with WORKER_METRICS_PORT', { timeout: PROCESS_TEST_MS }, () => {
  it('serves /healthz and /metrics, and logs a failed mail as one JSON warn line', async () => {
    const t = await openDeadMailApp('sqlite', false);
    const dataDir = t.dataDir;
    await submittedId(t.store, formClient(() => t).submit, 'contact', {
      ...VALID_CONTACT,
      ...SECRET_ANSWERS,
      ...TOKEN,
    });
    await t.app.close();
    await t.store.close();
    const dead = new URL(t.config.mail.smtpUrl ?? '').port;
    const child = spawn(process.execPath, [BIN, 'worker'], {
      env: {
        ...process.env,
        DATABASE_URL: '',
        DATA_DIR: dataDir,
        SMTP_URL: `smtp://127.0.0.1:${dead}`,
        MAIL_FROM: 'Folio <forms@folio.test>',
        WORKER_METRICS_PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
      },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await expect.poll(() => out, { timeout: 60_000 }).toMatch(/"msg":"job failed, will retry"/);
      const base = /Worker metrics: (http:\/\/[\d.:]+)\/metrics/.exec(out)?.[1];
      expect(base, out).toBeDefined();
      const health = await fetch(`${base}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ ok: true });
      const metrics = await (await fetch(`${base}/metrics`)).text();
      expect(metrics).toContain('folio_job_failures_total{kind="notify.email"} 1');
      expect(metrics).toContain('folio_outbox_jobs{kind="notify.email",status="pending"} 1');
      const line = out.split('\n').find((l) => l.includes('job failed'));
      const parsed: unknown = JSON.parse(line ?? '{}');
      expect(parsed).toMatchObject({ level: 40, kind: 'notify.email', form: 'contact', attempt: 1 });
      for (const answer of Object.values(SECRET_ANSWERS)) expect(out).not.toContain(answer);
    } finally {
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FormDefinition, FormField } from '../src/forms/rules/index.js';
import { TURNSTILE_TEST_SECRETS } from '../src/forms/submission/turnstile.js';
import type { JobRunner } from '../src/jobs/runner.js';
import { createJobRunner } from '../src/wiring/jobs.js';
import type { Config } from '../src/config/config.js';
import { ENGINES } from './helpers/engines.js';
import { CONTACT_FIELDS, VALID_CONTACT } from './helpers/form-defs.js';
import { type FormsApp, formClient, openFormsApp, putForms } from './helpers/forms.js';
import { SmtpTestServer } from './helpers/smtp.js';
import { drainJobs, submittedId } from './helpers/jobs.js';

const FAST_RETRY = { maxAttempts: 3, delayMs: () => 30 };
/** Cloudflare's always-passing test secret, answered locally: forms may send confirmations and take files. */
const TURNSTILE = {
  turnstileSiteKey: '1x00000000000000000000AA',
  turnstileSecret: TURNSTILE_TEST_SECRETS.pass,
};
const TOKEN = { 'cf-turnstile-response': 'XXXX.DUMMY.TOKEN.XXXX' };
const FIELDS: FormField[] = [
  ...CONTACT_FIELDS,
  { key: 'cv', type: 'file', label: 'CV', maxFiles: 2, translations: { de: { label: 'Lebenslauf' } } },
];
const CONFIRMATION = {
  subject: { en: 'We got your message', de: 'Wir haben Ihre Nachricht erhalten' },
  body: { en: 'Thank you. We will answer soon.', de: 'Danke. Wir melden uns bald.' },
};
const many = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}@example.com`);

const form = (key: string, settings: FormDefinition['settings']): FormDefinition => ({
  key,
  name: 'Contact us',
  fields: FIELDS,
  settings: { ...TURNSTILE, ...settings },
});

describe.each(ENGINES)('notification email on %s (spec 3.2, 4.4 rule 6)', (engine) => {
  let t: FormsApp;
  let smtp: SmtpTestServer;
  let runner: JobRunner;
  const { submit } = formClient(() => t);

  beforeAll(async () => {
    smtp = await SmtpTestServer.start();
    t = await openFormsApp(engine, {
      worker: false,
      mail: { smtpUrl: smtp.url, from: 'Folio Forms <forms@folio.test>', outboxDir: '/nonexistent' },
    });
    // Real time: nothing here depends on the date, and retention sweeps must not see old submissions.
    t.clock.current = new Date();
    runner = createJobRunner(
      { store: t.store, blobs: t.blobs, config: t.config },
      { pollMs: 20, retry: FAST_RETRY },
    );
  });
  afterAll(async () => {
    await runner.stop();
    await t.close();
    await smtp.close();
  });

  const drain = (r: JobRunner = runner, timeoutMs?: number): Promise<void> =>
    drainJobs(t.store, r, timeoutMs);

  const submitted = (key: string, values: Record<string, unknown>): Promise<string> =>
    submittedId(t.store, submit, key, values);

  const jobsOf = (submissionId: string) =>
    t.store.db
      .selectFrom('outbox')
      .select(['id', 'kind', 'status', 'attempts'])
      .where('id', 'like', `${submissionId}.%`)
      .orderBy('id')
      .execute();

  async function insertUpload(formKey: string, id: string, name: string, size: number): Promise<string> {
    const now = new Date();
    await t.store.db
      .insertInto('uploads')
      .values({
        id,
        space_id: 'spc_test',
        form_key: formKey,
        field_key: 'cv',
        name,
        size,
        type: 'application/pdf',
        blob_key: `uploads/${id}`,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + 86_400_000).toISOString(),
        submission_id: null,
      })
      .execute();
    return id;
  }

  it('mails notify and the matching rules once each, replying to the visitor, labels in the default locale', async () => {
    await putForms(t, 'spc_test', [
      form('routed', {
        notify: ['team@example.com'],
        notifyRules: [
          {
            when: { match: 'all', rules: [{ field: 'topic', op: 'equals', value: 'general' }] },
            to: ['general@example.com', 'TEAM@example.com'],
          },
          {
            when: { match: 'all', rules: [{ field: 'topic', op: 'equals', value: 'press' }] },
            to: ['press@example.com'],
          },
        ],
      }),
    ]);
    const upload = await insertUpload('routed', `fup_${engine}Routed01`, 'cv.pdf', 1234);
    const sub = await submitted('routed', {
      ...VALID_CONTACT,
      message: 'Hello\nsecond line',
      tags: ['a', 'c'],
      color: 'red',
      cv: upload,
      _locale: 'de',
      _page: 'https://site.example/kontakt',
      ...TOKEN,
    });
    // The upload is claimed by the submission (spec 3.3) in its transaction.
    const claimed = await t.store.db
      .selectFrom('uploads')
      .select('submission_id')
      .where('id', '=', upload)
      .executeTakeFirst();
    expect(claimed?.submission_id).toBe(sub);
    await drain();

    const got = smtp.messagesFor(sub);
    expect(got.map((m) => m.to).sort()).toEqual([['general@example.com'], ['team@example.com']]);
    for (const { mail, to } of got) {
      expect(mail.subject).toBe('New submission: Contact us');
      expect(mail.from?.value[0]?.address).toBe('forms@folio.test');
      expect(mail.to && !Array.isArray(mail.to) ? mail.to.value.map((a) => a.address) : []).toEqual(to);
      expect(mail.replyTo?.value.map((a) => a.address)).toEqual(['ada@example.com']);
      expect(mail.messageId).toMatch(new RegExp(`^<${sub}\\.mail\\.[0-9a-f]{16}@folio\\.test>$`));
      expect(mail.headers.get('auto-submitted')).toBe('auto-generated');
      expect(mail.attachments).toHaveLength(0);
      const text = mail.text ?? '';
      expect(text).toContain(
        [
          'Name: Ada',
          'Email: ada@example.com',
          'Topic: General (general)',
          'Message:',
          '  Hello',
          '  second line',
          'Tags: A (a), C (c)',
          'Color: Red (red)',
          // Consent as a sentence, no "….: Yes".
          'The visitor agreed to: “I agree to the storage of my data.”',
          'CV:',
          `  - cv.pdf (1.2 KB): http://folio.test/v1/spaces/spc_test/forms/routed/submissions/${sub}/files/${upload}?expires=`,
        ].join('\n'),
      );
      expect(text).toContain('Page: https://site.example/kontakt');
      // The space's time zone, not UTC.
      expect(text).toMatch(/Submitted: \d{1,2} \w{3} \d{4}, \d{2}:\d{2} \(Europe\/Berlin\)/);
      expect(mail.html).toContain('<a href="http://folio.test/v1/spaces/spc_test/forms/routed/submissions/');
      // The link opens without a token (signed, expiring): accepted, then 404 only because this suite's upload
      // row has no bytes; a changed signature is refused (403) before the file is looked up.
      const link = /(http:\/\/folio\.test\S+signature=\S+)/.exec(text)?.[1] ?? '';
      // Signed by the worker's clock; the app judges by its own (pinned in these tests).
      t.clock.current = new Date();
      const path = link.replace('http://folio.test', '');
      const opened = await t.inject({ method: 'GET', url: path });
      expect([opened.status, opened.body.error.message]).toEqual([404, 'File not found.']);
      const forged = await t.inject({ method: 'GET', url: `${path.slice(0, -3)}AAA` });
      expect(forged.status).toBe(403);
      // Labels are the default locale's, whatever the visitor's language was.
      for (const de of ['Thema', 'Allgemein', 'Lebenslauf', 'Farbe', 'Rot']) expect(text).not.toContain(de);
    }
    const jobs = await jobsOf(sub);
    expect(jobs.map((j) => [j.kind, j.status])).toEqual([
      ['notify.email', 'done'],
      ['notify.email', 'done'],
    ]);
    const sends = await t.store.db
      .selectFrom('notification_sends')
      .selectAll()
      .where('submission_id', '=', sub)
      .execute();
    expect(sends.map((s) => [s.channel, s.state]).sort()).toEqual([
      ['email', 'sent'],
      ['email', 'sent'],
    ]);
    expect(sends.map((s) => `<${s.message_id}>`).sort()).toEqual(got.map((m) => m.mail.messageId).sort());
  });

  it('caps the recipients of one submission at 20: notify first, then the rules in order (spec 8)', async () => {
    const filled = { match: 'all' as const, rules: [{ field: 'name', op: 'filled' as const }] };
    await putForms(t, 'spc_test', [
      form('crowd', {
        notify: many(10, 'n'),
        notifyRules: [
          { when: filled, to: ['N3@EXAMPLE.com', ...many(15, 'r')] },
          { when: filled, to: many(5, 'late') },
        ],
      }),
    ]);
    const sub = await submitted('crowd', { ...VALID_CONTACT, ...TOKEN });
    expect((await jobsOf(sub)).filter((j) => j.kind === 'notify.email')).toHaveLength(20);
    await drain();
    const to = smtp.messagesFor(sub).flatMap((m) => m.to);
    expect(to.sort()).toEqual([...many(10, 'n'), ...many(10, 'r')].sort());
  });

  it('confirms to the visitor in their language along the chain, without repeating their answers', async () => {
    await putForms(t, 'spc_test', [form('confirm', { notify: [], confirmationEmail: CONFIRMATION })]);
    const sub = await submitted('confirm', {
      ...VALID_CONTACT,
      name: 'Zelda Quartermain',
      message: 'My secret words',
      _locale: 'de-ch',
      ...TOKEN,
    });
    await drain();
    const [only, ...more] = smtp.messagesFor(sub);
    expect(more).toHaveLength(0);
    expect(only?.to).toEqual(['ada@example.com']);
    const mail = only!.mail;
    // de-ch has no text of its own and falls back to de (spec 1 item 3, 2.12).
    expect(mail.subject).toBe('Wir haben Ihre Nachricht erhalten');
    expect(mail.text).toBe('Danke. Wir melden uns bald.\n');
    expect(mail.replyTo).toBeUndefined();
    expect(mail.messageId).toBe(`<${sub}.confirmation@folio.test>`);
    for (const answer of ['Zelda', 'secret words', 'General', 'general', 'storage']) {
      expect(only!.raw).not.toContain(answer);
    }
    // The job carries neither the address nor answers: the handler read them from the stored submission.
    const [job] = await t.store.db
      .selectFrom('outbox')
      .select('payload')
      .where('id', '=', `${sub}.confirmation`)
      .execute();
    expect(JSON.stringify(job?.payload)).not.toMatch(/ada@example\.com|Zelda/);
  });

  it('sends no confirmation without Turnstile, and nothing at all for a submission erased before its jobs ran', async () => {
    await putForms(t, 'spc_test', [
      form('plain', {
        turnstileSiteKey: null,
        turnstileSecret: null,
        notify: [],
        confirmationEmail: CONFIRMATION,
      }),
      form('erased', { notify: ['owner@example.com'], confirmationEmail: CONFIRMATION }),
    ]);
    const plain = await submitted('plain', VALID_CONTACT);
    expect(await jobsOf(plain)).toEqual([]);

    const erased = await submitted('erased', { ...VALID_CONTACT, ...TOKEN });
    expect((await jobsOf(erased)).map((j) => j.kind)).toEqual(['notify.confirmation', 'notify.email']);
    await t.store.db.deleteFrom('submissions').where('id', '=', erased).execute();
    await drain();
    expect(smtp.messagesFor(erased)).toHaveLength(0);
    expect((await jobsOf(erased)).map((j) => j.status)).toEqual(['done', 'done']);
  });

  it('writes .eml files to the outbox directory when SMTP_URL is not set', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-eml-'));
    const config: Config = {
      ...t.config,
      mail: { ...t.config.mail, smtpUrl: null, outboxDir: join(dir, 'outbox-mail') },
    };
    const files = createJobRunner(
      { store: t.store, blobs: t.blobs, config },
      { pollMs: 20, retry: FAST_RETRY },
    );
    try {
      await putForms(t, 'spc_test', [form('eml', { notify: ['files@example.com'] })]);
      const sub = await submitted('eml', { ...VALID_CONTACT, ...TOKEN });
      await drain(files);
      expect(smtp.messagesFor(sub)).toHaveLength(0);
      const written = readdirSync(config.mail.outboxDir);
      expect(written).toHaveLength(1);
      expect(written[0]).toMatch(
        new RegExp(`^\\d{4}-\\d{2}-\\d{2}T[\\d-]+Z-${sub}\\.mail\\.[0-9a-f]{16}_folio\\.test\\.eml$`),
      );
      const mail = await simpleParser(readFileSync(join(config.mail.outboxDir, written[0]!)));
      expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : '').toBe('files@example.com');
      expect(mail.subject).toBe('New submission: Contact us');
      expect(mail.replyTo?.value.map((a) => a.address)).toEqual(['ada@example.com']);
      expect(mail.messageId).toMatch(new RegExp(`^<${sub}\\.mail\\.[0-9a-f]{16}@folio\\.test>$`));
      expect(mail.text).toContain('Name: Ada');
    } finally {
      await files.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

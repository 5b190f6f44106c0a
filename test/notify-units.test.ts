import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Condition, FormDefinition, FormField } from '../src/forms/rules/index.js';
import { PermanentJobError } from '../src/jobs/runner.js';
import { submissionAnswers } from '../src/forms/notify/answers.js';
import { CHAT_LIMITS, chatMessage, escapeChat } from '../src/forms/notify/chat-message.js';
import { confirmationEmail } from '../src/forms/notify/confirmation-email.js';
import { emailJobId, parseChatJob, parseConfirmationJob, parseEmailJob } from '../src/forms/notify/jobs.js';
import {
  describeMailTransport,
  isPermanentSmtpFailure,
  mailFromWarning,
} from '../src/forms/notify/mailer.js';
import { mailDomain, messageIdFor } from '../src/forms/notify/message-id.js';
import { ownerEmail } from '../src/forms/notify/owner-email.js';
import { notificationRecipients } from '../src/forms/notify/recipients.js';
import { visitorAddress } from '../src/forms/notify/visitor-address.js';

const many = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}@example.com`);
const topicIs = (value: string): Condition => ({
  match: 'all',
  rules: [{ field: 'topic', op: 'equals', value }],
});
const settingsOf = (settings: FormDefinition['settings']) => ({ settings });

describe('notificationRecipients (spec 2.12, 4.4 rule 6, 8)', () => {
  // [name, settings, values, expected recipients]
  const CASES: [string, FormDefinition['settings'], Record<string, unknown>, string[]][] = [
    ['no settings: nobody', {}, { topic: 'a' }, []],
    ['notify only', { notify: ['team@example.com'] }, {}, ['team@example.com']],
    [
      'matching rules add theirs, in rule order; a rule that does not match adds nothing',
      {
        notify: ['team@example.com'],
        notifyRules: [
          { when: topicIs('press'), to: ['press@example.com'] },
          { when: topicIs('sales'), to: ['sales@example.com', 'boss@example.com'] },
          { when: { match: 'any', rules: [{ field: 'vip', op: 'filled' }] }, to: ['vip@example.com'] },
        ],
      },
      { topic: 'sales', vip: 'yes' },
      ['team@example.com', 'sales@example.com', 'boss@example.com', 'vip@example.com'],
    ],
    [
      'repeats dropped ignoring case, the first spelling kept',
      {
        notify: ['Team@Example.com'],
        notifyRules: [{ when: topicIs('sales'), to: ['team@example.COM', 'sales@example.com'] }],
      },
      { topic: 'sales' },
      ['Team@Example.com', 'sales@example.com'],
    ],
    [
      'checkboxes: equals matches a ticked option (spec 2.11)',
      { notifyRules: [{ when: topicIs('b'), to: ['b@example.com'] }] },
      { topic: ['a', 'b'] },
      ['b@example.com'],
    ],
    [
      'at most 20 per submission: notify first, then the rules in order',
      {
        notify: many(10, 'n'),
        notifyRules: [
          { when: topicIs('x'), to: many(20, 'skipped') },
          { when: topicIs('sales'), to: ['N0@example.com', ...many(15, 'r')] },
          { when: topicIs('sales'), to: many(5, 'late') },
        ],
      },
      { topic: 'sales' },
      [...many(10, 'n'), ...many(10, 'r')],
    ],
  ];
  it.each(CASES)('%s', (_name, settings, values, expected) => {
    expect(notificationRecipients(settingsOf(settings), values)).toEqual(expected);
  });
});

describe('visitorAddress (spec 2.10: reply to the first email field)', () => {
  const fields: Pick<FormField, 'key' | 'type'>[] = [
    { key: 'name', type: 'text' },
    { key: 'work', type: 'email' },
    { key: 'home', type: 'email' },
  ];
  it.each([
    [
      'the first email field',
      { name: 'x@example.com', work: 'w@example.com', home: 'h@example.com' },
      'w@example.com',
    ],
    ['the next one when the first was not stored (hidden)', { home: 'h@example.com' }, 'h@example.com'],
    ['none given', { name: 'Ada' }, null],
    ['a value that would become two recipients', { work: 'a,b@example.com' }, null],
    ['a value with a display-name form', { work: 'Eve<eve@example.com' }, null],
    ['not a string', { work: ['a@example.com'] }, null],
  ] as const)('%s', (_n, values, expected) => {
    expect(visitorAddress(fields, values)).toBe(expected);
  });
});

describe('escapeChat and chatMessage (Slack incoming webhooks)', () => {
  it.each([
    ['<!channel> hello', '&lt;!channel&gt; hello'],
    ['@here @everyone @channel', '@\u200bhere @\u200beveryone @\u200bchannel'],
    ['<https://evil.example|click>', '&lt;https:\u200b//evil.example|click&gt;'],
    ['see www.evil.example', 'see www\u200b.evil.example'],
    ['a & b', 'a &amp; b'],
    ['<@U12345>', '&lt;@\u200bU12345&gt;'],
  ])('escapes %j', (raw, escaped) => {
    expect(escapeChat(raw)).toBe(escaped);
  });

  it('stays inside Slack limits for many long answers', () => {
    const answers = Array.from({ length: 60 }, (_, i) => ({
      key: `f${i}`,
      label: `Field ${i}`,
      kind: 'text' as const,
      text: `${'&'.repeat(900)}${'x'.repeat(9000)}`,
    }));
    const msg = chatMessage({ formName: 'F'.repeat(400), answers, page: null, submittedAt: 'now' });
    expect(msg.blocks.length).toBe(CHAT_LIMITS.blocks);
    expect(msg.text.length).toBeLessThanOrEqual(CHAT_LIMITS.text);
    for (const block of msg.blocks) {
      const texts =
        block.type === 'header'
          ? [block.text]
          : block.type === 'context'
            ? block.elements
            : [...(block.fields ?? []), ...(block.text ? [block.text] : [])];
      for (const t of texts) {
        expect(t.type).toBe('plain_text');
        expect(t.text.length).toBeLessThanOrEqual(CHAT_LIMITS.sectionText);
        expect(t.text).not.toMatch(/&[a-z]{0,3}…$/);
      }
    }
    expect(JSON.stringify(msg.blocks.at(-2))).toContain('13 more answers');
  });
});

describe('owner email and answers', () => {
  const form: Pick<FormDefinition, 'fields'> = {
    fields: [
      { key: 'intro', type: 'heading', label: 'Hello' },
      { key: 'topic', type: 'select', label: 'Topic', options: [{ value: 'sales', label: 'Sales' }] },
      { key: 'note', type: 'textarea', label: 'Note', translations: { de: { label: 'Notiz' } } },
      { key: 'ok', type: 'checkbox', label: 'Newsletter' },
      { key: 'hidden', type: 'text', label: 'Hidden by condition' },
      { key: 'files', type: 'file', label: 'Files', maxFiles: 2 },
    ],
  };
  const values = {
    topic: 'sales',
    note: 'one\ntwo',
    ok: false,
    files: ['fup_aaaaaaaa', 'fup_gone0000'],
    old: 'kept',
  };
  const files = new Map([['fup_aaaaaaaa', { name: 'a.pdf', size: 2048 }]]);

  it('lists stored answers in form order, default-locale labels, options with labels, Yes/No, then unknown keys', () => {
    const answers = submissionAnswers({ form, values, defaultLocale: 'en', lists: {}, files });
    expect(answers.map((a) => a.label)).toEqual(['Topic', 'Note', 'Newsletter', 'Files', 'old']);
    const mail = ownerEmail({
      formName: 'Sales\r\nBcc: x@example.com',
      formKey: 'sales',
      submissionId: 'sub_1',
      answers,
      page: 'https://site.example/x',
      submittedAt: '2026-01-01T00:00:00.000Z',
      locale: 'de',
      timeZone: 'Europe/Zurich',
      replyToVisitor: true,
      fileUrl: (id) => `https://folio.example/files/${id}`,
      linksExpireAt: new Date('2026-01-04T00:00:00.000Z'),
      values,
    });
    expect(mail.subject).toBe('New submission: Sales Bcc: x@example.com');
    expect(mail.text).toContain(
      [
        'Topic: Sales (sales)',
        'Note:',
        '  one',
        '  two',
        'Newsletter: No',
        'Files:',
        '  - a.pdf (2.0 KB): https://folio.example/files/fup_aaaaaaaa',
        '  - fup_gone0000 (no longer stored)',
        'old: kept',
      ].join('\n'),
    );
    expect(mail.text).not.toContain('Hidden by condition');
    expect(mail.text).not.toContain('Notiz');
    // The space's time zone, links that say until when they open, an HTML part saying the same.
    expect(mail.text).toContain('Submitted: 1 Jan 2026, 01:00 (Europe/Zurich)');
    expect(mail.text).toContain('File links open without a login until 4 Jan 2026, 01:00 (Europe/Zurich).');
    expect(mail.html).toContain('<a href="https://folio.example/files/fup_aaaaaaaa">a.pdf</a> (2.0 KB)');
    expect(mail.html).toContain('Sales (sales)');
    expect(mail.html).not.toContain('Bcc: x@example.com\r');
  });

  it('fills the form subject and intro templates, and writes consent as a sentence without a double colon', () => {
    const consentForm: FormDefinition = {
      key: 'c',
      name: 'Callback <now>',
      fields: [
        { key: 'name', type: 'text', label: 'Your name?' },
        { key: 'agree', type: 'consent', label: 'My details are stored for 30 days.', required: true },
      ],
      settings: {},
    };
    const stored = { name: 'Ada <b>', agree: true };
    const mail = ownerEmail({
      formName: consentForm.name,
      formKey: 'c',
      submissionId: 'sub_2',
      answers: submissionAnswers({
        form: consentForm,
        values: stored,
        defaultLocale: 'en',
        lists: {},
        files,
      }),
      page: null,
      submittedAt: '2026-07-01T12:30:00.000Z',
      locale: 'en',
      timeZone: 'America/New_York',
      replyToVisitor: false,
      fileUrl: () => '',
      linksExpireAt: new Date('2026-07-04T12:30:00.000Z'),
      subjectTemplate: '{field:name} asked for a call\r\n({form}, {date})',
      introTemplate: 'Please call {field:name} back. {unknown}',
      values: stored,
    });
    expect(mail.subject).toBe(
      'Ada <b> asked for a call (Callback <now>, 1 Jul 2026, 08:30 (America/New_York))',
    );
    expect(mail.text).toMatch(/^Please call Ada <b> back\. \{unknown\}\n/);
    expect(mail.text).toContain('Your name? Ada <b>');
    expect(mail.text).toContain('The visitor agreed to: “My details are stored for 30 days.”');
    expect(mail.text).not.toMatch(/\.: Yes|\?:/);
    expect(mail.html).toContain('Please call Ada &lt;b&gt; back.');
    expect(mail.html).not.toContain('<b>');
  });

  it('labels by key when the form was deleted, recognising the claimed uploads', () => {
    const answers = submissionAnswers({ form: null, values, defaultLocale: 'en', lists: {}, files });
    expect(answers.map((a) => [a.label, a.kind])).toEqual([
      ['topic', 'text'],
      ['note', 'text'],
      ['ok', 'text'],
      // One of the two is gone, so the value is not known to be files.
      ['files', 'text'],
      ['old', 'text'],
    ]);
  });
});

describe('confirmationEmail (spec 4.4 rule 6: in the visitor language)', () => {
  const settings = {
    confirmationEmail: {
      subject: { en: 'Thanks', de: 'Danke' },
      body: { en: 'We got it.', de: 'Erhalten.' },
    },
  };
  it.each([
    [['de-ch', 'de', 'en'], { subject: 'Danke', text: 'Erhalten.\n' }],
    [['fr', 'en'], { subject: 'Thanks', text: 'We got it.\n' }],
    [['fr'], null],
  ] as const)('chain %j', (chain, expected) => {
    expect(confirmationEmail(settings, chain)).toEqual(expected);
  });
});

describe('payload parsing: malformed payloads are permanent failures', () => {
  const good = { submissionId: 'sub_1', formKey: 'contact', cv: 3 };
  it('parses what enqueueNotifications writes', () => {
    expect(parseEmailJob({ ...good, to: 'a@example.com' })).toEqual({ ...good, to: 'a@example.com' });
    expect(parseChatJob({ ...good, url: 'https://hooks.example/x' })).toEqual({
      ...good,
      url: 'https://hooks.example/x',
    });
    expect(parseConfirmationJob({ ...good, extra: 1 })).toEqual(good);
  });

  it('throws only PermanentJobError on junk', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (junk) => {
        for (const parse of [parseEmailJob, parseChatJob, parseConfirmationJob]) {
          try {
            parse(junk);
          } catch (err) {
            if (!(err instanceof PermanentJobError)) return false;
          }
        }
        return true;
      }),
    );
    expect(() => parseEmailJob({ ...good, cv: '3', to: 'a@example.com' })).toThrow(PermanentJobError);
    expect(() => parseConfirmationJob(null)).toThrow(/malformed notify.confirmation payload/);
  });
});

describe('Message-IDs and SMTP failures', () => {
  it('builds a stable Message-ID from the job id and the domain of MAIL_FROM', () => {
    expect(mailDomain('Folio <forms@Example.com>')).toBe('example.com');
    expect(mailDomain('forms@mail.example.com')).toBe('mail.example.com');
    const id = emailJobId('sub_1', 'Team@Example.com');
    expect(id).toBe(emailJobId('sub_1', 'team@example.com'));
    expect(id).toMatch(/^sub_1\.mail\.[0-9a-f]{16}$/);
    expect(messageIdFor(id, 'Folio <forms@example.com>')).toBe(`${id}@example.com`);
  });

  it.each([
    [{ responseCode: 550, command: 'RCPT TO' }, true],
    [{ responseCode: 554, command: 'DATA' }, true],
    [{ responseCode: 552, command: 'MAIL FROM' }, true],
    [{ responseCode: 451, command: 'DATA' }, false],
    [{ responseCode: 421, command: 'CONN' }, false],
    // Our login or the relay refusing us: fixable by the operator, so retried.
    [{ responseCode: 535, command: 'AUTH PLAIN' }, false],
    [{ code: 'ECONNREFUSED' }, false],
    [null, false],
  ])('%j permanent: %s', (err, permanent) => {
    expect(isPermanentSmtpFailure(err)).toBe(permanent);
  });

  it('describes the transport without credentials', () => {
    const outboxDir = '/data/outbox-mail';
    expect(
      describeMailTransport({ smtpUrl: 'smtps://user:pw@smtp.example.com:465', from: 'a@b.c', outboxDir }),
    ).toBe('SMTP smtp.example.com:465 (TLS)');
    expect(describeMailTransport({ smtpUrl: null, from: 'a@b.c', outboxDir })).toBe(
      'no SMTP_URL: notification email is written to /data/outbox-mail as .eml files',
    );
  });
});

describe('the startup warning about MAIL_FROM', () => {
  const mail = (from: string, fromIsDefault: boolean) => ({
    smtpUrl: null,
    from,
    outboxDir: '/x',
    fromIsDefault,
  });
  it('warns when the sender is made up from a host that is not a domain', () => {
    for (const from of [
      'Folio <folio@127.0.0.1>',
      'Folio <folio@localhost>',
      'Folio <folio@[::1]>',
      'Folio <folio@box>',
    ])
      expect([from, mailFromWarning(mail(from, true))]).toEqual([
        from,
        expect.stringContaining('Set MAIL_FROM'),
      ]);
  });
  it('is quiet with MAIL_FROM set, or a made-up sender on a domain', () => {
    expect(mailFromWarning(mail('Folio <folio@127.0.0.1>', false))).toBeNull();
    expect(mailFromWarning(mail('Folio <folio@forms.example.com>', true))).toBeNull();
  });
});

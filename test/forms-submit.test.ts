import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines.js';
import { TOKENS } from './helpers/fixture.js';
import { contactForm, emailForm, VALID_CONTACT } from './helpers/form-defs.js';
import { type FormsApp, formClient, openFormsApp, putForms, VISITOR_IP } from './helpers/forms.js';

const base = '/v1/spc_test';
const auth = { authorization: `Bearer ${TOKENS.public}` };

describe.each(ENGINES)('form submissions on %s (spec 4.4)', (engine) => {
  let t: FormsApp;
  beforeAll(async () => {
    t = await openFormsApp(engine);
    await putForms(t, 'spc_test', [
      contactForm(),
      emailForm('capped', { maxSubmissions: 2 }),
      emailForm('unique', { uniqueField: 'email' }),
      emailForm('off', { active: false, closedMessage: { en: 'We are closed.', de: 'Geschlossen.' } }),
      emailForm('later', { opensAt: '2026-04-01T00:00:00.000Z' }),
      emailForm('ended', { closesAt: '2026-03-01T00:00:00.000Z' }),
      emailForm('trap', { honeypot: 'hp_field', maxSubmissions: 1 }),
    ]);
  });
  afterAll(async () => t.close());

  const { submit, rows } = formClient(() => t);

  describe('accepted submissions', () => {
    it('answers ok with the success message in the visitor language and stores the visible values', async () => {
      const res = await submit(
        'contact',
        { ...VALID_CONTACT, _locale: 'de-ch', _page: 'https://site.example/kontakt' },
        {
          headers: { 'user-agent': 'TestBrowser/1.0', referer: 'https://site.example/ignored' },
        },
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true, successMessage: 'Danke!' });
      expect(res.headers['cache-control']).toBe('no-store');
      const [stored] = await rows('contact');
      expect(stored).toMatchObject({
        form: 'contact',
        folder: 'inbox',
        values: { name: 'Ada', email: 'ada@example.com', topic: 'general', message: 'Hello', consent: true },
        page: 'https://site.example/kontakt',
        locale: 'de-ch',
        userAgent: 'TestBrowser/1.0',
        // spec 2.10: the consent wording the visitor agreed to, in their language (de-ch falls back to de).
        consent: {
          consent: {
            label: 'Ich stimme der Speicherung zu.',
            link: { label: 'Datenschutz', url: 'https://site.example/de/datenschutz' },
          },
        },
      });
      expect(stored?.id).toMatch(/^sub_/);
    });

    it('never stores the IP address (spec 2.13)', async () => {
      await submit('contact', VALID_CONTACT);
      const all = await t.store.db.selectFrom('submissions').selectAll().execute();
      expect(all.length).toBeGreaterThan(0);
      expect(JSON.stringify(all)).not.toContain(VISITOR_IP);
    });

    it('takes the page from the Referer when _page is absent, and drops values of hidden fields', async () => {
      const res = await submit(
        'contact',
        { ...VALID_CONTACT, topic: 'press', message: 'hidden' },
        {
          headers: { referer: 'https://site.example/contact?x=1' },
        },
      );
      expect(res.status).toBe(200);
      const [stored] = await rows('contact');
      expect(stored?.page).toBe('https://site.example/contact?x=1');
      expect(stored?.locale).toBe('en');
      expect(stored?.values).toEqual({
        name: 'Ada',
        email: 'ada@example.com',
        topic: 'press',
        consent: true,
      });
    });

    it('enqueues a form.submitted event in the same transaction (spec 6), naming the submission', async () => {
      const res = await submit('contact', { ...VALID_CONTACT, name: 'Event Ada' });
      expect(res.status).toBe(200);
      const [stored] = await rows('contact');
      const jobs = await t.store.db
        .selectFrom('outbox')
        .selectAll()
        .where('kind', '=', 'event')
        .where('submission_id', '=', String(stored?.id))
        .execute();
      const events = jobs.map((j) =>
        t.store.dialect.parseJson<{ type: string; data: Record<string, unknown> }>(j.payload),
      );
      // Ids only: the webhook reads the values from the stored submission when it is sent.
      expect(events).toEqual([
        expect.objectContaining({
          type: 'form.submitted',
          data: {
            form: 'contact',
            submissionId: stored?.id,
            submittedAt: stored?.createdAt,
            cv: expect.any(Number),
          },
        }),
      ]);
    });

    it('accepts the token in the query string (spec 5 rule 4) and rejects unknown parameters', async () => {
      const ok = await submit('contact', VALID_CONTACT, {
        url: `${base}/forms/contact/submissions?token=${TOKENS.public}`,
        headers: { authorization: '' },
      });
      expect(ok.status).toBe(200);
      const bad = await submit('contact', VALID_CONTACT, { url: `${base}/forms/contact/submissions?x=1` });
      expect([bad.status, bad.body.error.code]).toEqual([400, 'invalid_query']);
      const none = await submit('contact', VALID_CONTACT, { headers: { authorization: '' } });
      expect([none.status, none.body.error.code]).toEqual([401, 'unauthorized']);
    });
  });

  describe('status (spec 3.1)', () => {
    it('answers 409 form_closed with the closed message when switched off or after closesAt', async () => {
      const off = await submit('off', { email: 'a@example.com', _locale: 'de' });
      expect(off.status).toBe(409);
      expect(off.body.error).toMatchObject({ code: 'form_closed', message: 'Geschlossen.' });
      const ended = await submit('ended', { email: 'a@example.com' });
      expect([ended.status, ended.body.error.code]).toEqual([409, 'form_closed']);
    });

    it('answers 409 form_not_open before opensAt, and accepts once the time comes', async () => {
      const early = await submit('later', { email: 'a@example.com' });
      expect([early.status, early.body.error.code]).toEqual([409, 'form_not_open']);
      const before = t.clock.current;
      t.clock.current = new Date('2026-04-01T00:00:00.000Z');
      try {
        expect((await submit('later', { email: 'a@example.com' })).status).toBe(200);
      } finally {
        t.clock.current = before;
      }
    });

    it('answers 409 form_full once maxSubmissions are stored, and delivers status full', async () => {
      expect((await submit('capped', { email: 'one@example.com' })).status).toBe(200);
      const invalid = await submit('capped', { email: 'not an address' });
      expect(invalid.status).toBe(422);
      expect((await submit('capped', { email: 'two@example.com' })).status).toBe(200);
      const full = await submit('capped', { email: 'three@example.com' });
      expect([full.status, full.body.error.code]).toEqual([409, 'form_full']);
      // A full form answers form_full before checking values (spec 3.1 "submissions answer 409").
      const fullInvalid = await submit('capped', { email: 'x' });
      expect(fullInvalid.body.error.code).toBe('form_full');
      expect(await rows('capped')).toHaveLength(2);
      const delivered = await t.inject({ method: 'GET', url: `${base}/forms/capped`, headers: auth });
      expect(delivered.body.form.status).toBe('full');
    });
  });

  describe('spam trap (spec 3.2)', () => {
    it('answers like a success, keeps the submission in the spam folder and does not count it', async () => {
      const res = await submit('trap', { email: 'bot@example.com', hp_field: 'http://spam.example' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true, successMessage: expect.any(String) });
      expect(await rows('trap')).toHaveLength(0);
      const spam = await rows('trap', 'spam');
      expect(spam).toHaveLength(1);
      expect(spam[0]?.values).toMatchObject({ email: 'bot@example.com' });
      const deleteAfter = Date.parse(String(spam[0]?.deleteAfter)) - Date.parse(String(spam[0]?.createdAt));
      expect(deleteAfter).toBe(30 * 86_400_000);
      // Spam is not counted: the one place of capacity is still free, and no event was sent for it.
      expect((await submit('trap', { email: 'human@example.com' })).status).toBe(200);
      const jobs = await t.store.db.selectFrom('outbox').select('payload').execute();
      expect(JSON.stringify(jobs)).not.toContain('bot@example.com');
    });
  });

  describe('uniqueField (spec 2.12)', () => {
    it('answers 409 already_submitted for the same address in any letter case', async () => {
      expect((await submit('unique', { email: 'Ada@Example.com' })).status).toBe(200);
      const again = await submit('unique', { email: 'ada@example.COM' }, { encoding: 'urlencoded' });
      expect([again.status, again.body.error.code]).toEqual([409, 'already_submitted']);
      expect((await submit('unique', { email: 'bob@example.com' })).status).toBe(200);
      expect(await rows('unique')).toHaveLength(2);
    });
  });
});

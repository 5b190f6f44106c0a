import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TURNSTILE_TEST_SECRETS } from '../src/forms/submission/turnstile.js';
import { draftValues } from '../src/forms/submission/drafts.js';
import type { FormField } from '../src/forms/rules/index.js';
import { ENGINES } from './helpers/engines.js';
import { SITE_ORIGIN, TOKENS } from './helpers/fixture.js';
import { contactForm, emailForm } from './helpers/form-defs.js';
import { encode, type FormPairs, type FormsApp, openFormsApp, putForms } from './helpers/forms.js';

// A failed plain post comes back whole (fields and codes in the redirect, the typed values
// in a single-use draft), and Folio's own result page speaks the visitor's language with labels, never keys.

const base = '/v1/spc_test';
const TYPED: FormPairs = [
  ['name', 'Ada Lovelace'],
  ['email', 'not-an-address'],
  ['topic', 'press'],
  ['message', 'Hello & <welcome>'],
  ['tags', 'a'],
  ['tags', 'c'],
  ['_redirect', `${SITE_ORIGIN}/thanks`],
  ['_redirect_error', `${SITE_ORIGIN}/contact`],
];

describe.each(ENGINES)('plain posts that come back whole on %s', (engine) => {
  let t: FormsApp;
  beforeAll(async () => {
    t = await openFormsApp(engine);
    await putForms(t, 'spc_test', [
      contactForm(),
      emailForm('guarded', { turnstileSiteKey: 'site-key', turnstileSecret: TURNSTILE_TEST_SECRETS.pass }),
    ]);
  });
  afterAll(async () => t.close());

  async function post(pairs: FormPairs, opts: { token?: string; form?: string } = {}) {
    const { payload, contentType } = await encode('urlencoded', pairs);
    return t.inject({
      method: 'POST',
      url: `${base}/forms/${opts.form ?? 'contact'}/submissions?token=${opts.token ?? TOKENS.publicOrigins}`,
      payload,
      headers: { 'content-type': contentType, accept: 'text/html,*/*;q=0.8' },
    });
  }
  const readDraft = (id: string, form = 'contact', token = TOKENS.publicOrigins) =>
    t.inject({
      method: 'GET',
      url: `${base}/forms/${form}/drafts/${id}`,
      headers: { authorization: `Bearer ${token}` },
    });
  const redirect = (res: { headers: Record<string, unknown> }) => new URL(String(res.headers.location));
  const drafts = async () => (await t.store.db.selectFrom('form_drafts').select('id').execute()).length;

  it('redirects with the failing fields and a draft id, and no typed value in the URL', async () => {
    const res = await post(TYPED);
    expect(res.status).toBe(303);
    const to = redirect(res);
    expect(to.searchParams.get('error')).toBe('validation_failed');
    // The message was typed for a topic that hides it: the visitor is told it would not be sent.
    expect(to.searchParams.get('fields')).toBe(
      'email:invalid_email,message:not_applicable,consent:must_be_checked',
    );
    for (const typed of ['Ada', 'not-an-address', 'press', 'Hello']) expect(to.href).not.toContain(typed);
  });

  it('gives the typed values back on every read for ten minutes, to the form they were typed into', async () => {
    const id = redirect(await post(TYPED)).searchParams.get('draft') ?? '';
    expect(id).toMatch(/^drf_[0-9A-Za-z]{24}$/);
    // Another form's key does not read it (nor spend it).
    expect((await readDraft(id, 'guarded')).status).toBe(404);
    const first = await readDraft(id);
    expect(first.status, first.text).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.body).toEqual({
      values: {
        name: 'Ada Lovelace',
        email: 'not-an-address',
        topic: 'press',
        message: 'Hello & <welcome>',
        tags: ['a', 'c'],
      },
    });
    // A reload of the error page reads it again: the form is not emptied.
    const second = await readDraft(id);
    expect([second.status, second.body]).toEqual([200, first.body]);
    // Reading needs a token of the space.
    const anonymous = await t.inject({ method: 'GET', url: `${base}/forms/contact/drafts/${id}` });
    expect(anonymous.status).toBe(401);
  });

  it('answers HEAD without consuming or caching the draft', async () => {
    const id = redirect(await post(TYPED)).searchParams.get('draft') ?? '';
    for (let i = 0; i < 3; i++) {
      const head = await t.inject({
        method: 'HEAD',
        url: `${base}/forms/contact/drafts/${id}`,
        headers: { authorization: `Bearer ${TOKENS.publicOrigins}` },
      });
      expect([head.status, head.text, head.headers['cache-control']]).toEqual([200, '', 'no-store']);
    }
    const read = await readDraft(id);
    expect([read.status, read.body.values.name]).toEqual([200, 'Ada Lovelace']);
  });

  it('is gone after ten minutes, read or not', async () => {
    const id = redirect(await post(TYPED)).searchParams.get('draft') ?? '';
    const before = t.clock.current;
    t.clock.current = new Date(before.getTime() + 10 * 60_000 + 1000);
    try {
      expect((await readDraft(id)).status).toBe(404);
      // A new draft clears every expired one from the store.
      const fresh = redirect(await post(TYPED)).searchParams.get('draft') ?? '';
      expect(await drafts()).toBe(1);
      expect((await readDraft(fresh)).status).toBe(200);
      expect((await readDraft(fresh)).status).toBe(200);
      expect(await drafts()).toBe(1);
    } finally {
      t.clock.current = before;
    }
  });

  it('keeps nothing for spam, for Turnstile forms, or for a post that passed', async () => {
    const kept = await drafts();
    const trapped = await post([...TYPED, ['website', 'http://spam.example']]);
    expect([trapped.status, trapped.headers.location]).toEqual([303, `${SITE_ORIGIN}/thanks`]);
    const guarded = await post(
      [
        ['email', 'nope'],
        ['_redirect', `${SITE_ORIGIN}/thanks`],
        ['_redirect_error', `${SITE_ORIGIN}/contact`],
      ],
      { form: 'guarded' },
    );
    expect(guarded.status).toBe(303);
    expect(redirect(guarded).searchParams.get('fields')).toBe('email:invalid_email');
    expect(redirect(guarded).searchParams.get('draft')).toBeNull();
    expect(await drafts()).toBe(kept);
  });

  it('answers the HTML result page in the visitor language, with labels and no double colon', async () => {
    const bad = await post(
      [
        ['name', 'Ada'],
        ['_locale', 'de'],
      ],
      { token: TOKENS.public },
    );
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('<html lang="de">');
    expect(bad.text).toContain('Das Formular wurde nicht gesendet');
    expect(bad.text).toContain('Einige Angaben fehlen oder sind ungültig.');
    expect(bad.text).toContain('E-Mail: Dieses Feld ist erforderlich.');
    // The consent label ends in a full stop: a space, no colon.
    expect(bad.text).toContain('Ich stimme der Speicherung zu. Bitte kreuzen Sie dieses Kästchen an.');
    expect(bad.text).not.toMatch(/This field|email:/);
    const good = await post(
      [
        ['name', 'Ada'],
        ['email', 'ada@example.com'],
        ['consent', 'on'],
        ['_locale', 'de-CH'],
      ],
      { token: TOKENS.public },
    );
    expect(good.status).toBe(200);
    expect(good.text).toContain('<html lang="de-ch">');
    expect(good.text).toContain('<h1>Vielen Dank</h1>');
    expect(good.text).toContain('Danke!');
  });
});

describe('what a draft keeps', () => {
  it('keeps the values of non-file fields only, and nothing that is not a field', () => {
    const fields: FormField[] = [
      { key: 'name', type: 'text', label: 'Name' },
      { key: 'cv', type: 'file', label: 'CV' },
      { key: 'agree', type: 'consent', label: 'I agree.' },
      { key: 'intro', type: 'heading', label: 'Intro' },
    ];
    expect(
      draftValues(
        { name: 'Ada', cv: ['fup_x'], agree: true, intro: 'x', _redirect: 'https://x', website: 'spam' },
        fields,
      ),
    ).toEqual({ name: 'Ada', agree: true });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type FolioClient } from '../client/src/index.js';
import { TURNSTILE_TEST_SECRETS } from '../src/forms/submission/turnstile.js';
import { failureOf, listenOnLoopback, recordingFetch } from './helpers/client.js';
import { ENGINES } from './helpers/engines.js';
import { TOKENS } from './helpers/fixture.js';
import { contactForm, emailForm, VALID_CONTACT } from './helpers/form-defs.js';
import { type FormsApp, formClient, openFormsApp, putForms } from './helpers/forms.js';

// The client's form calls (spec 4.4) against the real server over HTTP, on both engines: the
// definition, JSON submissions with the control keys, typed validation errors, uploads and their ids.

// Cloudflare's test secret that accepts any token (docs/api.md "Turnstile"), answered without a network call.
const turnstile = {
  turnstileSiteKey: '1x00000000000000000000AA',
  turnstileSecret: TURNSTILE_TEST_SECRETS.pass,
};
const TOKEN = 'XXXX.DUMMY.TOKEN.XXXX';
const PDF = '%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n';

describe.each(ENGINES)('form calls of the typed client on %s (spec 4.4)', (engine) => {
  let t: FormsApp;
  let baseUrl: string;
  let client: FolioClient;
  beforeAll(async () => {
    t = await openFormsApp(engine);
    await putForms(t, 'spc_test', [
      contactForm(),
      emailForm('off', { active: false, closedMessage: { en: 'We are closed.' } }),
      {
        key: 'apply',
        name: 'Apply',
        fields: [
          { key: 'name', type: 'text', required: true },
          { key: 'cv', type: 'file', accept: ['application/pdf'], required: true },
        ],
        settings: turnstile,
      },
    ]);
    baseUrl = await listenOnLoopback(t.app);
    client = createClient({ baseUrl, spaceId: 'spc_test', token: TOKENS.public });
  });
  afterAll(async () => t?.close());

  const { rows } = formClient(() => t);

  it('reads a form in a locale with its fields typed', async () => {
    const { form, cv } = await client.forms.get('contact', { locale: 'de' });
    expect(form).toMatchObject({ key: 'contact', locale: 'de', status: 'open', honeypot: 'website' });
    expect(form.turnstile).toBe(false);
    const topic = form.fields.find((f) => f.key === 'topic');
    expect(topic?.label).toBe('Thema');
    expect(topic?.options).toEqual([
      { value: 'general', label: 'Allgemein' },
      { value: 'press', label: 'Presse' },
    ]);
    expect(form.fields.find((f) => f.key === 'name')?.maxLength).toBe(100);
    expect(cv).toBeGreaterThan(0);
    expect(await failureOf(client.forms.get('nope'))).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('submits JSON with the visitor language and page, and answers the success message', async () => {
    const result = await client.forms.submit('contact', VALID_CONTACT, {
      locale: 'de-ch',
      page: 'https://site.example/kontakt',
    });
    expect(result).toEqual({ ok: true, successMessage: 'Danke!' });
    const [stored] = await rows('contact');
    expect(stored).toMatchObject({
      values: { name: 'Ada', email: 'ada@example.com', topic: 'general', consent: true },
      locale: 'de-ch',
      page: 'https://site.example/kontakt',
    });
  });

  it('fails with validation_failed and one typed entry per field', async () => {
    const err = await failureOf(
      client.forms.submit('contact', { name: 'x'.repeat(101), email: 'not-an-address', tags: ['a', 'z'] }),
    );
    expect(err).toMatchObject({ status: 422, code: 'validation_failed' });
    expect(err.fields).toMatchObject({
      name: { code: 'too_long', params: { max: 100 } },
      email: { code: 'invalid_email' },
      tags: { code: 'invalid_option' },
      consent: { code: expect.stringMatching(/^(required|must_be_checked)$/) },
    });
    expect(err.fields.name?.message).toEqual(expect.any(String));
    expect(Object.keys(err.details?.fields ?? {})).toEqual(Object.keys(err.fields));
  });

  it('fails with the status code of a closed form, its message the closed message', async () => {
    const err = await failureOf(client.forms.submit('off', { email: 'ada@example.com' }));
    expect(err).toMatchObject({ status: 409, code: 'form_closed', message: 'We are closed.' });
  });

  it('passes the spam trap on: a filled trap answers success and the submission goes to spam', async () => {
    const before = (await rows('contact')).length;
    const result = await client.forms.submit(
      'contact',
      { ...VALID_CONTACT, name: 'Spammer' },
      { honeypot: { name: 'website', value: 'https://spam.example' } },
    );
    expect(result.ok).toBe(true);
    expect(await rows('contact')).toHaveLength(before);
    expect((await rows('contact', 'spam')).map((r) => (r.values as { name?: string }).name)).toContain(
      'Spammer',
    );
  });

  it('uploads a file as multipart, then submits its id with the challenge token', async () => {
    const upload = await client.forms.upload('apply', 'cv', new Blob([PDF]), 'cv.pdf', {
      turnstileToken: TOKEN,
    });
    expect(upload).toEqual({
      id: expect.stringMatching(/^fup_/),
      name: 'cv.pdf',
      size: PDF.length,
      type: 'application/pdf',
    });

    // A pinned client submits too: submissions carry no cv (the route takes no query parameters).
    const { fetch, exchanges } = recordingFetch();
    const pinned = createClient({ baseUrl, spaceId: 'spc_test', token: TOKENS.public, fetch }).at(
      (await client.status()).cv,
    );
    const result = await pinned.forms.submit(
      'apply',
      { name: 'Ada', cv: upload.id },
      { turnstileToken: TOKEN },
    );
    expect(result.ok).toBe(true);
    expect(exchanges.map((e) => [e.method, e.url.search])).toEqual([['POST', '']]);
    const [stored] = await rows('apply');
    expect(stored?.values).toEqual({ name: 'Ada', cv: upload.id });

    // The same upload cannot be claimed twice.
    const again = await failureOf(
      client.forms.submit('apply', { name: 'Bo', cv: upload.id }, { turnstileToken: TOKEN }),
    );
    expect(again.fields.cv?.code).toBe('invalid_file');
  });

  it('fails an upload of the wrong type, and one without the challenge token', async () => {
    const html = new Blob(['<!DOCTYPE html><html><body>hi</body></html>'], { type: 'application/pdf' });
    const wrong = await failureOf(
      client.forms.upload('apply', 'cv', html, 'cv.pdf', { turnstileToken: TOKEN }),
    );
    expect(wrong).toMatchObject({ status: 422, code: 'validation_failed' });
    expect(wrong.fields.cv).toMatchObject({ code: 'file_type', params: { accept: 'application/pdf' } });

    const noToken = await failureOf(client.forms.upload('apply', 'cv', new Blob([PDF]), 'cv.pdf'));
    expect(noToken).toMatchObject({ status: 422, code: 'turnstile_failed' });
    const notFile = await failureOf(
      client.forms.upload('apply', 'name', new Blob([PDF]), 'cv.pdf', { turnstileToken: TOKEN }),
    );
    expect(notFile).toMatchObject({ status: 422, code: 'invalid_field' });
  });
});

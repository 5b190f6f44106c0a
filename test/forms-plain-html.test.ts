import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines.js';
import { SITE_ORIGIN, TOKENS } from './helpers/fixture.js';
import { contactForm, emailForm } from './helpers/form-defs.js';
import {
  encode,
  type Encoding,
  type FormPairs,
  type FormsApp,
  openFormsApp,
  putForms,
} from './helpers/forms.js';

// spec 4.4 "Redirect rules" and spec 5 rule 4: plain HTML posts carry the token in the action URL's query.

const base = '/v1/spc_test';
const GOOD = [
  ['name', 'Ada'],
  ['email', 'ada@example.com'],
  ['consent', 'on'],
] as const;

describe.each(ENGINES)('plain HTML posts on %s', (engine) => {
  let t: FormsApp;
  beforeAll(async () => {
    t = await openFormsApp(engine);
    await putForms(t, 'spc_test', [contactForm(), emailForm('full', { maxSubmissions: 1 })]);
  });
  afterAll(async () => t.close());

  async function post(
    pairs: FormPairs,
    opts: { token?: string; encoding?: Encoding; form?: string; headers?: Record<string, string> } = {},
  ) {
    const { payload, contentType } = await encode(opts.encoding ?? 'urlencoded', pairs);
    return t.inject({
      method: 'POST',
      url: `${base}/forms/${opts.form ?? 'contact'}/submissions?token=${opts.token ?? TOKENS.publicOrigins}`,
      payload,
      headers: {
        'content-type': contentType,
        origin: SITE_ORIGIN,
        accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
        ...opts.headers,
      },
    });
  }

  it('answers 303 to _redirect on success, in both form encodings', async () => {
    for (const encoding of ['urlencoded', 'multipart'] as const) {
      const res = await post([...GOOD, ['_redirect', `${SITE_ORIGIN}/thanks?from=form`]], { encoding });
      expect([encoding, res.status, res.headers.location]).toEqual([
        encoding,
        303,
        `${SITE_ORIGIN}/thanks?from=form`,
      ]);
    }
  });

  it('answers 303 to _redirect_error with ?error=<code>, keeping its query and fragment', async () => {
    const res = await post([
      ['name', ''],
      ['_redirect', `${SITE_ORIGIN}/thanks`],
      ['_redirect_error', `${SITE_ORIGIN}/contact?step=2#form`],
    ]);
    expect(res.status).toBe(303);
    // The failing fields and a draft id ride along (no values).
    const to = new URL(String(res.headers.location));
    expect(`${to.origin}${to.pathname}${to.hash}`).toBe(`${SITE_ORIGIN}/contact#form`);
    expect([to.searchParams.get('step'), to.searchParams.get('error')]).toEqual(['2', 'validation_failed']);
    expect(to.searchParams.get('fields')).toBe('name:required,email:required,consent:must_be_checked');
    expect(to.searchParams.get('draft')).toMatch(/^drf_[0-9A-Za-z]{24}$/);
  });

  it('without _redirect_error, returns other plain posts to the page they came from (_page, else the Referer)', async () => {
    // Browsers get Folio's own page with the form again instead (test/forms-hosted-page.test.ts).
    const notBrowser = { accept: '*/*' };
    const viaReferer = await post([['_redirect', `${SITE_ORIGIN}/thanks`]], {
      headers: { referer: `${SITE_ORIGIN}/contact?error=old`, ...notBrowser },
    });
    expect(viaReferer.status).toBe(303);
    const back = (res: { headers: Record<string, unknown> }) => {
      const to = new URL(String(res.headers.location));
      return `${to.origin}${to.pathname}?error=${to.searchParams.get('error')}`;
    };
    expect(back(viaReferer)).toBe(`${SITE_ORIGIN}/contact?error=validation_failed`);
    const viaPage = await post(
      [
        ['_redirect', `${SITE_ORIGIN}/thanks`],
        ['_page', `${SITE_ORIGIN}/kontakt`],
      ],
      { headers: notBrowser },
    );
    expect(back(viaPage)).toBe(`${SITE_ORIGIN}/kontakt?error=validation_failed`);
    const browser = await post([['_redirect', `${SITE_ORIGIN}/thanks`]], {
      headers: { referer: `${SITE_ORIGIN}/contact` },
    });
    expect([browser.status, browser.headers.location]).toEqual([422, undefined]);
    expect(browser.text).toContain(`<input type="hidden" name="_redirect" value="${SITE_ORIGIN}/thanks">`);
  });

  it('redirects form-level errors with their code (form_full)', async () => {
    const email = [['email', 'x@example.com']] as const;
    expect((await post(email, { form: 'full' })).status).toBe(200);
    const res = await post(
      [...email, ['_redirect', `${SITE_ORIGIN}/ok`], ['_redirect_error', `${SITE_ORIGIN}/sorry`]],
      {
        form: 'full',
      },
    );
    expect([res.status, res.headers.location]).toEqual([303, `${SITE_ORIGIN}/sorry?error=form_full`]);
  });

  it('never redirects off the token origins: an HTML page instead', async () => {
    const res = await post([...GOOD, ['_redirect', 'https://evil.example/phish']]);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.text).toContain('Thanks!');
    expect(res.text).not.toContain('evil.example');
    for (const target of [
      'javascript:alert(1)',
      '//evil.example/x',
      '/relative',
      `${SITE_ORIGIN}.evil.example/`,
    ]) {
      const r = await post([...GOOD, ['_redirect', target]]);
      expect([target, r.status]).toEqual([target, 200]);
    }
  });

  it('never redirects with a token that has no origins', async () => {
    const res = await post([...GOOD, ['_redirect', `${SITE_ORIGIN}/thanks`]], { token: TOKENS.public });
    expect(res.status).toBe(200);
    expect(res.headers.location).toBeUndefined();
    expect(res.text).toContain('Thanks!');
    const bad = await post(
      [
        ['name', '<script>x</script>'],
        ['_redirect_error', `${SITE_ORIGIN}/e`],
      ],
      {
        token: TOKENS.public,
      },
    );
    expect(bad.status).toBe(422);
    expect(bad.headers['content-type']).toMatch(/^text\/html/);
    // Labels, never keys.
    expect(bad.text).toContain('Email: This field is required.');
    expect(bad.text).not.toContain('<script>');
  });

  it('answers JSON to JSON bodies and to Accept: application/json, never a redirect', async () => {
    const asJson = await post([...GOOD, ['_redirect', `${SITE_ORIGIN}/thanks`]], {
      headers: { accept: 'application/json' },
    });
    expect([asJson.status, asJson.body]).toEqual([200, { ok: true, successMessage: 'Thanks!' }]);
    const { payload } = await encode('json', {
      name: 'Ada',
      email: 'ada@example.com',
      consent: true,
      _redirect: `${SITE_ORIGIN}/t`,
    });
    const json = await t.inject({
      method: 'POST',
      url: `${base}/forms/contact/submissions?token=${TOKENS.publicOrigins}`,
      payload,
      headers: { 'content-type': 'application/json', origin: SITE_ORIGIN },
    });
    expect([json.status, json.body.ok]).toEqual([200, true]);
    // fetch() sends Accept: */* — a script posting FormData gets JSON too.
    const fetchLike = await post(GOOD, { headers: { accept: '*/*' } });
    expect(fetchLike.body).toEqual({ ok: true, successMessage: 'Thanks!' });
  });

  it('redirects errors raised before the handler (bad token query) only when it knows the token', async () => {
    const res = await post([['_redirect_error', `${SITE_ORIGIN}/e`]], {
      token: 'folio_pub_Unknown0000000000000000',
    });
    expect(res.status).toBe(401);
    expect(res.headers.location).toBeUndefined();
  });
});

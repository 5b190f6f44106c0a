import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TURNSTILE_TEST_SECRETS } from '../src/forms/submission/turnstile.js';
import { ENGINES } from './helpers/engines.js';
import { SITE_ORIGIN, TOKENS } from './helpers/fixture.js';
import { contactForm, emailForm } from './helpers/form-defs.js';
import { encode, type FormPairs, type FormsApp, openFormsApp, putForms } from './helpers/forms.js';
import { parse } from './helpers/render-html.js';

// Nothing a visitor typed is lost on a plain post: Folio's own page shows the form again (errors beside fields,
// values from the posted body, nothing stored) where the site cannot; a value in a field its conditions hide is
// not dropped unseen; the result page links back to the form. JSON posts keep spec 2.11's silent drop.

const base = '/v1/spc_test';
const BROWSER = 'text/html,application/xhtml+xml,*/*;q=0.8';
const TYPED: FormPairs = [
  ['name', 'Ada "the" <Lovelace>'],
  ['email', 'not-an-address'],
  ['topic', 'general'],
  ['message', 'Line one\r\nLine & two'],
  ['tags', 'a'],
  ['tags', 'c'],
  ['consent', 'true'],
  ['_redirect', `${SITE_ORIGIN}/thanks`],
  ['_page', `${SITE_ORIGIN}/kontakt`],
  ['_locale', 'de'],
];

type Page = ReturnType<typeof parse>;

/** What the page's form shows: values and errors by field key. */
function shown(h: Page) {
  const value = (name: string) => {
    const c = h.controls.filter((e) => h.attr(e, 'name') === name);
    return c.map((e) =>
      e.name === 'select'
        ? (e.children.find((o) => 'attribs' in o && o.attribs.selected !== undefined) as Page['all'][number])
            ?.attribs.value
        : h.attr(e, 'type') === 'checkbox' || h.attr(e, 'type') === 'radio'
          ? h.attr(e, 'checked') !== undefined && h.attr(e, 'value')
          : h.attr(e, 'value'),
    );
  };
  const errors = Object.fromEntries(
    h.all
      .filter((e) => h.attr(e, 'data-folio-code') !== undefined)
      .map((e) => [h.attr(e, 'id')?.replace(/^folio-contact-f-|-error$/g, ''), h.attr(e, 'data-folio-code')]),
  );
  return { value, errors };
}

describe.each(ENGINES)('plain posts that come back whole on %s', (engine) => {
  let t: FormsApp;
  beforeAll(async () => {
    t = await openFormsApp(engine);
    await putForms(t, 'spc_test', [
      contactForm(),
      emailForm('guarded', { turnstileSiteKey: 'site-key', turnstileSecret: TURNSTILE_TEST_SECRETS.fail }),
    ]);
  });
  afterAll(async () => t.close());

  async function post(
    pairs: FormPairs,
    opts: { token?: string; form?: string; accept?: string; json?: boolean } = {},
  ) {
    const { payload, contentType } = await encode(
      opts.json === true ? 'json' : 'urlencoded',
      opts.json === true ? Object.fromEntries(pairs) : pairs,
    );
    return t.inject({
      method: 'POST',
      url: `${base}/forms/${opts.form ?? 'contact'}/submissions?token=${opts.token ?? TOKENS.publicOrigins}`,
      payload,
      headers: { 'content-type': contentType, accept: opts.accept ?? BROWSER, origin: SITE_ORIGIN },
    });
  }
  const drafts = async () => (await t.store.db.selectFrom('form_drafts').select('id').execute()).length;
  const stored = async (name: string) =>
    (await t.store.db.selectFrom('submissions').select(['values', 'folder']).execute())
      .map((r) => t.store.dialect.parseJson<Record<string, unknown>>(r.values))
      .filter((v) => v['name'] === name);

  it('shows the form again without _redirect_error: errors beside fields, every value back, in the visitor language', async () => {
    const before = await drafts();
    const res = await post(TYPED);
    expect(res.status).toBe(422);
    expect(res.headers.location).toBeUndefined();
    const h = parse(res.text);
    const { value, errors } = shown(h);
    expect(errors).toEqual({ email: 'invalid_email' });
    expect(h.text(h.byId('folio-contact-f-email-error'))).toBe('Geben Sie eine gültige E-Mail-Adresse ein.');
    expect(h.attr(h.byId('folio-contact-f-email'), 'aria-invalid')).toBe('true');
    expect([value('name'), value('email'), value('topic')]).toEqual([
      ['Ada "the" <Lovelace>'],
      ['not-an-address'],
      ['general'],
    ]);
    // The textarea as typed, line break included (its leading newline is the one HTML drops).
    expect(res.text).toMatch(/<textarea[^>]*>\nLine one\r\nLine &amp; two<\/textarea>/);
    expect(value('tags')).toEqual(['a', false, 'c']);
    expect(value('consent')).toEqual(['true']);
    expect(h.attr(h.tag('html')[0]!, 'lang')).toBe('de');
    expect(h.text(h.tag('h1')[0]!)).toBe('Das Formular wurde nicht gesendet');
    // Posting back to Folio with the original controls, and a link back to the page.
    const form = h.tag('form')[0]!;
    expect(h.attr(form, 'action')).toBe(
      `/v1/spc_test/forms/contact/submissions?token=${TOKENS.publicOrigins}`,
    );
    const hidden = Object.fromEntries(
      h.controls
        .filter((e) => h.attr(e, 'type') === 'hidden')
        .map((e) => [h.attr(e, 'name'), h.attr(e, 'value')]),
    );
    expect(hidden).toMatchObject({
      _redirect: `${SITE_ORIGIN}/thanks`,
      _page: `${SITE_ORIGIN}/kontakt`,
      _locale: 'de',
    });
    expect(h.all.some((e) => e.name === 'a' && h.attr(e, 'href') === `${SITE_ORIGIN}/kontakt`)).toBe(true);
    // Nothing was stored for it.
    expect(await drafts()).toBe(before);
  });

  it('holds a strict CSP: styles (forms.css) only under the response nonce, no script runs or loads', async () => {
    const res = await post(TYPED);
    const csp = String(res.headers['content-security-policy']);
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1] ?? '';
    expect(nonce).toMatch(/^[A-Za-z0-9+/=]{20,}$/);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`form-action 'self' ${SITE_ORIGIN}`);
    expect(csp).not.toContain('unsafe-inline');
    const h = parse(res.text);
    const styles = h.tag('style');
    expect(styles.length).toBeGreaterThan(0);
    for (const s of styles) expect(h.attr(s, 'nonce')).toBe(nonce);
    expect(res.text).toContain('--folio-accent');
    expect(h.tag('script').filter((s) => h.attr(s, 'type') !== 'application/json')).toEqual([]);
    expect(h.tag('link')).toEqual([]);
    // Another response, another nonce.
    const again = String((await post(TYPED)).headers['content-security-policy']);
    expect(again).not.toContain(nonce);
  });

  it('shows the form again where the site asks for it (_error_page=folio), else redirects with a draft', async () => {
    const withError: FormPairs = [...TYPED, ['_redirect_error', `${SITE_ORIGIN}/kontakt`]];
    const redirected = await post(withError);
    expect(redirected.status).toBe(303);
    expect(new URL(String(redirected.headers.location)).searchParams.get('draft')).toMatch(/^drf_/);
    const hosted = await post([...withError, ['_error_page', 'folio']]);
    expect(hosted.status).toBe(422);
    const h = parse(hosted.text);
    expect(shown(h).value('name')).toEqual(['Ada "the" <Lovelace>']);
    // The form keeps asking for Folio's page, and still names the site's error page.
    const hidden = h.controls.filter((e) => h.attr(e, 'type') === 'hidden').map((e) => h.attr(e, 'name'));
    expect(hidden).toEqual(expect.arrayContaining(['_error_page', '_redirect_error']));
  });

  it('shows a closed form its closed message and a way back, not the fields', async () => {
    await putForms(t, 'spc_test', [
      contactForm(),
      contactForm('closed', { active: false }),
      emailForm('guarded', { turnstileSiteKey: 'site-key', turnstileSecret: TURNSTILE_TEST_SECRETS.fail }),
    ]);
    const res = await post(TYPED, { form: 'closed' });
    expect(res.status).toBe(409);
    const h = parse(res.text);
    expect(h.text(h.tag('main')[0]!)).toContain('Zurzeit geschlossen.');
    expect(h.tag('form')).toEqual([]);
    expect(h.all.some((e) => e.name === 'a' && h.attr(e, 'href') === `${SITE_ORIGIN}/kontakt`)).toBe(true);
  });

  it('never shows back what was posted to a Turnstile form', async () => {
    const res = await post([['email', 'secret@example.com']], { form: 'guarded' });
    expect(res.status).toBe(422);
    expect(res.text).not.toContain('secret@example.com');
    expect(shown(parse(res.text)).value('email')).toEqual([undefined]);
  });

  it('refuses a value in a field its conditions hide until the visitor was told, then sends the form without it', async () => {
    const hiddenMessage: FormPairs = [
      ['name', 'Grace'],
      ['email', 'grace@example.com'],
      ['topic', 'press'],
      ['message', 'Typed for a general question'],
      ['consent', 'true'],
    ];
    const res = await post(hiddenMessage);
    expect(res.status).toBe(422);
    const h = parse(res.text);
    expect(shown(h).errors).toEqual({ message: 'not_applicable' });
    // Told beside the field, with its condition in words, and the value still there.
    expect(h.text(h.byId('folio-contact-f-message-when'))).toBe('Only if “Topic” is “General”.');
    expect(h.text(h.byId('folio-contact-f-message-error'))).toContain('will not be sent');
    expect(res.text).toMatch(/<textarea[^>]*>\nTyped for a general question<\/textarea>/);
    expect(h.text(h.byId('folio-contact-alert'))).toContain('do not fit your other answers');
    const drop = h.controls.filter((e) => h.attr(e, 'name') === '_drop').map((e) => h.attr(e, 'value'));
    expect(drop).toEqual(['message']);
    expect(await stored('Grace')).toEqual([]);
    // Told, but another answer fails: the page keeps saying it (and keeps _drop), so the next post does not ask again.
    const stillWrong = await post([
      ...hiddenMessage.filter(([k]) => k !== 'email'),
      ['email', 'x'],
      ['_drop', 'message'],
    ]);
    const w = parse(stillWrong.text);
    expect(shown(w).errors).toEqual({ email: 'invalid_email', message: 'not_applicable' });
    expect(w.controls.filter((e) => h.attr(e, 'name') === '_drop').map((e) => h.attr(e, 'value'))).toEqual([
      'message',
    ]);
    // Sent again as the page has it: the form goes, without the answer the visitor was told about.
    const again = await post([...hiddenMessage, ['_drop', 'message']]);
    expect(again.status).toBe(200);
    expect(again.text).toContain('Thanks!');
    expect(await stored('Grace')).toEqual([expect.not.objectContaining({ message: expect.anything() })]);
  });

  it('keeps spec 2.11 for JSON: a hidden field value is dropped without a word', async () => {
    const res = await post(
      [
        ['name', 'Hedy'],
        ['email', 'hedy@example.com'],
        ['topic', 'press'],
        ['message', 'Dropped'],
        ['consent', 'true'],
      ],
      { json: true, accept: 'application/json' },
    );
    expect([res.status, res.body.ok]).toEqual([200, true]);
    expect(await stored('Hedy')).toEqual([expect.not.objectContaining({ message: expect.anything() })]);
  });

  it('takes the form posted back from Folio’s own page, whatever origins the token names', async () => {
    const own = new URL(t.config.publicUrl).origin;
    const send = (origin: string) =>
      t.inject({
        method: 'POST',
        url: `${base}/forms/contact/submissions?token=${TOKENS.publicOrigins}`,
        payload: 'name=Ada&email=nope',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: BROWSER, origin },
      });
    expect((await send(own)).status).toBe(422);
    expect((await send('https://elsewhere.example')).status).toBe(403);
  });

  it('links the result page back to the form and styles it under a nonce', async () => {
    const res = await post(
      [
        ['name', 'Ada'],
        ['email', 'ada@example.com'],
        ['consent', 'true'],
        ['_page', `${SITE_ORIGIN}/kontakt`],
      ],
      { token: TOKENS.public },
    );
    expect(res.status).toBe(200);
    const h = parse(res.text);
    const link = h.all.find((e) => e.name === 'a' && h.attr(e, 'href') === `${SITE_ORIGIN}/kontakt`);
    expect(link && h.text(link)).toBe('Go back to the form');
    const nonce = /'nonce-([^']+)'/.exec(String(res.headers['content-security-policy']))?.[1];
    expect(h.attr(h.tag('style')[0]!, 'nonce')).toBe(nonce);
    // A page that is not http(s) gets no link.
    const odd = await post(
      [
        ['name', 'Ada'],
        ['email', 'ada2@example.com'],
        ['consent', 'true'],
        ['_page', 'javascript:alert(1)'],
      ],
      { token: TOKENS.public },
    );
    expect(odd.text).not.toContain('javascript:');
  });
});

describe('a visitor over the rate limit', () => {
  let t: FormsApp;
  beforeAll(async () => {
    t = await openFormsApp('sqlite', { rateLimitVisitorPerMinute: 2 });
    await putForms(t, 'spc_test', [contactForm()]);
  });
  afterAll(async () => t.close());

  it('gets the form back with every value from the posted body, even with _redirect_error, and nothing stored', async () => {
    const pairs: FormPairs = [
      ['name', 'Ada'],
      ['email', 'nope'],
      ['topic', 'general'],
      ['message', 'Still here'],
      ['_redirect', `${SITE_ORIGIN}/thanks`],
      ['_redirect_error', `${SITE_ORIGIN}/contact`],
    ];
    const { payload, contentType } = await encode('urlencoded', pairs);
    const send = () =>
      t.inject({
        method: 'POST',
        url: `${base}/forms/contact/submissions?token=${TOKENS.publicOrigins}`,
        payload,
        headers: { 'content-type': contentType, accept: BROWSER, origin: SITE_ORIGIN },
      });
    for (let i = 0; i < 2; i++) expect((await send()).status).toBe(303);
    const drafts = (await t.store.db.selectFrom('form_drafts').select('id').execute()).length;
    const limited = await send();
    expect(limited.status).toBe(429);
    const h = parse(limited.text);
    const retry = Number(limited.headers['retry-after']);
    expect(h.text(h.byId('folio-contact-alert'))).toBe(
      `Too many attempts. Please try again in ${retry} seconds.`,
    );
    const { value } = shown(h);
    expect([value('name'), value('email')]).toEqual([['Ada'], ['nope']]);
    expect(limited.text).toMatch(/<textarea[^>]*>\nStill here<\/textarea>/);
    expect((await t.store.db.selectFrom('form_drafts').select('id').execute()).length).toBe(drafts);
  });
});

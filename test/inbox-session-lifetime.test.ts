// How long an inbox session lasts: 12 h idle, renewed only by a person's requests (the page's polls say
// `Folio-Background: 1` and renew nothing), and never longer than its absolute lifetime (7 days by default,
// INBOX_SESSION_MAX_AGE_HOURS) however busy; over HTTPS the cookie is `__Host-folio_inbox`, always Secure.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import { ENGINES } from './helpers/engines.js';
import { TOKENS } from './helpers/fixture.js';
import { type FormsApp, openFormsApp } from './helpers/forms.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe.each(ENGINES)('inbox session lifetime on %s', (engine) => {
  let t: FormsApp;
  let https: FormsApp;
  beforeAll(async () => {
    t = await openFormsApp(engine);
    https = await openFormsApp(engine, { publicUrl: 'https://folio.example', inboxSessionMaxAgeHours: 1 });
  });
  afterAll(async () => {
    await t.close();
    await https.close();
  });

  async function signIn(app: FormsApp): Promise<{ cookie: string; setCookie: string; csrf: string }> {
    const res = await app.inject({
      method: 'POST',
      url: '/inbox/session',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ token: TOKENS.management }),
    });
    expect(res.status, res.text).toBe(201);
    const setCookie = String(res.headers['set-cookie']);
    return { cookie: setCookie.split(';')[0] ?? '', setCookie, csrf: res.body.session.csrfToken };
  }
  const session = (app: FormsApp, cookie: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url: '/inbox/session', headers: { cookie, ...headers } });
  const later = (app: FormsApp, ms: number) => {
    app.clock.current = new Date(app.clock.current.getTime() + ms);
  };

  it('ends a session whose row is 340 days old, however recently it was used', async () => {
    const { cookie } = await signIn(t);
    expect((await session(t, cookie)).status).toBe(200);
    const now = t.clock.current.getTime();
    await t.store.db
      .updateTable('inbox_sessions')
      .set({
        created_at: new Date(now - 340 * DAY).toISOString(),
        last_seen_at: new Date(now - 11 * HOUR - 59 * 60_000).toISOString(),
        expires_at: new Date(now + 60_000).toISOString(),
      })
      .execute();
    expect((await session(t, cookie)).status).toBe(401);
  });

  it('ends a busy session 7 days after sign-in, and says so in expiresAt', async () => {
    const { cookie } = await signIn(t);
    const signedIn = t.clock.current.getTime();
    const end = new Date(signedIn + 7 * DAY).toISOString();
    for (let hours = 11; hours < 7 * 24; hours += 11) {
      later(t, 11 * HOUR);
      const res = await session(t, cookie);
      expect(res.status, `after ${hours} h`).toBe(200);
      expect(res.body.session.expiresAt <= end).toBe(true);
    }
    t.clock.current = new Date(signedIn + 7 * DAY + 1000);
    expect((await session(t, cookie)).status).toBe(401);
  });

  it("is not renewed by the page's background polls", async () => {
    const { cookie } = await signIn(t);
    const first = (await session(t, cookie)).body.session.expiresAt;
    later(t, 11 * HOUR);
    const polled = await session(t, cookie, { 'folio-background': '1' });
    expect(polled.status).toBe(200);
    expect(polled.body.session.expiresAt).toBe(first);
    // Polls through the management API renew nothing either.
    const list = await t.inject({
      method: 'GET',
      url: '/v1/spaces/spc_test/forms/contact/submissions',
      headers: { cookie, 'folio-background': '1' },
    });
    expect(list.status, list.text).toBe(200);
    later(t, HOUR + 60_000);
    expect((await session(t, cookie, { 'folio-background': '1' })).status).toBe(401);
  });

  it('is renewed by a person, up to the idle limit each time', async () => {
    const { cookie } = await signIn(t);
    later(t, 11 * HOUR);
    expect((await session(t, cookie)).status).toBe(200);
    later(t, 11 * HOUR);
    expect((await session(t, cookie)).status).toBe(200);
  });

  it('is __Host-folio_inbox and Secure when PUBLIC_URL is https; the plain name is not read there', async () => {
    const { cookie, setCookie, csrf } = await signIn(https);
    expect(setCookie).toMatch(
      /^__Host-folio_inbox=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; Secure; SameSite=Strict$/,
    );
    expect((await session(https, cookie)).status).toBe(200);
    const plain = cookie.replace('__Host-folio_inbox=', 'folio_inbox=');
    expect((await session(https, plain)).status).toBe(401);
    const out = await https.inject({
      method: 'DELETE',
      url: '/inbox/session',
      headers: { cookie, 'x-folio-csrf': csrf },
    });
    expect(String(out.headers['set-cookie'])).toMatch(/^__Host-folio_inbox=; Max-Age=0;.*Secure/);
  });

  it('ends after INBOX_SESSION_MAX_AGE_HOURS', async () => {
    const { cookie } = await signIn(https);
    later(https, 50 * 60_000);
    expect((await session(https, cookie)).status).toBe(200);
    later(https, 11 * 60_000);
    expect((await session(https, cookie)).status).toBe(401);
  });
});

describe('INBOX_SESSION_MAX_AGE_HOURS', () => {
  it('defaults to 7 days and refuses what is not a whole number of hours', () => {
    expect(loadConfig({}).inboxSessionMaxAgeHours).toBe(168);
    expect(loadConfig({ INBOX_SESSION_MAX_AGE_HOURS: '24' }).inboxSessionMaxAgeHours).toBe(24);
    expect(() => loadConfig({ INBOX_SESSION_MAX_AGE_HOURS: '1.5' })).toThrow(/INBOX_SESSION_MAX_AGE_HOURS/);
  });
});

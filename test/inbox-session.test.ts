// The inbox's browser session. A management token is exchanged at POST /inbox/session for an
// HttpOnly, SameSite=Strict cookie that the management API accepts in place of the token (its scopes, its space),
// with a CSRF defence on unsafe methods; cross-site requests are refused; the session ends on sign-out, after 12 h
// unused and when its token is revoked; its rows hold hashes, never the cookie's or the token's value.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/auth/tokens.js';
import { ENGINES } from './helpers/engines.js';
import { TOKENS } from './helpers/fixture.js';
import { type FormsApp, type InjectResult, openFormsApp } from './helpers/forms.js';
import { storeScopedToken } from './helpers/tokens.js';
import { storeSubmission } from './helpers/submissions.js';

const SPACE = 'spc_test';
const INBOX = `/v1/spaces/${SPACE}/forms/contact/submissions`;
const HOUR = 3_600_000;

describe.each(ENGINES)('the inbox session on %s', (engine) => {
  let t: FormsApp;
  beforeAll(async () => {
    t = await openFormsApp(engine);
    await storeSubmission(t.store.db, {
      id: 'sub_sess1',
      spaceId: SPACE,
      form: 'contact',
      values: { name: 'Ada' },
      createdAt: '2026-03-01T10:00:00.000Z',
      deleteAfter: '2027-03-01T10:00:00.000Z',
    });
  });
  afterAll(async () => t.close());

  interface Session {
    cookie: string;
    setCookie: string;
    csrf: string;
    body: InjectResult['body'];
  }

  async function signIn(token: string, headers: Record<string, string> = {}): Promise<Session> {
    const res = await t.inject({
      method: 'POST',
      url: '/inbox/session',
      headers: { 'content-type': 'application/json', ...headers },
      payload: JSON.stringify({ token }),
    });
    expect(res.status, res.text).toBe(201);
    const setCookie = String(res.headers['set-cookie']);
    const cookie = setCookie.split(';')[0] ?? '';
    return { cookie, setCookie, csrf: res.body.session.csrfToken, body: res.body };
  }

  const withCookie = (s: Session, headers: Record<string, string> = {}) => ({ cookie: s.cookie, ...headers });

  it('signs in with a management token: an HttpOnly, SameSite=Strict cookie, the token never stored', async () => {
    const s = await signIn(TOKENS.management);
    expect(s.setCookie).toMatch(/^folio_inbox=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);
    expect(s.body.session).toMatchObject({
      spaceId: SPACE,
      space: { name: expect.any(String), timeZone: expect.any(String), defaultLocale: 'en' },
      scopes: expect.arrayContaining(['forms.read', 'forms.erase']),
      expiresAt: new Date(t.clock.current.getTime() + 12 * HOUR).toISOString(),
    });
    const rows = await t.store.db.selectFrom('inbox_sessions').selectAll().execute();
    const value = s.cookie.split('=')[1] ?? '';
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(value);
    expect(stored).not.toContain(TOKENS.management);
    expect(rows.map((r) => r.id_hash)).toContain(hashToken(value));
    expect(rows.map((r) => r.token_hash)).toContain(hashToken(TOKENS.management));
  });

  it('is Secure over HTTPS', async () => {
    const t2 = await openFormsApp(engine, { trustProxy: 1 });
    try {
      const res = await t2.inject({
        method: 'POST',
        url: '/inbox/session',
        headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
        payload: JSON.stringify({ token: TOKENS.management }),
      });
      expect(res.status).toBe(201);
      expect(String(res.headers['set-cookie'])).toMatch(/; Secure/);
    } finally {
      await t2.close();
    }
  });

  it('refuses what is not a management token, and bodies that are not { token }', async () => {
    for (const token of [TOKENS.public, 'folio_mgt_nope', '']) {
      const res = await t.inject({
        method: 'POST',
        url: '/inbox/session',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ token }),
      });
      expect(res.status).toBe(token === '' ? 400 : 401);
    }
    const extra = await t.inject({
      method: 'POST',
      url: '/inbox/session',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ token: TOKENS.management, remember: true }),
    });
    expect([extra.status, extra.body.error.code]).toEqual([400, 'invalid_body']);
  });

  it('the cookie reads the management API as the token would; without it, 401', async () => {
    const s = await signIn(TOKENS.management);
    const res = await t.inject({ method: 'GET', url: INBOX, headers: withCookie(s) });
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: { id: string }) => i.id)).toEqual(['sub_sess1']);
    expect((await t.inject({ method: 'GET', url: INBOX })).status).toBe(401);
    // A space the token is not of: as an unknown token.
    const other = await t.inject({
      method: 'GET',
      url: '/v1/spaces/spc_other/forms',
      headers: withCookie(s),
    });
    expect(other.status).toBe(401);
    const session = await t.inject({ method: 'GET', url: '/inbox/session', headers: withCookie(s) });
    expect([session.status, session.body.session.csrfToken]).toEqual([200, s.csrf]);
    expect(session.headers['cache-control']).toBe('no-store');
    expect(session.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('unsafe methods need the CSRF header; cross-site requests are refused', async () => {
    const s = await signIn(TOKENS.management);
    const note = (headers: Record<string, string>) =>
      t.inject({
        method: 'POST',
        url: `${INBOX}/sub_sess1/notes`,
        headers: { ...withCookie(s), 'content-type': 'application/json', ...headers },
        payload: JSON.stringify({ text: 'Called back', author: 'Bo' }),
      });
    const refused = [
      await note({}),
      await note({ 'x-folio-csrf': 'wrong' }),
      await note({ 'x-folio-csrf': s.csrf, origin: 'https://evil.example' }),
      await note({ 'x-folio-csrf': s.csrf, 'sec-fetch-site': 'cross-site' }),
      await note({ 'x-folio-csrf': s.csrf, 'sec-fetch-site': 'same-site' }),
    ];
    expect(refused.map((r) => [r.status, r.body.error.code])).toEqual(Array(5).fill([403, 'forbidden']));
    const ok = await note({
      'x-folio-csrf': s.csrf,
      origin: 'http://localhost:80',
      'sec-fetch-site': 'same-origin',
    });
    expect(ok.status, ok.text).toBe(201);
    // A form on another site posting the sign-in (login CSRF) is refused before its body is read.
    const crossSignIn = await t.inject({
      method: 'POST',
      url: '/inbox/session',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site' },
      payload: `token=${TOKENS.management}`,
    });
    expect([crossSignIn.status, crossSignIn.body.error.code]).toEqual([403, 'forbidden']);
  });

  it("the session's scopes are its token's: without forms.read no submission is shown", async () => {
    const writer = await storeScopedToken(t.store, SPACE, ['forms.write']);
    const s = await signIn(writer);
    expect(s.body.session.scopes).toEqual(['forms.write']);
    const res = await t.inject({ method: 'GET', url: INBOX, headers: withCookie(s) });
    expect([res.status, res.body.error.details.missingScopes]).toEqual([403, ['forms.read']]);
  });

  it('signing out ends the session on the server and clears the cookie', async () => {
    const s = await signIn(TOKENS.management);
    const refused = await t.inject({ method: 'DELETE', url: '/inbox/session', headers: withCookie(s) });
    expect(refused.status).toBe(403);
    const out = await t.inject({
      method: 'DELETE',
      url: '/inbox/session',
      headers: withCookie(s, { 'x-folio-csrf': s.csrf }),
    });
    expect([out.status, out.body]).toEqual([200, { signedOut: true }]);
    expect(String(out.headers['set-cookie'])).toMatch(/^folio_inbox=; Max-Age=0;/);
    expect((await t.inject({ method: 'GET', url: INBOX, headers: withCookie(s) })).status).toBe(401);
    expect((await t.inject({ method: 'GET', url: '/inbox/session', headers: withCookie(s) })).status).toBe(
      401,
    );
  });

  it('ends after 12 h unused; use moves the limit on', async () => {
    const start = t.clock.current;
    try {
      const s = await signIn(TOKENS.management);
      const get = () => t.inject({ method: 'GET', url: INBOX, headers: withCookie(s) });
      t.clock.current = new Date(start.getTime() + 11 * HOUR);
      expect((await get()).status).toBe(200);
      t.clock.current = new Date(start.getTime() + 22 * HOUR);
      expect((await get()).status).toBe(200);
      t.clock.current = new Date(start.getTime() + 34 * HOUR + 60_000);
      expect((await get()).status).toBe(401);
    } finally {
      t.clock.current = start;
    }
  });

  it('revoking the token ends its sessions (the rows go with it)', async () => {
    const value = await storeScopedToken(t.store, SPACE, ['forms.read']);
    const s = await signIn(value);
    expect((await t.inject({ method: 'GET', url: INBOX, headers: withCookie(s) })).status).toBe(200);
    const id = s.body.session.token.id;
    const revoke = await t.inject({
      method: 'DELETE',
      url: `/v1/spaces/${SPACE}/tokens/${id}`,
      headers: { authorization: `Bearer ${TOKENS.management}` },
    });
    expect(revoke.status).toBe(200);
    expect((await t.inject({ method: 'GET', url: INBOX, headers: withCookie(s) })).status).toBe(401);
    expect((await t.inject({ method: 'GET', url: '/inbox/session', headers: withCookie(s) })).status).toBe(
      401,
    );
    const left = await t.store.db
      .selectFrom('inbox_sessions')
      .select('token_id')
      .where('token_id', '=', id)
      .execute();
    expect(left).toEqual([]);
  });
});

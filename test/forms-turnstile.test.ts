import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TURNSTILE_TEST_SECRETS } from '../src/forms/submission/turnstile.js';
import { buildApp } from '../src/server/app.js';
import { ENGINES } from './helpers/engines.js';
import { TOKENS } from './helpers/fixture.js';
import { emailForm } from './helpers/form-defs.js';
import { type FormsApp, openFormsApp, putForms, SiteverifyStandIn } from './helpers/forms.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const headers = { authorization: `Bearer ${TOKENS.public}`, 'content-type': 'application/json' };
const VISITOR_IP = '203.0.113.9';
const turnstile = (secret: string) => ({ turnstileSiteKey: 'site-key-123', turnstileSecret: secret });

describe.each(ENGINES)('Turnstile (spec 4.4) on %s', (engine) => {
  let t: FormsApp;
  let verify: SiteverifyStandIn;
  let seq = 0;
  beforeAll(async () => {
    verify = await new SiteverifyStandIn(1000).start();
    // Redis remembers used tokens, shared by every instance (the second app below).
    t = await openFormsApp(engine, {
      turnstileVerifyUrl: verify.url,
      turnstileTimeoutMs: 200,
      redisUrl: REDIS_URL,
    });
    await putForms(t, 'spc_test', [
      emailForm('ts', turnstile('real-secret')),
      emailForm('pass', turnstile(TURNSTILE_TEST_SECRETS.pass)),
      emailForm('fail', turnstile(TURNSTILE_TEST_SECRETS.fail)),
      emailForm('spent', turnstile(TURNSTILE_TEST_SECRETS.spent)),
    ]);
  });
  afterAll(async () => {
    await t.close();
    await verify.close();
  });

  const submit = (form: string, token?: string, email = 'ada@example.com', app: FastifyInstance = t.app) =>
    app.inject({
      method: 'POST',
      url: `/v1/spc_test/forms/${form}/submissions`,
      remoteAddress: VISITOR_IP,
      payload: JSON.stringify({ email, ...(token === undefined ? {} : { 'cf-turnstile-response': token }) }),
      headers,
    });
  const unique = (prefix: string) => `${prefix}${engine}-${++seq}-${Date.now()}`;
  const code = (res: { json(): { error?: { code: string } } }) => res.json().error?.code;

  it('accepts a token siteverify confirms, sending the secret, the token and the remote IP', async () => {
    const token = unique('ok-');
    const res = await submit('ts', token);
    expect(res.statusCode).toBe(200);
    const call = verify.calls.find((c) => c.response === token);
    expect(call).toMatchObject({ secret: 'real-secret', response: token, remoteip: VISITOR_IP });
    expect(call?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('rejects a reused token without asking siteverify again (single use)', async () => {
    const token = unique('ok-');
    expect((await submit('ts', token)).statusCode).toBe(200);
    const calls = verify.calls.length;
    const again = await submit('ts', token);
    expect([again.statusCode, code(again)]).toEqual([422, 'turnstile_failed']);
    expect(verify.calls.length).toBe(calls);
  });

  it('rejects reuse on another instance sharing Redis', async () => {
    const other = await buildApp({ config: t.config, store: t.store, blobs: t.blobs });
    try {
      const token = unique('ok-');
      expect((await submit('ts', token)).statusCode).toBe(200);
      const res = await submit('ts', token, 'ada@example.com', other);
      expect([res.statusCode, code(res)]).toEqual([422, 'turnstile_failed']);
    } finally {
      await other.close();
    }
  });

  it("rejects a token siteverify reports as a duplicate (another instance's memory)", async () => {
    const token = unique('ok-');
    // An instance without Redis does not know what the first one saw; siteverify does.
    const alone = await buildApp({ config: { ...t.config, redisUrl: null }, store: t.store, blobs: t.blobs });
    try {
      expect((await submit('ts', token, 'ada@example.com', alone)).statusCode).toBe(200);
      const res = await submit('ts', token);
      expect([res.statusCode, code(res)]).toEqual([422, 'turnstile_failed']);
    } finally {
      await alone.close();
    }
  });

  it('fails closed: rejected, missing, timed out, 500 and unreadable answers all give 422 turnstile_failed', async () => {
    for (const token of [
      unique('bad-'),
      undefined,
      '',
      unique('slow-'),
      unique('500-'),
      unique('garbage-'),
    ]) {
      const res = await submit('ts', token);
      expect([token, res.statusCode, code(res)]).toEqual([token, 422, 'turnstile_failed']);
    }
  });

  it('fails closed when siteverify is unreachable', async () => {
    const down = await buildApp({
      config: { ...t.config, turnstileVerifyUrl: 'http://127.0.0.1:9/siteverify' },
      store: t.store,
      blobs: t.blobs,
    });
    try {
      const res = await submit('ts', unique('ok-'), 'ada@example.com', down);
      expect([res.statusCode, code(res)]).toEqual([422, 'turnstile_failed']);
    } finally {
      await down.close();
    }
  });

  it('does not spend the token on a submission that fails validation', async () => {
    const token = unique('ok-');
    const invalid = await submit('ts', token, 'not an address');
    expect([invalid.statusCode, code(invalid)]).toEqual([422, 'validation_failed']);
    expect((await submit('ts', token)).statusCode).toBe(200);
  });

  it('checks the token before keeping a filled spam trap: without a valid one nothing is stored', async () => {
    const spamRows = async (form: string) =>
      (
        await t.store.db
          .selectFrom('submissions')
          .select('id')
          .where('space_id', '=', 'spc_test')
          .where('form_key', '=', form)
          .where('folder', '=', 'spam')
          .execute()
      ).length;
    const trapped = (form: string, token: string | undefined, email: string) =>
      t.app.inject({
        method: 'POST',
        url: `/v1/spc_test/forms/${form}/submissions`,
        remoteAddress: VISITOR_IP,
        payload: JSON.stringify({
          email,
          website: 'http://spam.example',
          ...(token === undefined ? {} : { 'cf-turnstile-response': token }),
        }),
        headers,
      });
    // 30 KB under the field's key: what a bot would have kept for 30 days before this check.
    const bulky = 'x'.repeat(30_000);
    const before = { ts: await spamRows('ts'), pass: await spamRows('pass') };
    for (const [form, token] of [
      ['ts', undefined],
      ['ts', ''],
      ['ts', unique('bad-')],
      ['pass', undefined],
      ['fail', 'XXXX.DUMMY.TOKEN.XXXX'],
    ] as const) {
      const res = await trapped(form, token, bulky);
      expect([form, token, res.statusCode, code(res)]).toEqual([form, token, 422, 'turnstile_failed']);
    }
    expect(await spamRows('ts')).toBe(before.ts);
    expect(await spamRows('pass')).toBe(before.pass);
    expect(await spamRows('fail')).toBe(0);

    // spec 3.2: with a valid token a filled trap still answers the normal success and lands in the spam folder.
    const token = unique('ok-');
    const res = await trapped('ts', token, 'not even an address');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual((await submit('pass', 'XXXX.DUMMY.TOKEN.XXXX')).json());
    expect(await spamRows('ts')).toBe(before.ts + 1);
    // The token was spent on it, like on any other submission.
    expect(code(await trapped('ts', token, 'ada@example.com'))).toBe('turnstile_failed');
  });

  it("handles Cloudflare's test secrets as documented, without a network call", async () => {
    const calls = verify.calls.length;
    const dummy = 'XXXX.DUMMY.TOKEN.XXXX';
    expect((await submit('pass', dummy)).statusCode).toBe(200);
    expect((await submit('pass', dummy)).statusCode).toBe(200);
    expect(code(await submit('pass', undefined))).toBe('turnstile_failed');
    expect(code(await submit('fail', dummy))).toBe('turnstile_failed');
    expect(code(await submit('spent', dummy))).toBe('turnstile_failed');
    expect(verify.calls.length).toBe(calls);
  });

  it('delivers the site key and never the secret', async () => {
    const res = await t.inject({ method: 'GET', url: '/v1/spc_test/forms/ts', headers });
    expect(res.status).toBe(200);
    expect(res.body.form).toMatchObject({ turnstile: true, turnstileSiteKey: 'site-key-123' });
    expect(res.text).not.toContain('real-secret');
    expect(res.text).not.toContain('turnstileSecret');
  });
});

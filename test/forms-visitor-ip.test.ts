import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines.js';
import { SITE_ORIGIN, TOKENS } from './helpers/fixture.js';
import { emailForm } from './helpers/form-defs.js';
import { type FormsApp, openFormsApp, putForms, SiteverifyStandIn } from './helpers/forms.js';

// A server-side site (a public token made with `serverSide: true`) posting for its visitors names each visitor in
// `Folio-Visitor-Ip`, where the form allows it, so per-visitor limits and Turnstile see visitors, not the site.
// docs/api.md "Who the visitor is"; the attacks on the claim are in visitor-identity.test.ts.

const SITE_SERVER = '192.0.2.10';
const turnstile = { turnstileSiteKey: 'site-key', turnstileSecret: 'real-secret' };

describe.each(ENGINES)('Folio-Visitor-Ip on %s', (engine) => {
  let t: FormsApp;
  let verify: SiteverifyStandIn;
  let server = '';
  beforeAll(async () => {
    verify = await new SiteverifyStandIn(1000).start();
    t = await openFormsApp(engine, {
      rateLimitVisitorPerMinute: 2,
      turnstileVerifyUrl: verify.url,
      turnstileTimeoutMs: 500,
    });
    await putForms(t, 'spc_test', [
      emailForm('trusting', { trustVisitorIp: true }),
      emailForm('plain'),
      emailForm('guarded', { ...turnstile, trustVisitorIp: true }),
    ]);
    const made = await t.inject({
      method: 'POST',
      url: '/v1/spaces/spc_test/tokens',
      headers: { authorization: `Bearer ${TOKENS.management}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ kind: 'public', name: 'site server', serverSide: true }),
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body.token.serverSide).toBe(true);
    server = made.body.value;
  });
  afterAll(async () => {
    await t.close();
    await verify.close();
  });

  const submit = (form: string, visitor: string | null, token?: string, extra = {}) =>
    t.inject({
      method: 'POST',
      url: `/v1/spc_test/forms/${form}/submissions`,
      remoteAddress: SITE_SERVER,
      payload: JSON.stringify({ email: 'ada@example.com', ...extra }),
      headers: {
        authorization: `Bearer ${token ?? server}`,
        'content-type': 'application/json',
        ...(visitor === null ? {} : { 'folio-visitor-ip': visitor }),
        ...(token === TOKENS.publicOrigins ? { origin: SITE_ORIGIN } : {}),
      },
    });

  it('counts each forwarded visitor on its own when the form trusts the site', async () => {
    for (let i = 1; i <= 6; i++) expect((await submit('trusting', `203.0.113.${i}`)).status).toBe(200);
    // Each visitor still has a limit of their own.
    expect((await submit('trusting', '203.0.113.1')).status).toBe(200);
    expect((await submit('trusting', '203.0.113.1')).status).toBe(429);
  });

  it('ignores the header on a form that does not allow it, from other tokens, and when malformed', async () => {
    // Every post below counts against the site server's own address (2 a minute).
    expect((await submit('plain', '198.51.100.1')).status).toBe(200);
    expect((await submit('plain', '198.51.100.2')).status).toBe(200);
    expect((await submit('plain', '198.51.100.3')).status).toBe(429);
    expect((await submit('trusting', '198.51.100.4', TOKENS.publicOrigins)).status).toBe(429);
    expect((await submit('trusting', '198.51.100.6', TOKENS.public)).status).toBe(429);
    expect((await submit('trusting', 'not-an-ip')).status).toBe(429);
    expect((await submit('trusting', '198.51.100.5, 10.0.0.1')).status).toBe(429);
  });

  it("gives Turnstile's siteverify the forwarded visitor as remoteip", async () => {
    const res = await submit('guarded', '2001:db8::7', undefined, {
      'cf-turnstile-response': 'ok-visitor',
    });
    expect(res.status, res.text).toBe(200);
    expect(verify.calls.find((c) => c.response === 'ok-visitor')?.remoteip).toBe('2001:db8::7');
  });
});

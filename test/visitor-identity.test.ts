import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTokens } from '../src/bundle/validate-tokens.js';
import { loadConfig } from '../src/config/config.js';
import { Problems } from '../src/lib/problems.js';
import { visitorNetwork } from '../src/ratelimit/visitors.js';
import { ENGINES } from './helpers/engines.js';
import { SITE_ORIGIN, TOKENS } from './helpers/fixture.js';
import { emailForm } from './helpers/form-defs.js';
import { type FormsApp, openFormsApp, putForms, SiteverifyStandIn } from './helpers/forms.js';

// Who the visitor is (docs/api.md "Who the visitor is"): the claims a client makes in `Folio-Visitor-Ip` and in
// X-Forwarded-For never buy it fresh per-visitor budgets, nor spend a real visitor's.

const SITE_SERVER = '192.0.2.10';
const turnstile = { turnstileSiteKey: 'site-key', turnstileSecret: 'real-secret' };
const json = { 'content-type': 'application/json' };

async function serverToken(t: FormsApp): Promise<string> {
  const made = await t.inject({
    method: 'POST',
    url: '/v1/spaces/spc_test/tokens',
    headers: { authorization: `Bearer ${TOKENS.management}`, ...json },
    payload: JSON.stringify({ kind: 'public', name: 'site server', serverSide: true }),
  });
  expect(made.status, made.text).toBe(201);
  return made.body.value;
}

describe.each(ENGINES)('Folio-Visitor-Ip claims on %s', (engine) => {
  let t: FormsApp;
  let verify: SiteverifyStandIn;
  let server = '';
  beforeAll(async () => {
    verify = await new SiteverifyStandIn(1000).start();
    t = await openFormsApp(engine, {
      rateLimitVisitorPerMinute: 10,
      turnstileVerifyUrl: verify.url,
      turnstileTimeoutMs: 500,
      visitors: { ipv6Prefix: 64, claimsPerMinute: 5 },
    });
    await putForms(t, 'spc_test', [
      emailForm('trusting', { trustVisitorIp: true }),
      emailForm('other'),
      emailForm('guarded', { ...turnstile, trustVisitorIp: true }),
      emailForm('capped', { trustVisitorIp: true }),
      emailForm('rules', { trustVisitorIp: true }),
    ]);
    server = await serverToken(t);
  });
  afterAll(async () => {
    await t.close();
    await verify.close();
  });

  const post = (
    form: string,
    opts: { from: string; token: string; claim?: string; headers?: Record<string, string>; query?: string },
    extra = {},
  ) =>
    t.inject({
      method: 'POST',
      url: `/v1/spc_test/forms/${form}/submissions${opts.query ?? ''}`,
      remoteAddress: opts.from,
      payload: JSON.stringify({ email: 'ada@example.com', ...extra }),
      headers: {
        ...(opts.query === undefined ? { authorization: `Bearer ${opts.token}` } : {}),
        ...json,
        ...(opts.claim === undefined ? {} : { 'folio-visitor-ip': opts.claim }),
        ...opts.headers,
      },
    });

  it('lists the server-side mark and refuses it where it cannot hold', async () => {
    const mgt = { authorization: `Bearer ${TOKENS.management}`, ...json };
    const list = await t.inject({ method: 'GET', url: '/v1/spaces/spc_test/tokens', headers: mgt });
    const marks = (list.body.tokens as { serverSide: boolean; name: string | null }[]).map((k) => [
      k.name,
      k.serverSide,
    ]);
    expect(marks).toContainEqual(['site server', true]);
    expect(marks.filter(([, mark]) => mark === true)).toHaveLength(1);
    for (const body of [
      { kind: 'preview', serverSide: true },
      { kind: 'public', serverSide: true, origins: [SITE_ORIGIN] },
    ]) {
      const res = await t.inject({
        method: 'POST',
        url: '/v1/spaces/spc_test/tokens',
        headers: mgt,
        payload: JSON.stringify(body),
      });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('ignores claims from a public token that is not server-side: 12 claimed addresses meet the limit of 10', async () => {
    const codes: number[] = [];
    for (let i = 1; i <= 12; i++)
      codes.push(
        (await post('trusting', { from: '198.51.100.20', token: TOKENS.public, claim: `203.0.113.${i}` }))
          .status,
      );
    expect(codes.filter((c) => c === 200)).toHaveLength(10);
    expect(codes.slice(10)).toEqual([429, 429]);
  });

  it("never spends a real visitor's budget: ten claims of 127.0.0.1 leave the browser at 127.0.0.1 its own", async () => {
    for (const token of [TOKENS.public, server])
      for (let i = 0; i < 10; i++) await post('trusting', { from: SITE_SERVER, token, claim: '127.0.0.1' });
    const browser = await post('other', {
      from: '127.0.0.1',
      token: TOKENS.publicOrigins,
      headers: { origin: SITE_ORIGIN },
    });
    expect(browser.status, browser.text).toBe(200);
  });

  it('gives Turnstile a claimed remoteip only from a server-side token', async () => {
    const plain = await post(
      'guarded',
      { from: '198.51.100.30', token: TOKENS.public, claim: '8.8.8.8' },
      { 'cf-turnstile-response': 'ok-plain' },
    );
    expect(plain.status, plain.text).toBe(200);
    expect(verify.calls.find((c) => c.response === 'ok-plain')?.remoteip).toBe('198.51.100.30');
    const fromServer = await post(
      'guarded',
      { from: '198.51.100.31', token: server, claim: '8.8.4.4' },
      { 'cf-turnstile-response': 'ok-server' },
    );
    expect(fromServer.status, fromServer.text).toBe(200);
    expect(verify.calls.find((c) => c.response === 'ok-server')?.remoteip).toBe('8.8.4.4');
    const withReferer = await post(
      'guarded',
      { from: '198.51.100.32', token: server, claim: '8.8.8.8', headers: { referer: 'https://a.example/' } },
      { 'cf-turnstile-response': 'ok-referer' },
    );
    expect(withReferer.status, withReferer.text).toBe(200);
    expect(verify.calls.find((c) => c.response === 'ok-referer')?.remoteip).toBe('198.51.100.32');
  });

  it('honours a server-side claim only in the header, without Origin or Referer', async () => {
    // Each of these counts as the connection 198.51.100.40 (10 a minute), whatever it claims.
    const ignored = [
      { headers: { origin: 'https://a.example' } },
      { headers: { referer: 'https://a.example/form' } },
      { query: `?token=${server}` },
    ];
    let n = 0;
    const codes: number[] = [];
    for (let round = 0; round < 4; round++)
      for (const how of ignored)
        codes.push(
          (await post('rules', { from: '198.51.100.40', token: server, claim: `203.0.113.${++n}`, ...how }))
            .status,
        );
    expect(codes.filter((c) => c === 200)).toHaveLength(10);
  });

  it("caps a server token's distinct claims per minute; past it a claim counts as the server", async () => {
    // claimsPerMinute is 5 in this app; a token of its own, so the other tests' claims do not count here.
    const capped = await serverToken(t);
    const claim = (ip: string) => post('capped', { from: '198.51.100.50', token: capped, claim: ip });
    const codes: number[] = [];
    for (let i = 1; i <= 16; i++) codes.push((await claim(`2001:db8:${i}::1`)).status);
    // 5 claims pass as visitors of their own; the other 11 count as the server: its 10 a minute, then 429.
    expect(codes.slice(0, 15).every((c) => c === 200)).toBe(true);
    expect(codes[15]).toBe(429);
    // A claim seen within the cap still passes as its own visitor.
    expect((await claim('2001:db8:1::1')).status).toBe(200);
  });
});

describe('the visitor behind proxies (X-Forwarded-For)', () => {
  const opened: FormsApp[] = [];
  afterAll(async () => {
    for (const t of opened) await t.close();
  });

  // TRUST_PROXY as an operator writes it, read by loadConfig.
  async function app(trust: string, share = 0): Promise<FormsApp> {
    const t = await openFormsApp('sqlite', {
      rateLimitVisitorPerMinute: 10,
      rateLimitVisitorSharePerMinute: share,
      trustProxy: loadConfig({ TRUST_PROXY: trust }).trustProxy,
    });
    opened.push(t);
    await putForms(t, 'spc_test', [emailForm('a')]);
    return t;
  }
  const post = (t: FormsApp, from: string, forwarded: string) =>
    t.inject({
      method: 'POST',
      url: '/v1/spc_test/forms/a/submissions',
      remoteAddress: from,
      payload: JSON.stringify({ email: 'ada@example.com' }),
      headers: { authorization: `Bearer ${TOKENS.public}`, ...json, 'x-forwarded-for': forwarded },
    });

  it('believes one hop with TRUST_PROXY=1: a spoofed first entry does not make a new visitor', async () => {
    const t = await app('1');
    const codes: number[] = [];
    // nginx's $proxy_add_x_forwarded_for appends the real address after whatever the client wrote.
    for (let i = 1; i <= 12; i++)
      codes.push((await post(t, '127.0.0.1', `10.9.9.${i}, 198.51.100.9`)).status);
    expect(codes.slice(10)).toEqual([429, 429]);
  });

  it('believes listed proxies only: a CDN and nginx in front, a spoofed first entry', async () => {
    const t = await app('127.0.0.0/8, 192.0.2.0/24');
    const codes: number[] = [];
    for (let i = 1; i <= 12; i++)
      codes.push((await post(t, '127.0.0.1', `10.9.9.${i}, 198.51.100.9, 192.0.2.77`)).status);
    expect(codes.slice(10)).toEqual([429, 429]);
    // A client reaching Folio directly (not a listed proxy) is its own address, whatever it forwards.
    expect((await post(t, '198.51.100.200', '198.51.100.9')).status).toBe(200);
  });

  it("keeps the origin token's per-visitor share per real visitor behind a proxy", async () => {
    const t = await app('1', 3);
    const codes: number[] = [];
    for (let i = 1; i <= 8; i++) {
      const res = await t.inject({
        method: 'GET',
        url: '/v1/spc_test/forms/a',
        remoteAddress: '127.0.0.1',
        headers: {
          authorization: `Bearer ${TOKENS.publicOrigins}`,
          origin: SITE_ORIGIN,
          'x-forwarded-for': `10.8.8.${i}, 198.51.100.9`,
        },
      });
      codes.push(res.status);
    }
    expect(codes.filter((c) => c === 200)).toHaveLength(3);
  });

  it('counts an IPv6 /64 as one visitor and an IPv4-mapped address as its IPv4 address', async () => {
    const t = await openFormsApp('sqlite', { rateLimitVisitorPerMinute: 2 });
    opened.push(t);
    await putForms(t, 'spc_test', [emailForm('a')]);
    const from = (remoteAddress: string) =>
      t.inject({
        method: 'POST',
        url: '/v1/spc_test/forms/a/submissions',
        remoteAddress,
        payload: JSON.stringify({ email: 'ada@example.com' }),
        headers: { authorization: `Bearer ${TOKENS.public}`, ...json },
      });
    expect((await from('2001:db8:aa:bb::1')).status).toBe(200);
    expect((await from('2001:db8:aa:bb:1234:5678:9abc:def0')).status).toBe(200);
    expect((await from('2001:db8:aa:bb::2')).status).toBe(429);
    expect((await from('2001:db8:aa:bc::1')).status).toBe(200);
    expect((await from('::ffff:198.51.100.77')).status).toBe(200);
    expect((await from('198.51.100.77')).status).toBe(200);
    expect((await from('::ffff:198.51.100.77')).status).toBe(429);
  });
});

describe('visitor configuration', () => {
  it('refuses TRUST_PROXY=true with one line naming the two forms', () => {
    for (const value of ['true', 'yes', 'on'])
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(
        /^Invalid configuration: TRUST_PROXY must be a hop count .* or a comma-separated list of proxy addresses and CIDR ranges[^\n]*$/,
      );
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.example' })).toThrow(/TRUST_PROXY/);
  });

  it('reads a hop count and a list of addresses and ranges', () => {
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.7 ,loopback, 2001:db8::/32' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.0.2.7',
      'loopback',
      '2001:db8::/32',
    ]);
    expect(loadConfig({}).visitors).toEqual({ ipv6Prefix: 64, claimsPerMinute: 600 });
    expect(loadConfig({ VISITOR_IPV6_PREFIX: '56' }).visitors.ipv6Prefix).toBe(56);
  });

  it.each([
    ['2001:db8:aa:bb:1:2:3:4', 64, '2001:db8:aa:bb::/64'],
    ['2001:db8:aa:bb:1:2:3:4', 48, '2001:db8:aa::/48'],
    ['::ffff:192.0.2.1', 64, '192.0.2.1'],
    ['192.0.2.1', 64, '192.0.2.1'],
    ['fe80::1%eth0', 64, 'fe80::/64'],
  ])('keys %s with prefix %i as %s', (ip, prefix, network) => {
    expect(visitorNetwork(ip, prefix)).toBe(network);
  });
});

describe('server-side tokens in bundles', () => {
  it('keeps the mark on public tokens without origins and refuses it elsewhere', () => {
    const p = new Problems();
    const hash = (n: number) => `sha256:${String(n).repeat(64)}`;
    const tokens = parseTokens(
      [
        { kind: 'public', hash: hash(1), serverSide: true },
        { kind: 'public', hash: hash(2) },
        { kind: 'preview', hash: hash(3), serverSide: true },
        { kind: 'public', hash: hash(4), serverSide: true, origins: ['https://a.example'] },
        { kind: 'public', hash: hash(5), serverSide: 'yes' },
      ],
      p,
    );
    expect(tokens.map((t) => t.serverSide ?? false)).toEqual([true, false]);
    expect(p.list.map((x) => x.path)).toEqual([
      'tokens[2].serverSide',
      'tokens[3].serverSide',
      'tokens[4].serverSide',
    ]);
  });
});

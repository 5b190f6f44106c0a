import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES, type Scope } from '../src/auth/scopes.js';
import { generateToken, hashToken, tokenHint } from '../src/auth/tokens.js';
import { importBundle } from '../src/bundle/import-bundle.js';
import { newId } from '../src/lib/ids.js';
import { parseNewToken } from '../src/management/token-ops.js';
import type { Config } from '../src/config/config.js';
import { FolioError } from '../src/errors/errors.js';
import { openStore, type Store } from '../src/store/open-store.js';
import { getSpace } from '../src/store/spaces-repo.js';
import { insertToken, type TokenKind } from '../src/store/tokens-repo.js';
import { buildEdgeApp, clearRedisPrefix, REDIS_URL, uniquePrefix } from './helpers/edge.js';
import { type Engine, ENGINES, openTestEnv, type TestEnv } from './helpers/engines.js';
import { fixtureBundle, fixtureDir, TOKENS } from './helpers/fixture.js';
import { contactForm, emailForm } from './helpers/form-defs.js';
import { call, type ManagementApp, openManagementApp, type Res } from './helpers/management.js';

const SPACE = '/v1/spaces/spc_test';
const HOUR = 3_600_000;

/** Stores a token straight away (as `folio token create` does) and returns its value. */
async function storeToken(
  store: Store,
  scopes: readonly Scope[] | null,
  kind: TokenKind = 'management',
): Promise<{ id: string; value: string }> {
  const value = generateToken(kind);
  const id = newId('tok');
  await insertToken(store.db, {
    id,
    spaceId: 'spc_test',
    kind,
    hash: hashToken(value),
    hint: tokenHint(value),
    name: null,
    origins: [],
    createdAt: new Date().toISOString(),
    scopes,
  });
  return { id, value };
}

const bearer = (value: string) => ({ authorization: `Bearer ${value}` });

interface Probe {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
}

/**
 * Every management route group with the scopes that open it (any one of them). The probes change nothing even
 * when let through: reads, and writes whose bodies or ids fail after the scope check (400, 404, 422).
 */
const MATRIX: { group: string; needs: Scope[]; probes: Probe[] }[] = [
  {
    group: 'entries',
    needs: ['content.write'],
    probes: [
      { method: 'GET', path: '/entries' },
      { method: 'POST', path: '/entries', body: {} },
    ],
  },
  {
    group: 'menus',
    needs: ['content.write'],
    probes: [
      { method: 'GET', path: '/menus' },
      { method: 'PUT', path: '/menus/main', body: {} },
    ],
  },
  {
    group: 'redirects',
    needs: ['content.write'],
    probes: [
      { method: 'GET', path: '/redirects' },
      { method: 'POST', path: '/redirects', body: {} },
    ],
  },
  {
    group: 'lists',
    needs: ['content.write'],
    probes: [
      { method: 'GET', path: '/lists' },
      { method: 'DELETE', path: '/lists/nope' },
    ],
  },
  {
    group: 'releases',
    needs: ['content.write'],
    probes: [
      { method: 'GET', path: '/releases' },
      { method: 'POST', path: '/releases', body: {} },
    ],
  },
  {
    group: 'webhooks',
    needs: ['content.write'],
    probes: [
      { method: 'GET', path: '/webhooks' },
      { method: 'PATCH', path: '/webhooks/whk_nope', body: { enabled: false } },
    ],
  },
  {
    group: 'form definitions (read)',
    needs: ['forms.write', 'forms.read'],
    probes: [
      { method: 'GET', path: '/forms' },
      { method: 'GET', path: '/forms/contact' },
    ],
  },
  {
    group: 'form definitions (write)',
    needs: ['forms.write'],
    probes: [
      { method: 'POST', path: '/forms', body: {} },
      { method: 'PUT', path: '/forms/contact', body: {} },
      { method: 'DELETE', path: '/forms/nope' },
    ],
  },
  {
    group: 'tokens',
    needs: ['tokens.admin'],
    probes: [
      { method: 'GET', path: '/tokens' },
      { method: 'POST', path: '/tokens', body: {} },
      { method: 'DELETE', path: '/tokens/tok_nope' },
    ],
  },
  { group: 'activity', needs: ['tokens.admin'], probes: [{ method: 'GET', path: '/activity' }] },
];

describe.each(ENGINES)('permissions of the management API on %s', (engine) => {
  let t: ManagementApp;
  const as = (value: string, method: Probe['method'], path: string, body?: unknown): Promise<Res> =>
    call(t.app, method, `${SPACE}${path}`, bearer(value), body);
  /** The fixture's management token: stored without scopes, as every token before migration 0009. */
  const admin = (method: Probe['method'], path: string, body?: unknown) =>
    as(TOKENS.management, method, path, body);

  beforeAll(async () => {
    t = await openManagementApp(engine);
  });
  afterAll(async () => t.close());

  describe.each(MATRIX)('$group needs $needs', ({ needs, probes }) => {
    it('refuses a token without the scope: 403 forbidden naming it in details.missingScopes', async () => {
      const { value } = await storeToken(
        t.store,
        SCOPES.filter((s) => !needs.includes(s)),
      );
      for (const p of probes) {
        const res = await as(value, p.method, p.path, p.body);
        expect([p.method, p.path, res.status, res.body.error.code]).toEqual([
          p.method,
          p.path,
          403,
          'forbidden',
        ]);
        expect(res.body.error.details.missingScopes).toEqual(needs);
      }
    });

    it.each(needs)('lets a token with only %s through', async (scope) => {
      const { value } = await storeToken(t.store, [scope]);
      for (const p of probes) {
        const res = await as(value, p.method, p.path, p.body);
        expect([p.method, p.path, res.status]).not.toEqual([p.method, p.path, 403]);
        expect(res.status).toBeLessThan(500);
      }
    });

    it('lets an old token (scopes NULL) through: it keeps every scope', async () => {
      for (const p of probes) {
        const res = await admin(p.method, p.path, p.body);
        expect([p.method, p.path, res.status]).not.toEqual([p.method, p.path, 403]);
        expect(res.status).toBeLessThan(500);
      }
    });
  });

  it('still answers 401 before any scope check, and 403 for a delivery token', async () => {
    expect((await call(t.app, 'GET', `${SPACE}/tokens`, {})).status).toBe(401);
    const pub = await call(t.app, 'GET', `${SPACE}/tokens`, bearer(TOKENS.public));
    expect(pub.status).toBe(403);
  });

  it('shows the Turnstile secret and the chat webhook URL only to forms.write: forms.read reads definitions without them', async () => {
    const chat = 'https://hooks.slack.example/services/T000/B000/bearer-credential';
    const secretive = contactForm('secretive', {
      turnstileSiteKey: 'sk',
      turnstileSecret: 'shh',
      chatWebhookUrl: chat,
      notify: ['team@example.com'],
    });
    expect((await admin('PUT', '/forms/secretive', secretive)).status).toBe(201);
    const reader = await storeToken(t.store, ['forms.read']);
    const writer = await storeToken(t.store, ['forms.write']);

    const one = await as(reader.value, 'GET', '/forms/secretive');
    expect(one.status).toBe(200);
    expect(one.body.form.settings.turnstileSiteKey).toBe('sk');
    expect(one.body.form.settings.notify).toEqual(['team@example.com']);
    expect(one.body.form.settings).not.toHaveProperty('turnstileSecret');
    expect(one.body.form.settings).not.toHaveProperty('chatWebhookUrl');
    expect(one.body.form.fields).toEqual(secretive.fields);
    const list = await as(reader.value, 'GET', '/forms');
    const listed = list.body.forms.find((f: { key: string }) => f.key === 'secretive');
    expect(listed.settings).not.toHaveProperty('turnstileSecret');
    expect(listed.settings).not.toHaveProperty('chatWebhookUrl');
    expect(JSON.stringify(list.body)).not.toContain('shh');
    expect(JSON.stringify(list.body)).not.toContain('bearer-credential');
    // Nor in the activity log of the save (it records the cv, never the definition).
    const log = await admin('GET', '/activity?action=form.created');
    expect(JSON.stringify(log.body)).not.toContain('bearer-credential');

    for (const token of [writer.value, TOKENS.management]) {
      const settings = (await as(token, 'GET', '/forms/secretive')).body.form.settings;
      expect([settings.turnstileSecret, settings.chatWebhookUrl]).toEqual(['shh', chat]);
    }
  });

  describe('the token API', () => {
    let adminId: string;
    beforeAll(async () => {
      const list = await admin('GET', '/tokens');
      adminId = list.body.tokens.find((x: { hint: string }) => x.hint === tokenHint(TOKENS.management)).id;
    });

    it('lists tokens without values or hashes; old management tokens say allScopes', async () => {
      const res = await admin('GET', '/tokens');
      expect(res.status).toBe(200);
      const mine = res.body.tokens.find((x: { id: string }) => x.id === adminId);
      expect(mine).toEqual({
        id: adminId,
        kind: 'management',
        name: null,
        hint: tokenHint(TOKENS.management),
        origins: [],
        scopes: [...SCOPES],
        allScopes: true,
        createdAt: expect.any(String),
        person: null,
        serverSide: false,
      });
      const pub = res.body.tokens.find((x: { hint: string }) => x.hint === tokenHint(TOKENS.public));
      expect([pub.kind, pub.scopes, pub.allScopes]).toEqual(['public', null, false]);
      const text = JSON.stringify(res.body);
      for (const v of Object.values(TOKENS)) {
        expect(text).not.toContain(v);
        expect(text).not.toContain(hashToken(v));
      }
    });

    it('creates a token and shows its value once: it works, it is listed without its value or hash', async () => {
      const res = await admin('POST', '/tokens', {
        kind: 'management',
        name: 'Inbox screen',
        scopes: ['forms.read', 'forms.write'],
      });
      expect(res.status).toBe(201);
      const { token, value } = res.body;
      expect(value).toMatch(/^folio_mgt_[A-Za-z0-9]{32}$/);
      expect(token).toMatchObject({
        kind: 'management',
        name: 'Inbox screen',
        scopes: ['forms.write', 'forms.read'],
        allScopes: false,
        hint: tokenHint(value),
      });
      expect(JSON.stringify(res.body)).not.toContain(hashToken(value));

      expect((await as(value, 'GET', '/forms')).status).toBe(200);
      expect((await as(value, 'GET', '/entries')).status).toBe(403);

      const list = await admin('GET', '/tokens');
      expect(list.body.tokens.map((x: { id: string }) => x.id)).toContain(token.id);
      const text = JSON.stringify(list.body);
      expect(text).not.toContain(value);
      expect(text).not.toContain(hashToken(value));

      const pub = await admin('POST', '/tokens', { kind: 'public', origins: ['https://site.example'] });
      expect([pub.status, pub.body.token.origins, pub.body.token.scopes]).toEqual([
        201,
        ['https://site.example'],
        null,
      ]);
      expect(pub.body.value).toMatch(/^folio_pub_/);
      expect(
        (await t.app.inject({ url: '/v1/spc_test/status', headers: bearer(pub.body.value) })).statusCode,
      ).toBe(200);
    });

    it.each([
      ['scopes on a public token', { kind: 'public', scopes: ['forms.read'] }],
      ['an unknown scope', { kind: 'management', scopes: ['forms.read', 'root'] }],
      ['no scopes', { kind: 'management', scopes: [] }],
      ['an unknown kind', { kind: 'root' }],
      ['an origin with a path', { kind: 'public', origins: ['https://site.example/x'] }],
      ['an unknown member', { kind: 'public', value: 'folio_pub_mine' }],
    ])('refuses %s: 400 invalid_body', async (_what, body) => {
      const res = await admin('POST', '/tokens', body);
      expect([res.status, res.body.error.code]).toEqual([400, 'invalid_body']);
    });

    it('refuses privilege escalation: a token grants only scopes it has, by default its own', async () => {
      const narrow = await storeToken(t.store, ['tokens.admin', 'forms.read']);
      const up = await as(narrow.value, 'POST', '/tokens', { kind: 'management', scopes: ['forms.write'] });
      expect([up.status, up.body.error.code, up.body.error.details.missingScopes]).toEqual([
        403,
        'forbidden',
        ['forms.write'],
      ]);
      const same = await as(narrow.value, 'POST', '/tokens', { kind: 'management' });
      expect([same.status, same.body.token.scopes, same.body.token.allScopes]).toEqual([
        201,
        ['forms.read', 'tokens.admin'],
        false,
      ]);
      const less = await as(narrow.value, 'POST', '/tokens', { kind: 'management', scopes: ['forms.read'] });
      expect(less.status).toBe(201);
      // Only a token with every scope mints one with every scope.
      const full = await admin('POST', '/tokens', { kind: 'management' });
      expect([full.status, full.body.token.allScopes]).toEqual([201, true]);
    });

    it('revokes a token: it stops working at once here; revoking it again is 404', async () => {
      const { token, value } = (
        await admin('POST', '/tokens', { kind: 'management', scopes: ['content.write'] })
      ).body;
      expect((await as(value, 'GET', '/entries')).status).toBe(200);
      const cvBefore = (await getSpace(t.store, 'spc_test'))?.cv;
      const res = await admin('DELETE', `/tokens/${token.id}`);
      expect([res.status, res.body]).toEqual([200, { revoked: token.id }]);
      expect((await as(value, 'GET', '/entries')).status).toBe(401);
      // A revocation is not a publish: cached responses of the space stay valid.
      expect((await getSpace(t.store, 'spc_test'))?.cv).toBe(cvBefore);
      expect((await admin('DELETE', `/tokens/${token.id}`)).status).toBe(404);
      const list = await admin('GET', '/tokens');
      expect(list.body.tokens.map((x: { id: string }) => x.id)).not.toContain(token.id);
    });

    it('a tokens.admin token handles only tokens that can do no more than it: create and revoke', async () => {
      const admin1 = await storeToken(t.store, ['tokens.admin']);
      const editor = await storeToken(t.store, ['content.write']);
      const preview = await storeToken(t.store, null, 'preview');
      const pub = await storeToken(t.store, null, 'public');
      const fixture = (await admin('GET', '/tokens')).body.tokens.find(
        (x: { hint: string }) => x.hint === tokenHint(TOKENS.management),
      );
      const refused = async (method: Probe['method'], path: string, body: unknown, missing: Scope[]) => {
        const res = await as(admin1.value, method, path, body);
        expect([
          method,
          path,
          res.status,
          res.body.error?.code,
          res.body.error?.details?.missingScopes,
        ]).toEqual([method, path, 403, 'forbidden', missing]);
      };
      // Revoking: an editor's access, a preview token (drafts count as content.write), the old all-scope token.
      await refused('DELETE', `/tokens/${editor.id}`, undefined, ['content.write']);
      await refused('DELETE', `/tokens/${preview.id}`, undefined, ['content.write']);
      await refused('DELETE', `/tokens/${fixture.id}`, undefined, [
        'content.write',
        'forms.write',
        'forms.read',
        'forms.erase',
      ]);
      // Creating: the same rule (management scopes were already checked; preview tokens were not).
      await refused('POST', '/tokens', { kind: 'preview' }, ['content.write']);
      await refused('POST', '/tokens', { kind: 'management', scopes: ['forms.read'] }, ['forms.read']);
      // Nothing changed: every one of them still works.
      expect((await as(editor.value, 'GET', '/entries')).status).toBe(200);
      expect((await as(TOKENS.management, 'GET', '/tokens')).status).toBe(200);
      const list = (await admin('GET', '/tokens')).body.tokens.map((x: { id: string }) => x.id);
      for (const id of [editor.id, preview.id, fixture.id]) expect(list).toContain(id);

      // Public tokens read what is public anyway; a token with no more than tokens.admin is its peer.
      const minted = await as(admin1.value, 'POST', '/tokens', { kind: 'public' });
      expect(minted.status).toBe(201);
      expect((await as(admin1.value, 'DELETE', `/tokens/${pub.id}`)).status).toBe(200);
      expect((await as(admin1.value, 'DELETE', `/tokens/${minted.body.token.id}`)).status).toBe(200);
      const peer = await storeToken(t.store, ['tokens.admin']);
      expect((await as(admin1.value, 'DELETE', `/tokens/${peer.id}`)).status).toBe(200);

      // With content.write as well, preview tokens and editors are within reach.
      const wider = await storeToken(t.store, ['content.write', 'tokens.admin']);
      const made = await as(wider.value, 'POST', '/tokens', { kind: 'preview' });
      expect([made.status, made.body.token.kind]).toEqual([201, 'preview']);
      expect((await as(wider.value, 'DELETE', `/tokens/${made.body.token.id}`)).status).toBe(200);
      expect((await as(wider.value, 'DELETE', `/tokens/${preview.id}`)).status).toBe(200);
      expect((await as(wider.value, 'DELETE', `/tokens/${editor.id}`)).status).toBe(200);
      expect((await as(editor.value, 'GET', '/entries')).status).toBe(401);
      // A token may still revoke itself.
      expect((await as(admin1.value, 'DELETE', `/tokens/${admin1.id}`)).status).toBe(200);
      expect((await as(wider.value, 'DELETE', `/tokens/${wider.id}`)).status).toBe(200);
    });

    it('writes the activity log for form saves and token changes, newest first, paged, never a value', async () => {
      // A few milliseconds apart: the log orders by time, then by (random) id.
      const tick = () => new Promise((r) => setTimeout(r, 3));
      expect((await admin('POST', '/forms', emailForm('logged'))).status).toBe(201);
      await tick();
      expect((await admin('PUT', '/forms/logged', { ...emailForm('logged'), name: 'Logged' })).status).toBe(
        200,
      );
      await tick();
      expect((await admin('DELETE', '/forms/logged')).status).toBe(200);
      await tick();
      const created = (await admin('POST', '/tokens', { kind: 'management', scopes: ['forms.erase'] })).body;
      await tick();
      expect((await admin('DELETE', `/tokens/${created.token.id}`)).status).toBe(200);

      const res = await admin('GET', '/activity?limit=5');
      expect(res.status).toBe(200);
      expect(res.body.items.map((i: { action: string; subject: string }) => [i.action, i.subject])).toEqual([
        ['token.revoked', created.token.id],
        ['token.created', created.token.id],
        ['form.deleted', 'logged'],
        ['form.updated', 'logged'],
        ['form.created', 'logged'],
      ]);
      for (const item of res.body.items) {
        expect(item).toEqual({
          id: expect.stringMatching(/^act_/),
          at: expect.any(String),
          actor: adminId,
          actorName: null,
          action: item.action,
          subject: item.subject,
          details: expect.any(Object),
        });
      }
      expect(res.body.items[0].details).toEqual({ kind: 'management', scopes: 'forms.erase' });
      expect(res.body.items[2].details).toEqual({ cv: expect.any(Number) });
      expect(JSON.stringify(res.body)).not.toContain(created.value);
      expect(JSON.stringify(res.body)).not.toContain(hashToken(created.value));

      // Keyset paging: two pages of two and one cover the same five, without repeats.
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 3; page++) {
        const q: string = cursor === null ? '' : `&cursor=${cursor}`;
        const p = await admin('GET', `/activity?limit=2${q}`);
        seen.push(...p.body.items.map((i: { id: string }) => i.id));
        cursor = p.body.nextCursor;
      }
      expect(seen.slice(0, 5)).toEqual(res.body.items.map((i: { id: string }) => i.id));
      expect(new Set(seen).size).toBe(seen.length);

      const forms = await admin('GET', '/activity?action=form.created');
      expect(forms.body.items.every((i: { action: string }) => i.action === 'form.created')).toBe(true);
      expect(forms.body.items.map((i: { subject: string }) => i.subject)).toContain('logged');

      for (const bad of ['action=form.eaten', 'cursor=nope', 'limit=0', 'limit=201', 'since=1']) {
        const r = await admin('GET', `/activity?${bad}`);
        expect([bad, r.status, r.body.error.code]).toEqual([bad, 400, 'invalid_query']);
      }
    });

    it('refuses to revoke the last token with tokens.admin (409); revoking the one in use is allowed', async () => {
      // Runs last: it revokes the fixture's management token. Every scope: it revokes tokens with every scope too.
      const keeper = (await admin('POST', '/tokens', { kind: 'management' })).body;
      expect(keeper.token.allScopes).toBe(true);
      const list = await as(keeper.value, 'GET', '/tokens');
      const admins = list.body.tokens.filter(
        (x: { id: string; scopes: string[] | null }) =>
          x.id !== keeper.token.id && x.scopes?.includes('tokens.admin'),
      );
      expect(admins.length).toBeGreaterThan(0);
      for (const other of admins)
        expect((await as(keeper.value, 'DELETE', `/tokens/${other.id}`)).status).toBe(200);
      const last = await as(keeper.value, 'DELETE', `/tokens/${keeper.token.id}`);
      expect([last.status, last.body.error.code]).toEqual([409, 'conflict']);
      expect((await as(keeper.value, 'GET', '/tokens')).status).toBe(200);

      const next = (
        await as(keeper.value, 'POST', '/tokens', { kind: 'management', scopes: ['tokens.admin'] })
      ).body;
      const self = await as(keeper.value, 'DELETE', `/tokens/${keeper.token.id}`);
      expect([self.status, self.body]).toEqual([200, { revoked: keeper.token.id }]);
      expect((await as(keeper.value, 'GET', '/tokens')).status).toBe(401);
      expect((await as(next.value, 'GET', '/tokens')).status).toBe(200);
      expect((await admin('GET', '/tokens')).status).toBe(401);
    });
  });
});

describe('parsing a token request (parse, do not cast)', () => {
  it('answers junk with 400 invalid_body or a typed request, never anything else', () => {
    const member = fc.oneof(fc.jsonValue(), fc.constantFrom('management', 'public', 'preview'));
    const body = fc.dictionary(fc.constantFrom('kind', 'name', 'origins', 'scopes', 'other'), member);
    fc.assert(
      fc.property(body, (junk) => {
        try {
          const parsed = parseNewToken(junk);
          expect(['public', 'preview', 'management']).toContain(parsed.kind);
          expect(parsed.origins.every((o) => typeof o === 'string')).toBe(true);
          if (parsed.scopes !== undefined) expect(parsed.scopes.every((s) => SCOPES.includes(s))).toBe(true);
        } catch (err) {
          expect(err).toBeInstanceOf(FolioError);
          expect((err as FolioError).code).toBe('invalid_body');
        }
      }),
    );
  });
});

/**
 * Two apps on one database through two store connections (as in test/cluster-fanout.test.ts): a revocation
 * through A reaches B only through the fan-out channel under test.
 */
describe('a revocation reaches every instance within the cv fan-out bound', () => {
  const open: { env: TestEnv; other: Store; apps: FastifyInstance[]; prefix?: string }[] = [];
  afterEach(async () => {
    for (const o of open.splice(0)) {
      for (const a of o.apps) await a.close();
      await o.other.close();
      await o.env.close();
      if (o.prefix) await clearRedisPrefix(o.prefix);
    }
  });

  async function revokedElsewhere(engine: Engine, config: Partial<Config>, prefix?: string) {
    const env = await openTestEnv(engine);
    await importBundle(env.store, env.blobs, fixtureBundle(), { baseDir: await fixtureDir() });
    const other = await openStore(env.storeConfig);
    const a = await buildEdgeApp(env, config);
    const b = await buildEdgeApp({ ...env, store: other }, config);
    open.push({ env, other, apps: [a, b], ...(prefix === undefined ? {} : { prefix }) });

    const mgt = await storeToken(env.store, ['content.write']);
    const pub = await storeToken(env.store, null, 'public');
    const entries = () => call(b, 'GET', `${SPACE}/entries`, bearer(mgt.value));
    const status = () => call(b, 'GET', '/v1/spc_test/status', bearer(pub.value));
    // B has both remembered (its token lookup cache keeps answers 10 s).
    expect((await entries()).status).toBe(200);
    expect((await status()).status).toBe(200);
    const cv = (await getSpace(env.store, 'spc_test'))?.cv;

    const started = Date.now();
    for (const id of [mgt.id, pub.id])
      expect((await call(a, 'DELETE', `${SPACE}/tokens/${id}`, bearer(TOKENS.management))).status).toBe(200);
    await expect.poll(async () => (await entries()).status, { timeout: 2000, interval: 20 }).toBe(401);
    await expect.poll(async () => (await status()).status, { timeout: 2000, interval: 20 }).toBe(401);
    expect(Date.now() - started).toBeLessThan(2500);
    expect((await getSpace(env.store, 'spc_test'))?.cv).toBe(cv);
    return { a, b };
  }

  it('PostgreSQL: NOTIFY folio_tokens, with the poll an hour away', async () => {
    const { b } = await revokedElsewhere('postgres', { cvPollMs: HOUR });
    expect(b.folioEdge.fanout.channel).toBe('postgres-notify');
  });

  it('SQLite with Redis: pub/sub of local revocations, with the poll an hour away', async () => {
    const prefix = uniquePrefix();
    const { b } = await revokedElsewhere(
      'sqlite',
      { cvPollMs: HOUR, redisUrl: REDIS_URL, redisPrefix: prefix },
      prefix,
    );
    expect(b.folioEdge.fanout.channel).toBe('redis-pubsub');
  });

  it('SQLite without Redis: the poll (CV_POLL_MS)', async () => {
    const { b } = await revokedElsewhere('sqlite', { cvPollMs: 500 });
    expect(b.folioEdge.fanout.channel).toBe('in-process');
  });
});

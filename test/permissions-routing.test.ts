// Routing answers is reading them. A webhook endpoint receiving `form.submitted` and a form's
// notify, notifyRules, chatWebhookUrl and confirmationEmail send visitors' answers somewhere: setting or changing
// them needs `forms.read` besides the scope of the change. Webhook changes go into the activity log.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../src/auth/scopes.js';
import type { FormDefinition } from '../src/forms/rules/index.js';
import { TURNSTILE_TEST_SECRETS } from '../src/forms/submission/turnstile.js';
import { ENGINES } from './helpers/engines.js';
import { TOKENS } from './helpers/fixture.js';
import { emailForm } from './helpers/form-defs.js';
import { call, type ManagementApp, openManagementApp, type Res } from './helpers/management.js';
import { storeScopedToken } from './helpers/tokens.js';

const SPACE = '/v1/spaces/spc_test';
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Every routing setting, each set to something (a confirmation email needs Turnstile and an email field). */
const ROUTED: FormDefinition['settings'] = {
  notify: ['team@example.com'],
  notifyRules: [
    {
      when: { match: 'all', rules: [{ field: 'email', op: 'equals', value: 'press@press.example' }] },
      to: ['press@example.com'],
    },
  ],
  chatWebhookUrl: 'https://chat.example.com/hooks/T0/B0/secret',
  confirmationEmail: { subject: { en: 'Thanks' }, body: { en: 'We got it.' } },
  turnstileSiteKey: '1x00000000000000000000AA',
  turnstileSecret: TURNSTILE_TEST_SECRETS.pass,
};
const ROUTING_KEYS = ['notify', 'notifyRules', 'chatWebhookUrl', 'confirmationEmail'] as const;

describe.each(ENGINES)('routing answers needs forms.read on %s', (engine) => {
  let t: ManagementApp;
  const tokens: Partial<Record<'writer' | 'router' | 'editor' | 'hooker', string>> = {};
  const as = (
    who: keyof typeof tokens | 'admin',
    method: Method,
    path: string,
    body?: unknown,
  ): Promise<Res> =>
    call(
      t.app,
      method,
      `${SPACE}${path}`,
      { authorization: `Bearer ${who === 'admin' ? TOKENS.management : tokens[who]}` },
      body,
    );
  const refusedForRouting = (res: Res, routing: string[]) => {
    expect([res.status, res.body.error?.code]).toEqual([403, 'forbidden']);
    expect(res.body.error.details).toEqual({ missingScopes: ['forms.read'], routing });
  };

  beforeAll(async () => {
    t = await openManagementApp(engine, { worker: false, webhookAllowPrivate: true });
    const make = (scopes: Scope[]) => storeScopedToken(t.store, 'spc_test', scopes);
    tokens.writer = await make(['forms.write']);
    tokens.router = await make(['forms.write', 'forms.read']);
    tokens.editor = await make(['content.write']);
    tokens.hooker = await make(['content.write', 'forms.read']);
  });
  afterAll(async () => t.close());

  describe('forms', () => {
    it('forms.write alone creates a form without routing; with any routing setting it is 403 and nothing is saved', async () => {
      for (const key of ROUTING_KEYS) {
        const settings = {
          ...(key === 'confirmationEmail'
            ? { turnstileSiteKey: ROUTED.turnstileSiteKey, turnstileSecret: ROUTED.turnstileSecret }
            : {}),
          [key]: ROUTED[key],
        };
        for (const [method, path] of [
          ['POST', '/forms'],
          ['PUT', `/forms/r-${key.toLowerCase()}`],
        ] as const) {
          const res = await as('writer', method, path, emailForm(`r-${key.toLowerCase()}`, settings));
          refusedForRouting(res, [`settings.${key}`]);
        }
        expect((await as('admin', 'GET', `/forms/r-${key.toLowerCase()}`)).status).toBe(404);
      }
      const plain = await as(
        'writer',
        'POST',
        '/forms',
        emailForm('plain', { notify: [], chatWebhookUrl: null }),
      );
      expect(plain.status).toBe(201);
    });

    it('with forms.read it routes; then forms.write alone may save the form with routing unchanged, not changed', async () => {
      const routed = emailForm('routed', ROUTED);
      expect((await as('router', 'POST', '/forms', routed)).status).toBe(201);
      // The same routing, other labels: an editor without forms.read fixes a typo (key order does not matter).
      const relabelled = {
        ...routed,
        name: 'Routed, relabelled',
        settings: {
          ...ROUTED,
          notify: [...(ROUTED.notify ?? [])],
          confirmationEmail: { body: { en: 'We got it.' }, subject: { en: 'Thanks' } },
        },
      };
      expect((await as('writer', 'PUT', '/forms/routed', relabelled)).status).toBe(200);
      // Each change of a routing setting, adding, changing or removing, is refused and changes nothing.
      const changes: [string, FormDefinition['settings']][] = [
        ['notify', { ...ROUTED, notify: ['attacker@example.net'] }],
        ['notify', { ...ROUTED, notify: [...(ROUTED.notify ?? []), 'attacker@example.net'] }],
        ['notifyRules', { ...ROUTED, notifyRules: [] }],
        ['chatWebhookUrl', { ...ROUTED, chatWebhookUrl: 'https://chat.example.net/hooks/mine' }],
        ['confirmationEmail', { ...ROUTED, confirmationEmail: null }],
      ];
      for (const [key, settings] of changes) {
        refusedForRouting(await as('writer', 'PUT', '/forms/routed', { ...routed, settings }), [
          `settings.${key}`,
        ]);
      }
      const { chatWebhookUrl: _chat, ...withoutChat } = ROUTED;
      refusedForRouting(await as('writer', 'PUT', '/forms/routed', { ...routed, settings: withoutChat }), [
        'settings.chatWebhookUrl',
      ]);
      const stored = (await as('admin', 'GET', '/forms/routed')).body.form;
      expect(stored.name).toBe('Routed, relabelled');
      expect(stored.settings.notify).toEqual(ROUTED.notify);
      expect(stored.settings.chatWebhookUrl).toBe(ROUTED.chatWebhookUrl);
      // With forms.read the same changes go through; deleting the form routes nothing.
      expect(
        (
          await as('router', 'PUT', '/forms/routed', {
            ...routed,
            settings: { ...ROUTED, notify: ['desk@example.com'] },
          })
        ).status,
      ).toBe(200);
      expect((await as('writer', 'DELETE', '/forms/routed')).status).toBe(200);
    });

    it('records which routing settings a save changed in the activity log, never their values', async () => {
      const log = await as('admin', 'GET', '/activity?action=form.updated&limit=5');
      const mine = log.body.items.find(
        (i: { subject: string; details: { routing?: string } }) =>
          i.subject === 'routed' && i.details.routing !== undefined,
      );
      expect(mine.details).toEqual({ cv: expect.any(Number), routing: 'settings.notify' });
      const created = await as('admin', 'GET', '/activity?action=form.created');
      const routedCreated = created.body.items.find((i: { subject: string }) => i.subject === 'routed');
      expect(routedCreated.details.routing).toBe(
        'settings.notify,settings.notifyRules,settings.chatWebhookUrl,settings.confirmationEmail',
      );
      const text = JSON.stringify([log.body, created.body]);
      expect(text).not.toContain('example.com');
      expect(text).not.toContain('hooks/');
    });
  });

  describe('webhook endpoints', () => {
    const url = 'http://127.0.0.1:9/hooks/path-token-123';
    const hook = (events: string[], extra: Record<string, unknown> = {}) => ({ url, events, ...extra });

    it('content.write alone registers endpoints, but none that receives form.submitted (or *)', async () => {
      refusedForRouting(await as('editor', 'POST', '/webhooks', hook(['form.submitted'])), ['events']);
      refusedForRouting(await as('editor', 'POST', '/webhooks', hook(['*'])), ['events']);
      refusedForRouting(await as('editor', 'POST', '/webhooks', hook(['menu.updated', 'form.submitted'])), [
        'events',
      ]);
      expect((await as('admin', 'GET', '/webhooks')).body.webhooks).toEqual([]);

      const menus = await as('editor', 'POST', '/webhooks', hook(['menu.updated']));
      expect(menus.status).toBe(201);
      // Subscribing it later is the same routing.
      refusedForRouting(
        await as('editor', 'PATCH', `/webhooks/${menus.body.webhook.id}`, { events: ['*'] }),
        ['events'],
      );
      // A disabled endpoint receives nothing: registering one is allowed, enabling it is routing.
      const off = await as('editor', 'POST', '/webhooks', hook(['form.submitted'], { enabled: false }));
      expect(off.status).toBe(201);
      refusedForRouting(await as('editor', 'PATCH', `/webhooks/${off.body.webhook.id}`, { enabled: true }), [
        'enabled',
      ]);
      expect(
        (await as('hooker', 'PATCH', `/webhooks/${off.body.webhook.id}`, { enabled: true })).status,
      ).toBe(200);
    });

    it('an endpoint receiving form.submitted is re-pointed only with forms.read; other changes need content.write', async () => {
      const made = await as('hooker', 'POST', '/webhooks', hook(['form.submitted', 'menu.updated']));
      expect(made.status).toBe(201);
      const id = made.body.webhook.id;
      refusedForRouting(
        await as('editor', 'PATCH', `/webhooks/${id}`, { url: 'http://127.0.0.1:9/elsewhere' }),
        ['url'],
      );
      expect((await as('admin', 'GET', `/webhooks/${id}`)).body.webhook.url).toBe(url);
      // Rotating the secret, disabling, unsubscribing and deleting route nothing anywhere.
      expect((await as('editor', 'PATCH', `/webhooks/${id}`, { secret: 'rotate' })).status).toBe(200);
      expect((await as('editor', 'PATCH', `/webhooks/${id}`, { enabled: false })).status).toBe(200);
      expect(
        (await as('editor', 'PATCH', `/webhooks/${id}`, { url: 'http://127.0.0.1:9/moved', enabled: false }))
          .status,
      ).toBe(200);
      expect(
        (await as('editor', 'PATCH', `/webhooks/${id}`, { events: ['menu.updated'], enabled: true })).status,
      ).toBe(200);
      expect((await as('editor', 'DELETE', `/webhooks/${id}`)).status).toBe(200);
    });

    it('every endpoint change is in the activity log with the acting token, never the secret or the URL path', async () => {
      const made = await as('hooker', 'POST', '/webhooks', hook(['*']));
      const id = made.body.webhook.id;
      const secret = made.body.webhook.secret;
      const rotated = (
        await as('editor', 'PATCH', `/webhooks/${id}`, { secret: 'rotate', events: ['menu.updated'] })
      ).body.webhook.secret;
      expect((await as('editor', 'DELETE', `/webhooks/${id}`)).status).toBe(200);
      const log = await as('admin', 'GET', '/activity?limit=200');
      const entries = log.body.items.filter((i: { subject: string }) => i.subject === id) as {
        action: string;
        at: string;
        details: unknown;
      }[];
      // Newest first by time; two changes in the same millisecond come in either order (their ids are random).
      const times = entries.map((e) => e.at);
      expect(times).toEqual([...times].sort().reverse());
      const mine = entries.map((i) => [i.action, i.details]);
      expect(mine).toHaveLength(3);
      expect(mine).toEqual(
        expect.arrayContaining([
          ['webhook.deleted', { events: 'menu.updated', enabled: true, host: '127.0.0.1:9' }],
          [
            'webhook.updated',
            { events: 'menu.updated', enabled: true, host: '127.0.0.1:9', changed: 'events,secret' },
          ],
          ['webhook.created', { events: '*', enabled: true, host: '127.0.0.1:9' }],
        ]),
      );
      const actors = log.body.items
        .filter((i: { subject: string }) => i.subject === id)
        .map((i: { actor: string }) => i.actor);
      expect(new Set(actors).size).toBe(2);
      for (const action of ['webhook.created', 'webhook.updated', 'webhook.deleted']) {
        const only = await as('admin', 'GET', `/activity?action=${action}`);
        expect(only.status).toBe(200);
        expect(only.body.items.length).toBeGreaterThan(0);
      }
      const text = JSON.stringify(log.body);
      for (const hidden of [secret, rotated, 'path-token-123']) expect(text).not.toContain(hidden);
    });
  });
});

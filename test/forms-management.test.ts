import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines.js';
import { TOKENS } from './helpers/fixture.js';
import { contactForm, emailForm } from './helpers/form-defs.js';
import { type FormsApp, formsHttp, openFormsApp } from './helpers/forms.js';

const pub = { authorization: `Bearer ${TOKENS.public}` };
const forms = '/v1/spaces/spc_test/forms';

describe.each(ENGINES)('managing forms on %s (spec 2.10–2.12, 4.5)', (engine) => {
  let t: FormsApp;
  beforeAll(async () => {
    t = await openFormsApp(engine);
  });
  afterAll(async () => t.close());

  const { manage, cvNow } = formsHttp(() => t);

  describe('management API', () => {
    it('creates a form (a publish: cv goes up) and reads it back as authored', async () => {
      const before = await cvNow();
      const res = await manage(
        'POST',
        forms,
        contactForm('signup', { turnstileSiteKey: 'sk', turnstileSecret: 'shh' }),
      );
      expect(res.status).toBe(201);
      expect(res.body.cv).toBe(before + 1);
      expect(await cvNow()).toBe(before + 1);
      const read = await manage('GET', `${forms}/signup`);
      expect(read.body.form).toEqual(
        contactForm('signup', { turnstileSiteKey: 'sk', turnstileSecret: 'shh' }),
      );
      const list = await manage('GET', forms);
      expect(list.body.forms.map((f: { key: string }) => f.key)).toEqual(['contact', 'signup']);
    });

    it('answers 409 conflict when creating an existing key; PUT replaces (200) or creates (201)', async () => {
      expect((await manage('POST', forms, emailForm('dup'))).status).toBe(201);
      const again = await manage('POST', forms, emailForm('dup'));
      expect([again.status, again.body.error.code]).toEqual([409, 'conflict']);
      const replaced = await manage('PUT', `${forms}/dup`, { ...emailForm('dup'), name: 'Renamed' });
      expect([replaced.status, replaced.body.form.name]).toEqual([200, 'Renamed']);
      const created = await manage('PUT', `${forms}/fresh`, { name: 'Fresh', fields: [], settings: {} });
      expect([created.status, created.body.form.key]).toEqual([201, 'fresh']);
      const mismatch = await manage('PUT', `${forms}/fresh`, emailForm('other'));
      expect([mismatch.status, mismatch.body.error.details.fields]).toEqual([
        422,
        { key: { code: 'invalid', message: 'must be "fresh" (the URL\'s key)' } },
      ]);
    });

    const field = (extra: Record<string, unknown>) => ({ key: 'f', type: 'text', label: 'F', ...extra });
    const invalid: [string, Record<string, unknown>, string, RegExp][] = [
      ['reserved key', { fields: [field({ key: '_page' })] }, 'fields[0].key', /reserved/],
      ['the honeypot name', { fields: [field({ key: 'website' })] }, 'fields[0].key', /spam trap/],
      ['duplicate keys', { fields: [field({}), field({})] }, 'fields[1].key', /duplicate key "f"/],
      [
        'text maxLength over 500',
        { fields: [field({ maxLength: 501 })] },
        'fields[0].maxLength',
        /at most 500/,
      ],
      [
        'textarea maxLength over 5,000',
        { fields: [field({ type: 'textarea', maxLength: 5001 })] },
        'fields[0].maxLength',
        /at most 5,000/,
      ],
      [
        'file maxSize over 10 MB',
        {
          fields: [{ key: 'cv', type: 'file', label: 'CV', maxSize: 10 * 1024 * 1024 + 1 }],
          settings: { turnstileSiteKey: 'a', turnstileSecret: 'b' },
        },
        'fields[0].maxSize',
        /10 MB/,
      ],
      [
        'more than 10 files',
        {
          fields: [{ key: 'cv', type: 'file', label: 'CV', maxFiles: 11 }],
          settings: { turnstileSiteKey: 'a', turnstileSecret: 'b' },
        },
        'fields[0].maxFiles',
        /at most 10/,
      ],
      [
        'showIf naming a field below',
        {
          fields: [
            field({ showIf: { match: 'all', rules: [{ field: 'g', op: 'filled' }] } }),
            field({ key: 'g' }),
          ],
        },
        'fields[0].showIf.rules[0].field',
        /not above/,
      ],
      [
        'a file field without Turnstile',
        { fields: [{ key: 'cv', type: 'file', label: 'CV' }] },
        'fields[0]',
        /require Turnstile/,
      ],
      [
        'a confirmation email without Turnstile',
        {
          fields: [{ key: 'email', type: 'email', label: 'E' }],
          settings: { confirmationEmail: { subject: { en: 'Hi' }, body: { en: 'Thanks' } } },
        },
        'settings.confirmationEmail',
        /requires Turnstile/,
      ],
      [
        'more than 10 notification addresses',
        { settings: { notify: Array.from({ length: 11 }, (_, i) => `n${i}@example.com`) } },
        'settings.notify',
        /at most 10/,
      ],
      [
        'uniqueField not an email field',
        { fields: [field({})], settings: { uniqueField: 'f' } },
        'settings.uniqueField',
        /email field/,
      ],
      [
        'options and list on a choice field',
        {
          fields: [
            { key: 'c', type: 'select', label: 'C', options: [{ value: 'a', label: 'A' }], list: 'colors' },
          ],
        },
        'fields[0]',
        /either options or list/,
      ],
      [
        'neither options nor list',
        { fields: [{ key: 'c', type: 'radio', label: 'C' }] },
        'fields[0]',
        /need options or list/,
      ],
    ];
    it.each(invalid)('rejects %s with a precise path', async (_name, patch, path, message) => {
      const res = await manage('POST', forms, {
        key: 'bad',
        name: 'Bad',
        fields: [],
        settings: {},
        ...patch,
      });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('validation_failed');
      const fields = res.body.error.details.fields as Record<string, { code: string; message: string }>;
      expect(fields[path === '' ? '$' : path]?.message).toMatch(message);
      expect((await manage('GET', `${forms}/bad`)).status).toBe(404);
    });

    it('rejects texts PostgreSQL cannot store instead of failing', async () => {
      for (const name of ['Nul\u0000', 'Half \ud83d']) {
        const res = await manage('POST', forms, { ...emailForm('unstorable'), name });
        expect([res.status, res.body.error.code]).toEqual([422, 'validation_failed']);
      }
      const emoji = await manage('POST', forms, { ...emailForm('emoji'), name: 'Kontakt 😀 \\u0000' });
      expect(emoji.status).toBe(201);
    });

    it('needs a management token', async () => {
      expect((await t.inject({ method: 'GET', url: forms })).status).toBe(401);
      expect((await t.inject({ method: 'GET', url: forms, headers: pub })).status).toBe(403);
    });

    it('checks the token before reading the body, and answers no-store', async () => {
      // Without a token a malformed body is never parsed: 401, not 400.
      const anonymous = await t.app.inject({
        method: 'POST',
        url: forms,
        headers: { 'content-type': 'application/json' },
        payload: '{"key":',
      });
      expect([anonymous.statusCode, anonymous.json().error.code]).toEqual([401, 'unauthorized']);
      const listed = await manage('GET', forms);
      expect(listed.status).toBe(200);
      expect(listed.headers['cache-control']).toBe('no-store');
    });
  });
});
